//go:build !js && !wasip1

package core_test

import (
	"context"
	"fmt"
	osexec "os/exec"

	"github.com/codemode-go/codemode/core"
	"github.com/codemode-go/codemode/core/mcp"
)

// An MCP server, here the reference server-everything as a child process over
// stdio (mcp.ConnectHTTP speaks Streamable HTTP instead): its tools join every
// run's catalog as mcp:everything:<tool>, and the guest calls them through
// MCP.everything. The child gets only an allowlist of the host's environment.
func Example_mcpServer() {
	ctx := context.Background()
	node, err := osexec.LookPath("node")
	if err != nil {
		fmt.Println("Node.js is not installed")
		return
	}
	server, err := mcp.ConnectStdio(ctx, "everything", mcp.StdioCommand{Path: node,
		Args: []string{"../node_modules/@modelcontextprotocol/server-everything/dist/index.js", "stdio"}})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer server.Close()
	rt, err := newExampleRuntime(ctx, core.Options{MCPServers: []*mcp.Server{server}})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer rt.Close(ctx)
	res := rt.Exec(ctx, core.CallInfo{CallID: "call_1"}, core.ExecInput{Code: `
		const r = await MCP.everything.echo({message: "hi"});
		return r.content[0].text;`})
	fmt.Println(res.Status, string(res.Value))
	// Output:
	// completed "Echo: hi"
}
