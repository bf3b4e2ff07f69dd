package apifiles

import (
	"fmt"
	"sort"
	"strings"

	"github.com/codemode-go/codemode/internal/jsident"
)

const maxIdentBytes = 64

// reserved names cannot be declared as `function x` or `namespace x` in a .d.ts,
// or would shadow behaviour of the object they live on (thenables, prototypes);
// $api is MCP.<server>.$api.
func reserved(s string) bool {
	return jsident.Restricted(s) || jsident.ObjectMember(s) || s == "$api"
}

// toolReserved are the members MCP.<server> already has.
var toolReserved = map[string]bool{"$api": true, "resources": true, "prompts": true}

// baseName applies the spelling rule without collision handling.
func baseName(name string, extra map[string]bool) string {
	var b strings.Builder
	upper := false
	for _, r := range name {
		isLetter := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
		isDigit := r >= '0' && r <= '9'
		if !isLetter && !isDigit && r != '_' {
			upper = true
			continue
		}
		if upper && b.Len() > 0 && r >= 'a' && r <= 'z' {
			r -= 'a' - 'A'
		}
		upper = false
		b.WriteRune(r)
		if b.Len() >= maxIdentBytes {
			break
		}
	}
	s := b.String()
	if s == "" {
		s = "_"
	}
	if s[0] >= '0' && s[0] <= '9' {
		s = "_" + s
	}
	if len(s) > maxIdentBytes {
		s = s[:maxIdentBytes]
	}
	if reserved(s) || extra[s] {
		s += "_"
	}
	return s
}

// assign maps each distinct original name to a unique safe spelling (see the
// package documentation for the rule). The result does not depend on input order.
func assign(names []string, extra map[string]bool) map[string]string {
	sorted := append([]string(nil), names...)
	sort.Strings(sorted)
	out := map[string]string{}
	taken := map[string]bool{}
	for _, n := range sorted {
		if _, done := out[n]; !done && baseName(n, extra) == n {
			out[n] = n
			taken[n] = true
		}
	}
	for _, n := range sorted {
		if _, done := out[n]; done {
			continue
		}
		base := baseName(n, extra)
		cand := base
		for i := 2; taken[cand]; i++ {
			cand = fmt.Sprintf("%s_%d", base, i)
		}
		out[n] = cand
		taken[cand] = true
	}
	return out
}

// SafeName is the safe spelling one name gets when nothing collides with it. Use
// SafeNames for the spelling actually used in a run.
func SafeName(name string) string { return baseName(name, nil) }

// ServerNames is one server's entry in the SafeNames mapping.
type ServerNames struct {
	Server string            // original server name
	Tools  map[string]string // safe tool spelling -> original tool name
}

// SafeNames returns, for the servers of a run, safe server spelling -> original
// server and its safe tool spellings. The runtime builds MCP.<server>.<tool> from
// it; the declarations rendered by Render use exactly the same spellings.
func SafeNames(servers []ServerDecl) map[string]ServerNames {
	out := map[string]ServerNames{}
	if len(servers) == 0 { // a run without MCP servers (a page's): normalize's first call spared
		return out
	}
	for _, s := range normalize(servers) {
		tools := make(map[string]string, len(s.tools))
		for _, t := range s.tools {
			tools[t.safe] = t.Name
		}
		out[s.safe] = ServerNames{Server: s.Name, Tools: tools}
	}
	return out
}
