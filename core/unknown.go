package core

import (
	"slices"
	"strconv"

	"github.com/codemode-go/codemode/internal/catalog"
	"github.com/codemode-go/codemode/internal/hint"
	"github.com/codemode-go/codemode/internal/quickjs"
)

// unknownName answers the guest's report of a name its object does not have
// (prelude.js guard) with the TypeError the cell reads: the closest names on
// that object, and the same name spelled as another object has it (a tool
// asked for on tools that is MCP.<server>.<tool>, say).
func (r *run) unknownName(req request) error {
	switch k := hint.Kind(req.Kind); k {
	case hint.Tools, hint.MCP, hint.MCPServer, hint.Namespace, hint.API, hint.Namespaces, hint.Member:
	default:
		return errInternalCall
	}
	m := hint.Miss{Kind: hint.Kind(req.Kind), Object: req.Where, Name: req.Name, Have: req.Have}
	if m.Kind != hint.API && m.Kind != hint.Namespaces && m.Kind != hint.Member {
		m.Elsewhere = r.elsewhere(req.Name, req.Where)
	}
	return &quickjs.Throw{Name: "TypeError", Message: hint.Message(m)}
}

// elsewhere lists the paths under which this run reaches a tool whose name is
// name spelled another way (hint.Fold), other than on object.
func (r *run) elsewhere(name, object string) []string {
	f := hint.Fold(name)
	if f == "" {
		return nil
	}
	var out []string
	add := func(obj, path string) {
		if obj != object && !slices.Contains(out, path) {
			out = append(out, path)
		}
	}
	safe := r.cat.SafeNames()
	onTools := map[string]bool{}
	for s, id := range safe {
		onTools[id] = true
		if hint.Fold(s) == f {
			add("tools", "tools."+s)
		}
	}
	for srv, names := range r.mcpSafe {
		for s, orig := range names.Tools {
			if hint.Fold(s) == f || hint.Fold(orig) == f {
				add("MCP."+srv, "MCP."+srv+"."+s)
			}
		}
	}
	for _, e := range r.cat.Entries() {
		if e.Source != catalog.SourceMCP && !onTools[e.ID] && hint.Fold(e.Name) == f {
			add("", "tools.call("+strconv.Quote(e.ID)+", input)")
		}
	}
	slices.Sort(out)
	if len(out) > 3 {
		out = out[:3]
	}
	return out
}
