// Package hint writes the message a cell reads when it asks one of the guest's
// objects (tools, MCP, MCP.<server>, a plugin namespace, API, namespaces) for
// a name it does not have. A model acts on that message alone, so it names
// what was asked for, the closest real names and where to look for more.
//
// "Closest" knows the spellings the runtime itself makes: a tool name becomes
// tools.<name> with non-identifier characters as "_" (shipping-list ->
// shipping_list), and an MCP tool becomes MCP.<server>.<camelCase>
// (get-env -> getEnv). Names that differ only in case and in "_", "-", "."
// or spaces are the same name spelled another way; beyond that, edit
// distance picks typos.
package hint

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/codemode-go/codemode/internal/jsident"
	"github.com/codemode-go/codemode/internal/text"
)

// Kind is what sort of guest object was asked.
type Kind string

const (
	Tools      Kind = "tools"      // the global tools
	MCP        Kind = "mcp"        // the global MCP (its members are servers)
	MCPServer  Kind = "mcp-server" // MCP.<server> (its members are tools)
	Namespace  Kind = "namespace"  // a plugin namespace's global
	API        Kind = "api"        // the global API
	Namespaces Kind = "namespaces" // the global namespaces map
	Member     Kind = "member"     // another runtime object (MCP.<server>.resources, ...)
)

// Miss is one name a cell asked for and did not find.
type Miss struct {
	Kind   Kind
	Object string   // how the cell reaches the object: "tools", "MCP.everything", "Issues"
	Name   string   // what it asked for
	Have   []string // the object's own member names
	// Elsewhere are full paths on other objects ("MCP.everything.getEnv",
	// `tools.call("openclaw:core:x", input)`) that name the same thing.
	Elsewhere []string
}

// Bounds that keep the message short whatever the cell asked for.
const (
	maxNameBytes  = 80
	maxSuggested  = 3
	maxListed     = 12
	maxMessageLen = 1200
)

// Message is the TypeError text for m.
func Message(m Miss) string {
	var b strings.Builder
	b.WriteString(member(m.Object, m.Name))
	b.WriteString(" is not ")
	b.WriteString(what(m))
	b.WriteString(".")
	near := Nearest(m.Name, m.Have, maxSuggested)
	var sugg []string
	for _, n := range near {
		sugg = append(sugg, member(m.Object, n))
	}
	for _, e := range m.Elsewhere {
		if len(sugg) < maxSuggested+2 && !slices.Contains(sugg, e) {
			sugg = append(sugg, e)
		}
	}
	if len(sugg) > 0 {
		b.WriteString(" Did you mean ")
		b.WriteString(OrList(sugg))
		b.WriteString("?")
	} else if list := listing(m); list != "" {
		b.WriteString(" ")
		b.WriteString(list)
	}
	b.WriteString(" ")
	b.WriteString(where(m))
	return text.Clip(strings.ToValidUTF8(b.String(), "\uFFFD"), maxMessageLen)
}

// what the object is, for "x.y is not <what>".
func what(m Miss) string {
	switch m.Kind {
	case Tools:
		return "a tool in this run"
	case MCP:
		return "an MCP server in this run"
	case MCPServer:
		return "a tool of the MCP server " + m.Object
	case Namespaces:
		return "a plugin namespace in this run"
	}
	return "a member of " + m.Object
}

// listing names what the object has, when nothing is close.
func listing(m Miss) string {
	if len(m.Have) == 0 {
		switch m.Kind {
		case MCP:
			return "No MCP server is connected in this run."
		case Namespaces:
			return "No plugin namespace is available in this run."
		}
		return m.Object + " has no members."
	}
	have := slices.Clone(m.Have)
	slices.Sort(have)
	more := ""
	if len(have) > maxListed {
		more = " and " + strconv.Itoa(len(have)-maxListed) + " more"
		have = have[:maxListed]
	}
	for i, h := range have {
		have[i] = quoteName(h)
	}
	return m.Object + " has " + strings.Join(have, ", ") + more + "."
}

// where to look for more, per kind.
func where(m Miss) string {
	probe := "`" + jsString(cut(m.Name)) + " in " + m.Object + "` tests a name without throwing."
	switch m.Kind {
	case Tools:
		return "Find tools with `await tools.search(" + jsString(words(m.Name)) + ")` or ALL_TOOLS, and call any id with tools.call(id, input); " + probe
	case MCP:
		return "`await API.list(\"mcp\")` lists their declarations; " + probe
	case MCPServer:
		return "`await " + m.Object + ".$api()` lists its tools, `await tools.search(" + jsString(words(m.Name)) + ")` searches every tool; " + probe
	case API:
		return "`await API.list()` lists the declaration files, `await API.read(path)` reads one."
	}
	return "Object.keys(" + m.Object + ") lists its members; " + probe
}

