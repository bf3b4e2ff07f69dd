package catalog

import (
	"maps"

	"github.com/codemode-go/codemode/internal/jsident"
)

// helperNames are the catalog helpers on `tools`. Beside them, no name may
// become a tools.<name> convenience function that jsident restricts (reserved
// words, arguments/eval/undefined/NaN/Infinity) or that shadows an
// Object.prototype member, toJSON or `then` (which would make `tools` a thenable
// that `await tools` calls).
var helperNames = map[string]bool{"search": true, "describe": true, "call": true, "callValue": true}

func reservedSafeName(s string) bool {
	return helperNames[s] || jsident.Restricted(s) || jsident.ObjectMember(s)
}

// safeName normalises a tool name to a JavaScript identifier: every character
// outside [A-Za-z0-9_$] becomes "_" and a leading digit gets a "_" prefix. It
// returns "" for names that cannot or must not become a member of `tools`.
func safeName(name string) string {
	if name == "" || len(name) > 64 {
		return ""
	}
	b := []byte(name)
	for i, c := range b {
		if !(c == '_' || c == '$' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) {
			b[i] = '_'
		}
	}
	s := string(b)
	if s[0] >= '0' && s[0] <= '9' {
		s = "_" + s
	}
	if reservedSafeName(s) || len(s) >= 2 && s[:2] == "__" {
		return "" // "__" is kept for the runtime's own hidden members
	}
	return s
}

// safeNames maps each unique safe name to its entry id. Names claimed by two or
// more entries are dropped for all of them, so a collision can never make one tool
// shadow another; those tools stay reachable through tools.call(id, input).
func safeNames(entries []Entry) map[string]string {
	owner := make(map[string]string, len(entries))
	clash := map[string]bool{}
	for _, e := range entries {
		if e.Source == SourceMCP {
			continue
		}
		s := safeName(e.Name)
		if s == "" {
			continue
		}
		if _, dup := owner[s]; dup {
			clash[s] = true
			continue
		}
		owner[s] = e.ID
	}
	for s := range clash {
		delete(owner, s)
	}
	return owner
}

// SafeNames returns safe identifier -> id for the tools.<name> convenience
// functions (non-MCP, unique, not reserved). The map is a copy.
func (c *Catalog) SafeNames() map[string]string { return maps.Clone(c.safe) }
