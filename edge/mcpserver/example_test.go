package mcpserver_test

import (
	"context"
	"fmt"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/codemode-go/codemode/core"
	"github.com/codemode-go/codemode/edge/mcpserver"
	json "github.com/goccy/go-json"
)

// Example serves a runtime with one tool as an MCP server and drives it with
// the official Go SDK's client: tools/list shows exec and wait, not the
// tool; the cell finds and calls it. codemode mcp runs the same server over
// stdio (sdk.StdioTransport); HTTPHandler serves it over Streamable HTTP.
func Example() {
	ctx := context.Background()
	weather, err := core.TypedFunc(core.Spec{Name: "weather", Description: "Current temperature of a city.", Owner: "demo"},
		func(ctx context.Context, in struct {
			City string `json:"city"`
		}) (struct {
			C int `json:"c"`
		}, error) {
			return struct {
				C int `json:"c"`
			}{21}, nil
		})
	if err != nil {
		panic(err)
	}
	cfg := core.DefaultConfig()
	cfg.Enabled = true
	rt, err := core.New(ctx, core.Options{Config: cfg, Namespaces: core.NewNamespaceRegistry(),
		Tools: func(context.Context, core.Scope) ([]core.Tool, error) { return []core.Tool{weather}, nil }})
	if err != nil {
		panic(err)
	}
	defer rt.Close(ctx)
	srv := mcpserver.New(rt, mcpserver.Options{})
	defer srv.Close()

	clientEnd, serverEnd := sdk.NewInMemoryTransports()
	go srv.Run(ctx, serverEnd)
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "example", Version: "1"}, nil).Connect(ctx, clientEnd, nil)
	if err != nil {
		panic(err)
	}
	defer cs.Close()

	tools, _ := cs.ListTools(ctx, nil)
	for _, t := range tools.Tools {
		fmt.Println("tool:", t.Name)
	}
	res, _ := cs.CallTool(ctx, &sdk.CallToolParams{Name: "exec", Arguments: map[string]any{
		"code": `const w = await tools.callValue("openclaw:demo:weather", {city: "Oslo"}); return "Oslo: " + w.c + "°C"`,
	}})
	b, _ := json.Marshal(res.StructuredContent)
	var r struct {
		Status string `json:"status"`
		Value  string `json:"value"`
	}
	json.Unmarshal(b, &r)
	fmt.Println(r.Status, r.Value, res.IsError)
	// Output:
	// tool: exec
	// tool: wait
	// completed Oslo: 21°C false
}
