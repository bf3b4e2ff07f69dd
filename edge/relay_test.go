package edge_test

import (
	"strings"
	"testing"

	"github.com/codemode-go/codemode/edge"
	"github.com/codemode-go/codemode/internal/ops"
)

func TestCatalogListsEntriesWithSchemaTrustAndOwner(t *testing.T) {
	srv := newServer(t, edge.Options{})
	a := do(t, "GET", srv.URL+"/v1/catalog?agentId=a", "", "")
	if a.status != 200 {
		t.Fatalf("status %d: %s", a.status, a.body)
	}
	m := a.json(t)
	entries, _ := m["entries"].([]any)
	byName := map[string]map[string]any{}
	for _, e := range entries {
		em := e.(map[string]any)
		byName[em["name"].(string)] = em
	}
	ship := byName["shipping_list"]
	if ship == nil || ship["id"] != "openclaw:shipping:shipping_list" || ship["trust"] != "trusted" || ship["owner"] != "shipping" {
		t.Fatalf("shipping_list entry = %v", ship)
	}
	if ship["output"] == nil || ship["parameters"] == nil || ship["outputSchema"] == nil {
		t.Errorf("trusted entry lacks its output hint or schemas: %v", ship)
	}
	for _, gone := range []string{"exec", "secret_admin", "screenshot"} {
		if byName[gone] != nil {
			t.Errorf("catalog lists %s (control, denied or direct-only)", gone)
		}
	}
	if _, ok := m["mcpServers"].([]any); !ok {
		t.Errorf("mcpServers missing: %s", a.body)
	}
}

func TestToolsCallRunsThroughTheCatalog(t *testing.T) {
	srv := newServer(t, edge.Options{})
	a := post(t, srv, "/v1/tools/call", `{"id":"openclaw:core:echo","input":{"message":"hi"},`+scope+`}`)
	if a.status != 200 || !strings.Contains(string(a.body), `"details":{"message":"hi"}`) {
		t.Fatalf("echo: %d %s", a.status, a.body)
	}
	for _, c := range []struct{ name, body, code string }{
		{"control tool", `{"id":"openclaw:core:exec","input":{},` + scope + `}`, "unknown_tool"},
		{"denied tool", `{"id":"openclaw:core:secret_admin","input":{},` + scope + `}`, "unknown_tool"},
		{"failing tool", `{"id":"openclaw:core:fail",` + scope + `}`, "tool_failed"},
		{"panicking tool", `{"id":"openclaw:core:boom","input":{},` + scope + `}`, "tool_failed"},
		// The catalog checks the input against the tool's parameters before it runs.
		{"input its parameters refuse", `{"id":"openclaw:core:sleep_ms","input":{"ms":"x"},` + scope + `}`, "invalid_input"},
	} {
		t.Run(c.name, func(t *testing.T) {
			a := post(t, srv, "/v1/tools/call", c.body)
			if a.status != 200 || a.errorCode(t) != c.code {
				t.Fatalf("got %d %s, want 200 with code %s", a.status, a.body, c.code)
			}
			if strings.Contains(string(a.body), "/home/") || strings.Contains(string(a.body), "goroutine") {
				t.Errorf("answer leaks host detail: %s", a.body)
			}
		})
	}
}

// TestToolsCallRefusesExactlyAsTheGuest: the relay's message for a control or
// denied id is the one a guest's tools.call gets.
func TestToolsCallRefusesExactlyAsTheGuest(t *testing.T) {
	srv := newServer(t, edge.Options{})
	for _, id := range []string{"openclaw:core:exec", "openclaw:core:secret_admin"} {
		relay := post(t, srv, "/v1/tools/call", `{"id":"`+id+`",`+scope+`}`).json(t)["error"].(map[string]any)["message"].(string)
		guest := post(t, srv, "/v1/exec", `{"code":"try { await tools.call('`+id+`', {}) } catch (e) { return e.message }",`+scope+`}`).json(t)["value"]
		if guest != relay {
			t.Errorf("%s: relay says %q, guest says %q", id, relay, guest)
		}
	}
}

func TestCatalogQueryIsStrict(t *testing.T) {
	srv := newServer(t, edge.Options{})
	if a := do(t, "GET", srv.URL+"/v1/catalog?agent=a", "", ""); a.status != 400 || a.errorCode(t) != ops.CodeUnknownField {
		t.Fatalf("unknown query parameter: %d %s", a.status, a.body)
	}
	for _, q := range []string{"agentId=a&agentId=b", "agentId=a&agentId=a", "sessionKey=&sessionKey=k"} {
		a := do(t, "GET", srv.URL+"/v1/catalog?"+q, "", "")
		if a.status != 400 || a.errorCode(t) != ops.CodeDuplicateField || !strings.Contains(string(a.body), "given 2 times") {
			t.Errorf("%s: %d %s", q, a.status, a.body)
		}
	}
	if a := do(t, "HEAD", srv.URL+"/v1/catalog", "", ""); a.status != 200 || len(a.body) != 0 {
		t.Fatalf("HEAD: %d %q", a.status, a.body)
	}
}

// TestMCPReadRoutesDecodeStrictlyAndHideUnknownServers: POST
// /v1/mcp/resources/read and /v1/mcp/prompts/get name a missing field, and a
// server the scope's catalog does not show (here: none is configured) is an
// unknown server, answered 200 like a relayed tool's failure.
func TestMCPReadRoutesDecodeStrictlyAndHideUnknownServers(t *testing.T) {
	srv := newServer(t, edge.Options{})
	for _, c := range []struct{ name, path, body, want string }{
		{"resource without server", "/v1/mcp/resources/read", `{"uri":"demo://x",` + scope + `}`, "missing_field"},
		{"resource without uri", "/v1/mcp/resources/read", `{"server":"everything",` + scope + `}`, "missing_field"},
		{"resource without scope", "/v1/mcp/resources/read", `{"server":"everything","uri":"demo://x"}`, "missing_field"},
		{"prompt without name", "/v1/mcp/prompts/get", `{"server":"everything",` + scope + `}`, "missing_field"},
		{"prompt with non-string arguments", "/v1/mcp/prompts/get", `{"server":"everything","name":"p","arguments":{"city":1},` + scope + `}`, "wrong_type"},
		{"unknown field", "/v1/mcp/prompts/get", `{"server":"everything","name":"p","extra":1,` + scope + `}`, "unknown_field"},
	} {
		t.Run(c.name, func(t *testing.T) {
			a := post(t, srv, c.path, c.body)
			if a.status != 400 || a.errorCode(t) != c.want {
				t.Fatalf("got %d %s, want 400 %s", a.status, a.body, c.want)
			}
		})
	}
	for path, body := range map[string]string{
		"/v1/mcp/resources/read": `{"server":"nowhere","uri":"demo://x",` + scope + `}`,
		"/v1/mcp/prompts/get":    `{"server":"nowhere","name":"p",` + scope + `}`,
	} {
		a := post(t, srv, path, body)
		if a.status != 200 || a.errorCode(t) != "unknown_tool" || !strings.Contains(string(a.body), "unknown MCP server nowhere") {
			t.Errorf("%s on an unknown server: %d %s", path, a.status, a.body)
		}
	}
}
