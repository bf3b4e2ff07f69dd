//go:build !js && !wasip1

// The MCP helpers spawn processes, so they (and the tests using them) are
// native-only; the GOOS=js suites run everything else.

package core_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/codemode-go/codemode/core/mcp"
	"github.com/codemode-go/codemode/internal/mcptest"
)

// ---- the real @modelcontextprotocol/server-everything ----
//
// Both start the real server through internal/mcptest.

// connectEverythingStdio spawns server-everything over stdio as server name.
func connectEverythingStdio(t testing.TB, name string) *mcp.Server {
	t.Helper()
	node, script := mcptest.Script(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s, err := mcp.ConnectStdio(ctx, name, mcp.StdioCommand{Path: node, Args: []string{script, "stdio"}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// connectEverythingHTTP runs server-everything in streamableHttp mode on a free
// loopback port and connects to it as server name.
func connectEverythingHTTP(t testing.TB, name string) *mcp.Server {
	t.Helper()
	endpoint := mcptest.StartHTTP(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s, err := mcp.ConnectHTTP(ctx, name, endpoint, &http.Client{Timeout: 60 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() }) // runs before the process is stopped
	return s
}
