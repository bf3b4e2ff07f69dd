package edge_test

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/codemode-go/codemode/edge"
)

// TestMCPRoute: /mcp exists only with Options.MCP; then every method reaches
// it after the /v1 bearer check, with the principal in the context and the
// body bounded by MaxBodyBytes (the MCP server itself is tested in
// edge/mcpserver against real clients).
func TestMCPRoute(t *testing.T) {
	if a := do(t, "POST", newServer(t, edge.Options{}).URL+"/mcp", "", `{}`); a.status != 404 || strings.Contains(string(a.body), "MCP server") {
		t.Fatalf("/mcp without Options.MCP: %d %s", a.status, a.body)
	}
	type seen struct {
		method, principal string
		body              int
		err               bool
	}
	got := make(chan seen, 8)
	mcp := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, err := io.ReadAll(r.Body)
		got <- seen{r.Method, edge.Principal(r.Context()), len(b), err != nil}
		w.WriteHeader(http.StatusAccepted)
	})
	srv := newServer(t, edge.Options{MCP: mcp, MaxBodyBytes: 1024,
		Tokens: []edge.Token{{Principal: "alice", Token: "alice-token-0123456789"}}})
	if a := do(t, "POST", srv.URL+"/nope", "alice-token-0123456789", `{}`); a.status != 404 || !strings.Contains(string(a.body), "the MCP server (Streamable HTTP) is /mcp") {
		t.Errorf("404 does not name /mcp: %s", a.body)
	}
	for _, m := range []string{"POST", "GET", "DELETE"} {
		if a := do(t, m, srv.URL+"/mcp", "", `{}`); a.status != 401 {
			t.Errorf("%s /mcp without a token: %d", m, a.status)
		}
		if a := do(t, m, srv.URL+"/mcp", "alice-token-0123456789", `{}`); a.status != 202 {
			t.Errorf("%s /mcp: %d %s", m, a.status, a.body)
		}
		if s := <-got; s.method != m || s.principal != "alice" {
			t.Errorf("%s reached the MCP handler as %+v", m, s)
		}
	}
	if a := do(t, "POST", srv.URL+"/mcp", "alice-token-0123456789", strings.Repeat(" ", 2048)); a.status != 413 || a.json(t)["error"].(map[string]any)["code"] != "body_too_large" {
		t.Errorf("oversized declared body: %d %s", a.status, a.body)
	}
}
