package hint

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestNearest(t *testing.T) {
	have := []string{"shipping_list", "getEnv", "echo", "search", "describe", "call", "callValue", "github_list_issues", "printEnv"}
	for _, tc := range []struct {
		name string
		want []string
	}{
		{"shiping_list", []string{"shipping_list"}},  // a typo
		{"shippingList", []string{"shipping_list"}},  // camelCase for snake_case
		{"shipping-list", []string{"shipping_list"}}, // the tool's own name, before the safe spelling
		{"get_env", []string{"getEnv"}},              // snake_case for camelCase
		{"GETENV", []string{"getEnv"}},
		{"serach", []string{"search"}}, // a swapped pair is one typo
		{"callvalue", []string{"callValue"}},
		{"list_issues", []string{"github_list_issues"}}, // contained
		{"echo2", []string{"echo"}},
		{"zzzzzz", nil},
		{"", nil},
		{"x", nil},
	} {
		if got := Nearest(tc.name, have, 3); !slices.Equal(got, tc.want) {
			t.Errorf("Nearest(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b        string
		limit, want int
	}{
		{"kitten", "sitting", -1, 3},
		{"kitten", "sitting", 1, 2}, // gave up: limit+1
		{"serach", "search", -1, 1}, // a swap is one typo
		{"", "abc", -1, 3},
		{"héllo", "hello", -1, 1}, // runes, not bytes
		{"abc", "abc", 0, 0},
	} {
		if got := Distance(tc.a, tc.b, tc.limit); got != tc.want {
			t.Errorf("Distance(%q, %q, %d) = %d, want %d", tc.a, tc.b, tc.limit, got, tc.want)
		}
	}
	if OrList([]string{"a", "b", "c"}) != "a, b or c" || OrList([]string{"a"}) != "a" || OrList(nil) != "" {
		t.Error("OrList")
	}
}

func TestMessage(t *testing.T) {
	for _, tc := range []struct {
		name string
		m    Miss
		want []string
	}{
		{"tools typo", Miss{Kind: Tools, Object: "tools", Name: "shiping_list", Have: []string{"shipping_list", "search", "call"}},
			[]string{"tools.shiping_list is not a tool in this run.", "Did you mean tools.shipping_list?", `await tools.search("shiping list")`, `"shiping_list" in tools`}},
		{"tools name of an MCP tool", Miss{Kind: Tools, Object: "tools", Name: "getEnv", Have: []string{"search"}, Elsewhere: []string{"MCP.everything.getEnv"}},
			[]string{"Did you mean MCP.everything.getEnv?"}},
		{"mcp server tool in snake_case", Miss{Kind: MCPServer, Object: "MCP.everything", Name: "get_env", Have: []string{"getEnv", "echo", "$api", "resources", "prompts"}},
			[]string{"MCP.everything.get_env is not a tool of the MCP server MCP.everything.", "Did you mean MCP.everything.getEnv?", "await MCP.everything.$api()"}},
		{"mcp server typo", Miss{Kind: MCP, Object: "MCP", Name: "evrything", Have: []string{"everything"}},
			[]string{"MCP.evrything is not an MCP server in this run.", "Did you mean MCP.everything?", `API.list("mcp")`}},
		{"no mcp servers", Miss{Kind: MCP, Object: "MCP", Name: "github"}, []string{"No MCP server is connected in this run."}},
		{"namespace member", Miss{Kind: Namespace, Object: "Issues", Name: "lsit", Have: []string{"list", "update", "repository"}},
			[]string{"Issues.lsit is not a member of Issues.", "Did you mean Issues.list?", "Object.keys(Issues)"}},
		{"nothing close lists the members", Miss{Kind: Namespace, Object: "Issues", Name: "frobnicate", Have: []string{"update", "list"}},
			[]string{"Issues has list, update."}},
		{"API", Miss{Kind: API, Object: "API", Name: "lst", Have: []string{"list", "read"}}, []string{"Did you mean API.list?", "API.list()"}},
		{"a name that is no identifier is quoted", Miss{Kind: Tools, Object: "tools", Name: "a b\"c", Have: []string{"ab"}},
			[]string{`tools["a b\"c"] is not a tool`}},
		{"a long list is cut", Miss{Kind: Namespaces, Object: "namespaces", Name: "q", Have: strings.Fields("a1 a2 a3 a4 a5 a6 a7 a8 a9 b1 b2 b3 b4 b5")},
			[]string{"and 2 more."}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Message(tc.m)
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("Message = %q\nwant it to contain %q", got, w)
				}
			}
		})
	}
}

// hostDetail are words of the host's side a guest-visible message must never
// carry unless the cell itself wrote them (in the name it asked for or the
// names its objects have).
var hostDetail = []string{"goroutine", "bridge", "__openclaw", ".go:", "runtime.", "panic", "*core.", "quickjs.", "/home/", "/tmp/", "prelude.js", "map["}

// FuzzMessage: whatever a cell asks for, the message is valid UTF-8, bounded,
// names what was asked for, and carries no host detail the input did not.
func FuzzMessage(f *testing.F) {
	f.Add("tools", "shiping_list", "shipping_list\x00search", "")
	f.Add("mcp-server", "get_env", "getEnv\x00$api", "tools.getEnv")
	f.Add("namespace", "\xff\x00bridge", "", "")
	f.Add("mcp", strings.Repeat("é", 200), "everything", "")
	f.Fuzz(func(t *testing.T, kind, name, have, elsewhere string) {
		m := Miss{Kind: Kind(kind), Object: "obj", Name: name, Have: strings.Split(have, "\x00")}
		if elsewhere != "" {
			m.Elsewhere = []string{elsewhere}
		}
		got := Message(m)
		if !utf8.ValidString(got) {
			t.Fatalf("invalid UTF-8: %q", got)
		}
		if len(got) > maxMessageLen {
			t.Fatalf("%d bytes", len(got))
		}
		in := kind + name + have + elsewhere
		for _, w := range hostDetail {
			if strings.Contains(got, w) && !strings.Contains(in, w) {
				t.Fatalf("message carries %q the input did not: %q", w, got)
			}
		}
	})
}
