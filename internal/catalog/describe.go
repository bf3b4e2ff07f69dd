package catalog

import (
	"encoding/json"
	"fmt"
	"github.com/codemode-go/codemode/internal/hint"
	"github.com/codemode-go/codemode/internal/tsschema"
	"slices"
	"strconv"
	"strings"
)

// Describe is tools.describe: the exact, case-sensitive id of a non-MCP entry with
// its full schemas. It never picks another tool; a near miss fails naming up to
// three close ids.
func (c *Catalog) Describe(id string) (EntryWithSchema, error) {
	c.describes.Add(1)
	it, err := c.resolve(id, ViaTools)
	if err != nil {
		return EntryWithSchema{}, err
	}
	return it.withSchema(), nil
}

// Lookup is the exact-id lookup for the MCP namespace path (MCP.<server>.<tool>
// and API.read declarations), where MCP entries are allowed. It is not counted as a
// guest describe.
func (c *Catalog) Lookup(id string) (EntryWithSchema, error) {
	it, err := c.resolve(id, ViaMCP)
	if err != nil {
		return EntryWithSchema{}, err
	}
	return it.withSchema(), nil
}

// MCPEntries lists the MCP entries in catalog order, for the MCP namespace and its
// declaration files. Their Input stays "unknown"; use Lookup for the schema.
func (c *Catalog) MCPEntries() []Entry {
	var out []Entry
	for _, it := range c.items {
		if it.spec.Source == SourceMCP {
			out = append(out, it.entry)
		}
	}
	return out
}

func (it *item) withSchema() EntryWithSchema {
	p := it.spec.Parameters
	if len(p) == 0 {
		p = json.RawMessage(`{}`)
	}
	return EntryWithSchema{Entry: it.entry, Parameters: p, OutputSchema: it.spec.OutputSchema}
}

// resolve finds the item for an exact id as seen from the given path.
func (c *Catalog) resolve(id string, via Via) (*item, error) {
	it, ok := c.byID[id]
	if !ok {
		return nil, c.unknown(id, via)
	}
	isMCP := it.spec.Source == SourceMCP
	switch {
	case via == ViaMCP && !isMCP:
		return nil, newErr(ErrNotMCP, fmt.Sprintf("tool id %q is not an MCP tool; call it with tools.call(id, input)", id))
	case via != ViaMCP && isMCP:
		return nil, newErr(ErrMCPViaTools, fmt.Sprintf("tool id %q is an MCP tool; MCP tools are called through MCP.<server>.<tool>(...)", id))
	}
	return it, nil
}

func (c *Catalog) unknown(id string, via Via) error {
	shown := tsschema.Quote(id, 200)
	msg := "unknown tool id " + shown
	if cands := c.closest(id, via, 3); len(cands) > 0 {
		q := make([]string, len(cands))
		for i, s := range cands {
			q[i] = strconv.Quote(s)
		}
		msg += "; did you mean " + hint.OrList(q) + "?"
	}
	return newErr(ErrUnknownTool, msg)
}

// closest returns up to n ids reachable from `via` within a small edit distance of
// id (case-insensitive), nearest first, ties in catalog order.
func (c *Catalog) closest(id string, via Via, n int) []string {
	if len(id) > 256 {
		return nil
	}
	lid := strings.ToLower(id)
	// The ids share long prefixes ("openclaw:core:"), so the bound is tight.
	limit := max(2, len(id)/8)
	type cand struct {
		id string
		d  int
	}
	var cs []cand
	for _, it := range c.items {
		if (it.spec.Source == SourceMCP) != (via == ViaMCP) {
			continue
		}
		cid := it.entry.ID
		if abs(len(cid)-len(id)) > limit {
			continue
		}
		if d := hint.Distance(lid, strings.ToLower(cid), limit); d <= limit {
			cs = append(cs, cand{cid, d})
		}
	}
	slices.SortStableFunc(cs, func(a, b cand) int { return a.d - b.d })
	out := make([]string, 0, n)
	for _, c := range cs[:min(n, len(cs))] {
		out = append(out, c.id)
	}
	return out
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
