package worker

import (
	"context"
	"log/slog"
	"net/http"

	"github.com/codemode-go/codemode/core"
	"github.com/codemode-go/codemode/core/catalog"
	"github.com/codemode-go/codemode/core/mcp"
	"github.com/codemode-go/codemode/core/mcp/httpmcp"
	"github.com/codemode-go/codemode/edge"
	"github.com/codemode-go/codemode/examples/toolset"
)

// Version is what /healthz reports for the Worker.
const Version = "worker"

// FrontOptions assemble the front for one request.
type FrontOptions struct {
	// Settings is the Worker's configuration (ReadSettings).
	Settings Settings
	// Send reaches the session objects.
	Send Sender
	// Client is the HTTP client for remote MCP servers (fetch in workerd).
	Client *http.Client
	// Logger receives edge's request log and MCP connection failures.
	Logger *slog.Logger
	// Later runs work after the answer (Forwarder.Later): the Worker's
	// ctx.waitUntil.
	Later func(task func())
}

// NewFront builds the front's handler for a request to path: the edge handler
// over a Forwarder. Remote MCP servers are connected only for the relay routes
// (relaysMCP), the only ones that use them here: each request is a new Go
// instance, so a connection costs one MCP initialize per such request, and
// exec/wait/surface pay nothing. A server that fails to connect is logged and
// left out, as natively. The returned close releases the MCP sessions.
func NewFront(ctx context.Context, path string, o FrontOptions) (http.Handler, func(), error) {
	var tools []catalog.Tool
	if o.Settings.ExampleTools {
		t, err := toolset.Tools()
		if err != nil {
			return nil, nil, err
		}
		tools = t
	}
	var servers []*mcp.Server
	if relaysMCP[path] {
		for _, s := range o.Settings.MCPServers {
			client := o.Client
			if len(s.Headers) > 0 {
				client = withHeaders(client, s.Headers)
			}
			srv, err := httpmcp.Connect(ctx, s.Name, s.URL, client)
			if err != nil {
				if o.Logger != nil {
					o.Logger.Warn("MCP server left out", "server", s.Name, "reason", err.Error())
				}
				continue
			}
			if err := srv.TrustReadOnly(s.ReadOnlyTools...); err != nil && o.Logger != nil {
				o.Logger.Warn("MCP server readOnlyTools ignored", "server", s.Name, "reason", err.Error())
			}
			servers = append(servers, srv)
		}
	}
	closeAll := func() {
		for _, s := range servers {
			s.Close()
		}
	}
	relay, err := core.New(ctx, core.Options{
		Config:     o.Settings.CodeMode,
		Tools:      func(context.Context, core.Scope) ([]catalog.Tool, error) { return tools, nil },
		MCPServers: servers,
		RelayOnly:  true,
	})
	if err != nil {
		closeAll()
		return nil, nil, err
	}
	h, err := edge.New(&Forwarder{Relay: relay, Send: o.Send, InterruptsPerSecond: o.Settings.InterruptsPerSecond, PollsPerSecond: o.Settings.PollsPerSecond,
		Later: o.Later, Logger: o.Logger}, edge.Options{
		Tokens: o.Settings.Tokens, AllowedOrigins: o.Settings.AllowedOrigins, MaxBodyBytes: o.Settings.MaxBodyBytes, Logger: o.Logger,
		Version: Version, Engine: "quickjs-wasi on V8 (Cloudflare Durable Object)",
	})
	if err != nil {
		closeAll()
		return nil, nil, err
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.ServeHTTP(w, r.WithContext(WithRelayAuth(r.Context(), r.Header.Get("Authorization"))))
	}), closeAll, nil
}

// withHeaders adds fixed headers (an MCP server's API key) to every request.
func withHeaders(c *http.Client, hdr map[string]string) *http.Client {
	if c == nil {
		c = http.DefaultClient
	}
	base := c.Transport
	if base == nil {
		base = http.DefaultTransport
	}
	cc := *c
	cc.Transport = roundTripper(func(r *http.Request) (*http.Response, error) {
		r = r.Clone(r.Context())
		for k, v := range hdr {
			r.Header.Set(k, v)
		}
		return base.RoundTrip(r)
	})
	return &cc
}

type roundTripper func(*http.Request) (*http.Response, error)

func (f roundTripper) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// relaysMCP are the routes that need the remote MCP servers connected.
var relaysMCP = map[string]bool{
	"/v1/catalog": true, "/v1/tools/call": true,
	"/v1/mcp/resources/read": true, "/v1/mcp/prompts/get": true,
}
