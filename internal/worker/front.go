package worker

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"

	"github.com/codemode-go/codemode/core"
	"github.com/codemode-go/codemode/core/mcp"
	"github.com/codemode-go/codemode/edge"
	"github.com/codemode-go/codemode/edge/mcpserver"
	"github.com/codemode-go/codemode/internal/catalog"
	"github.com/codemode-go/codemode/internal/demo"
	"github.com/codemode-go/codemode/internal/hostopts"
)

// Version is what /healthz reports for the Worker.
const Version = "worker"

// FrontOptions assemble the front.
type FrontOptions struct {
	// Settings is the Worker's configuration (ReadSettings).
	Settings Settings
	// Send reaches the session objects.
	Send Sender
	// Client is the HTTP client for remote MCP servers (fetch in workerd).
	Client *http.Client
	// Logger receives edge's request log and MCP connection failures.
	Logger *slog.Logger
	// ExampleTools is the example toolset, set only by a demo build of the
	// front (edge/worker/front with the codemode_demo tag; nil otherwise).
	ExampleTools demo.Tools
}

// NewFront builds the front's handler: the edge handler over a Forwarder. It
// is built once per isolate and serves every request of it (index.mjs starts
// one Go program per isolate): the example toolset (demo builds) and the relay core are
// shared, read-only, by all requests.
//
// Remote MCP servers are connected per request, and only for the relay routes
// (relaysMCP), the only ones that use them here: in workerd an I/O object
// (a fetch, a stream) belongs to the request that made it, so an MCP session
// kept across requests would hand one request's half-finished fetch to the
// next, which may hang on it once the first request ended. A server that
// fails to connect is logged and left out, as natively; the connections close
// before the answer goes out. Exec, wait and surface pay nothing for them, and
// the session objects cache the catalog (src/core.mjs).
func NewFront(o FrontOptions) (http.Handler, error) {
	// The example tools' namespace (Issues) is the session objects' own
	// registration (the page's core), so the front keeps only the tools.
	tools, _, err := o.ExampleTools.Select(o.Settings.ExampleTools)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", EnvConfig, err)
	}
	relayCore := func(ctx context.Context, servers []*mcp.Server) (*core.Runtime, error) {
		co := core.Options{
			Config:     o.Settings.CodeMode,
			Tools:      func(context.Context, core.Scope) ([]catalog.Tool, error) { return tools, nil },
			MCPServers: servers,
		}
		hostopts.Of(&co).RelayOnly = true
		return core.New(ctx, co)
	}
	relay, err := relayCore(context.Background(), nil)
	if err != nil {
		return nil, err
	}
	fw := &Forwarder{Relay: relay, Send: o.Send, InterruptsPerSecond: o.Settings.InterruptsPerSecond,
		PollsPerSecond: o.Settings.PollsPerSecond, Logger: o.Logger}
	if len(o.Settings.MCPServers) > 0 {
		fw.RelayMCP = func(ctx context.Context) (*core.Runtime, func()) {
			servers := connectMCP(ctx, o)
			closeAll := func() {
				for _, s := range servers {
					s.Close()
				}
			}
			rt, err := relayCore(ctx, servers)
			if err != nil { // the config was valid a moment ago: never, but answer without MCP
				closeAll()
				return relay, func() {}
			}
			return rt, closeAll
		}
	}
	// /mcp: the same MCP server as codemode serve's, stateless, because no
	// request of this isolate (or any other) holds a session: the principal
	// and the MCP session id name the session's object, as /v1's scope does.
	mcpSrv := mcpserver.NewStateless(fw, mcpserver.Options{Version: Version, MaxBodyBytes: o.Settings.MaxBodyBytes, Logger: o.Logger})
	h, err := edge.New(fw, edge.Options{
		Tokens: o.Settings.Tokens, AllowedOrigins: o.Settings.AllowedOrigins, MaxBodyBytes: o.Settings.MaxBodyBytes, Logger: o.Logger,
		Version: Version, Engine: "quickjs-wasi on V8 (Cloudflare Durable Object)", MCP: mcpSrv.HTTPHandler(),
	})
	if err != nil {
		return nil, err
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.ServeHTTP(w, r.WithContext(WithRelayAuth(r.Context(), r.Header.Get("Authorization"))))
	}), nil
}

// connectMCP connects the Worker's remote MCP servers for one request.
func connectMCP(ctx context.Context, o FrontOptions) []*mcp.Server {
	var servers []*mcp.Server
	for _, s := range o.Settings.MCPServers {
		client := o.Client
		if len(s.Headers) > 0 {
			client = withHeaders(client, s.Headers)
		}
		srv, err := mcp.ConnectHTTP(ctx, s.Name, s.URL, client)
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
	return servers
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
