//go:build !codemode_hostjs

// Streamable HTTP only needs an *http.Client, so every host can use it: natively
// with net/http, and in a WebAssembly host with a client whose RoundTripper is
// backed by fetch.

package mcp

import (
	"context"
	"fmt"
	"net/http"
	"net/url"

	"github.com/codemode-go/codemode/internal/mcpname"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// ConnectHTTP opens a Streamable HTTP session with the server at endpoint (for example
// http://127.0.0.1:3001/mcp). client nil means http.DefaultClient; put auth headers
// into its RoundTripper. The standalone server-to-client SSE stream is not opened:
// Code Mode needs no unsolicited notifications, and long-lived GET streams are
// costly or impossible in Workers.
func ConnectHTTP(ctx context.Context, name, endpoint string, client *http.Client) (*Server, error) {
	if err := mcpname.Validate(name); err != nil {
		return nil, err
	}
	u, err := url.Parse(endpoint)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("MCP server %q: endpoint %q is not an http(s) URL", name, endpoint)
	}
	if client == nil {
		client = http.DefaultClient
	}
	return Connect(ctx, name, &sdk.StreamableClientTransport{
		Endpoint:             endpoint,
		HTTPClient:           client,
		DisableStandaloneSSE: true,
	})
}