// member is how the cell writes object.name: dotted for an identifier,
// bracketed and quoted otherwise.
func member(object, name string) string {
	name = cut(name)
	if jsident.IsIdentifier(name) {
		return object + "." + name
	}
	return object + "[" + jsString(name) + "]"
}

func quoteName(n string) string {
	if n = cut(n); jsident.IsIdentifier(n) {
		return n
	}
	return jsString(n)
}

// jsString is a JavaScript string literal for s (JSON's syntax is a subset).
func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func cut(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	if len(s) > maxNameBytes {
		return text.Cut(s, maxNameBytes) + text.Ellipsis
	}
	return s
}

// words turns a name into a search query: shiping_list -> "shiping list",
// getEnv -> "get env".
func words(name string) string {
	var b strings.Builder
	prevLower := false
	for _, r := range cut(name) {
		switch {
		case r == '_' || r == '-' || r == '.' || r == '$' || unicode.IsSpace(r):
			if b.Len() > 0 && !strings.HasSuffix(b.String(), " ") {
				b.WriteByte(' ')
			}
			prevLower = false
			continue
		case unicode.IsUpper(r) && prevLower:
			b.WriteByte(' ')
		}
		b.WriteRune(unicode.ToLower(r))
		prevLower = unicode.IsLower(r) || unicode.IsDigit(r)
	}
	return strings.TrimSpace(b.String())
}

// OrList joins names as "a", "a or b", "a, b or c".
func OrList(s []string) string {
	if len(s) <= 1 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " or " + s[len(s)-1]
}

// Fold is a name as the spelling rules see it: lower case, without "_", "-",
// ".", "$" and spaces, so shipping_list, shippingList and "shipping-list"
// are one name.
func Fold(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r == '_' || r == '-' || r == '.' || r == '$' || unicode.IsSpace(r) {
			continue
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

// Nearest returns at most n of have closest to name, best first: other
// spellings of the same name (Fold; when there are any, only those), then
// names within a small edit distance of it (typos), then names that contain
// it or that it contains.
func Nearest(name string, have []string, n int) []string {
	f := Fold(name)
	if f == "" || utf8.RuneCountInString(f) > 256 {
		return nil
	}
	type cand struct {
		name  string
		score int
	}
	var cs []cand
	limit := max(1, min(3, utf8.RuneCountInString(f)/3))
	for _, h := range have {
		if h == name {
			continue
		}
		g := Fold(h)
		if g == "" || utf8.RuneCountInString(g) > 256 {
			continue
		}
		switch d := Distance(f, g, -1); {
		case d == 0:
			cs = append(cs, cand{h, 0})
		case d <= limit:
			cs = append(cs, cand{h, d})
		case len(f) >= 4 && len(g) >= 4 && (strings.Contains(g, f) || strings.Contains(f, g)):
			cs = append(cs, cand{h, limit + 1})
		}
	}
	slices.SortStableFunc(cs, func(a, b cand) int {
		if a.score != b.score {
			return a.score - b.score
		}
		return strings.Compare(a.name, b.name)
	})
	var out []string
	for _, c := range cs {
		if len(out) == n || c.score > 0 && len(out) > 0 && cs[0].score == 0 {
			break // the same name spelled another way is the answer; typos would only distract
		}
		out = append(out, c.name)
	}
	return out
}

// Distance is the optimal string alignment (Damerau-Levenshtein) distance in
// runes: an insertion, deletion, substitution or swap of two neighbouring
// characters is one typo. With limit >= 0 it gives up once every entry of a
// row exceeds limit and returns limit+1 (no later row can come back under it).
// The catalog's unknown-id suggestions use it too.
func Distance(a, b string, limit int) int {
	x, y := []rune(a), []rune(b)
	prev2 := make([]int, len(y)+1)
	prev := make([]int, len(y)+1)
	cur := make([]int, len(y)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(x); i++ {
		cur[0] = i
		rowMin := cur[0]
		for j := 1; j <= len(y); j++ {
			cost := 1
			if x[i-1] == y[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && x[i-1] == y[j-2] && x[i-2] == y[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
			rowMin = min(rowMin, cur[j])
		}
		if limit >= 0 && rowMin > limit {
			return limit + 1
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(y)]
}
