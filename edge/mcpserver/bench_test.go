package mcpserver_test

import (
	"context"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/codemode-go/codemode/core"
)

// BenchmarkTrivialExec: what the MCP layer adds to a trivial cell ("return
// 1"): the core's Exec called directly, tools/call exec over an in-memory
// pipe (the stdio path) and over Streamable HTTP through the HTTP API's
// handler (auth included), stateful and stateless. Compare them in one run:
//
//	go test -run '^$' -bench TrivialExec -benchtime 2s ./edge/mcpserver/
func BenchmarkTrivialExec(b *testing.B) {
	f := newFixture(b, 2000)
	ctx := context.Background()
	args := map[string]any{"code": "return 1"}
	b.Run("core", func(b *testing.B) {
		for b.Loop() {
			if r := f.rt.Exec(ctx, core.CallInfo{Scope: core.Scope{AgentID: "bench"}}, core.ExecInput{Code: "return 1"}); r.Status != core.StatusCompleted {
				b.Fatal(r.Error)
			}
		}
	})
	for _, tr := range []struct {
		name string
		cs   func() *sdk.ClientSession
	}{
		{"mcp-pipe", func() *sdk.ClientSession { return f.connect(b, nil) }},
		{"mcp-http", func() *sdk.ClientSession { cs, _ := connectHTTP(b, f.serveHTTP(b, 0).URL, tokenAlice, nil); return cs }},
		// NewStateless (the Worker's /mcp): a temporary SDK session per request.
		{"mcp-http-stateless", func() *sdk.ClientSession {
			hs, _ := serveStateless(b, f)
			cs, _ := connectHTTP(b, hs.URL, tokenAlice, nil)
			return cs
		}},
	} {
		b.Run(tr.name, func(b *testing.B) {
			cs := tr.cs()
			for b.Loop() {
				res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "exec", Arguments: args})
				if err != nil || res.IsError {
					b.Fatal(err, res)
				}
			}
		})
	}
}
