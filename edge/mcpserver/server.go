// Package mcpserver serves Code Mode as an MCP server: the model-visible
// surface (exec with the quick index, wait and the direct-only tools) as MCP
// tools, over stdio (codemode mcp) or Streamable HTTP (/mcp of codemode
// serve), built on the official Go SDK. It is a thin host over the same
// operations as the HTTP API (edge): exec and wait decode their arguments
// into edge.ExecArgs and edge.WaitArgs with the same strict decoder, run
// core.Runtime.Exec and Wait, and answer the CodeModeResult as core.Result
// renders it; direct-only tools run through core.Runtime.CallDirect, the
// path of the HTTP API's tools/call.
//
// MCP's own features map onto the core:
//
//   - The MCP session is the scope: each session's runs have the scope
//     {agentId: Options.AgentID, sessionId: <MCP session id>} and the
//     principal of the HTTP bearer token, so a run suspended in one session
//     is unknown to every other; a session that ends ends its runs.
//   - notifications/cancelled of a tools/call aborts its exec or wait.
//   - With a progress token, an exec or wait blocked on slow tools sends
//     notifications/progress every Options.ProgressEvery.
//   - When an upstream MCP server's tool list changes, tools/list is rebuilt
//     and notifications/tools/list_changed goes to every session.
//
// The hidden catalog never appears in tools/list; the guest reaches it, and
// the upstream servers' resources and prompts, through tools.*, MCP.<server>
// and API as in every other host.
package mcpserver

import (
	"context"
	"log/slog"
	"net/http"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/codemode-go/codemode/core"
	"github.com/codemode-go/codemode/core/catalog"
	"github.com/codemode-go/codemode/edge"
	json "github.com/goccy/go-json"
)

// Runtime is what the server asks of a core; *core.Runtime implements it.
// edge.Operations are exec, wait, the surface (tools/list) and the config
// (exec's languages), as the HTTP API calls them.
type Runtime interface {
	edge.Operations
	// CallDirect runs a direct-only tool (tools/call of any other name).
	CallDirect(ctx context.Context, call core.CallInfo, name string, input json.RawMessage) (catalog.Result, *core.ToolError)
	// EndSession ends the runs of an MCP session that closed.
	EndSession(scope core.Scope) int
	// WatchCatalog tells the server when tools/list must be rebuilt.
	WatchCatalog(fn func()) (stop func())
}

var _ Runtime = (*core.Runtime)(nil)

// Defaults of Options.
const (
	DefaultAgentID       = "mcp"
	DefaultProgressEvery = time.Second
	DefaultIdleTimeout   = time.Hour
)

// Options configures a Server; the zero value is ready to use.
type Options struct {
	// Name and Version are the server's implementation info in initialize;
	// "codemode" and "dev" when empty.
	Name, Version string
	// AgentID is the agentId of every session's scope; DefaultAgentID when
	// empty.
	AgentID string
	// ProgressEvery is how often a call blocked on slow tools reports
	// progress (when the client sent a progress token); DefaultProgressEvery
	// when zero.
	ProgressEvery time.Duration
	// IdleTimeout closes a Streamable HTTP session that sent no request for
	// this long (its runs end with it); DefaultIdleTimeout when zero.
	IdleTimeout time.Duration
	// MaxBodyBytes bounds a Streamable HTTP request body; 0 means
	// edge.DefaultMaxBodyBytes (the HTTP API's limit).
	MaxBodyBytes int64
	// Logger receives the SDK's and the server's records; nil logs nothing.
	Logger *slog.Logger
}

// Server is the Code Mode MCP server over one runtime. Every principal (the
// HTTP bearer token's; "" over stdio or without auth) gets an SDK server of
// its own, so a session can only ever be reached by the principal that
// opened it. It is safe for concurrent use.
type Server struct {
	rt   Runtime
	opts Options
	stop func()

	mu       sync.Mutex
	tools    []toolDef // the current surface, as registered
	servers  map[string]*principalServer
	closed   bool
	httpOnce sync.Once
	http     http.Handler
}

// New makes a server over rt. It reads the surface now and again each time
// rt's catalog changes; Close stops that.
func New(rt Runtime, opts Options) *Server {
	if opts.Name == "" {
		opts.Name = "codemode"
	}
	if opts.Version == "" {
		opts.Version = "dev"
	}
	if opts.AgentID == "" {
		opts.AgentID = DefaultAgentID
	}
	if opts.ProgressEvery <= 0 {
		opts.ProgressEvery = DefaultProgressEvery
	}
	if opts.IdleTimeout <= 0 {
		opts.IdleTimeout = DefaultIdleTimeout
	}
	if opts.MaxBodyBytes <= 0 {
		opts.MaxBodyBytes = edge.DefaultMaxBodyBytes
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	s := &Server{rt: rt, opts: opts, servers: map[string]*principalServer{}}
	s.tools = s.readSurface()
	s.stop = rt.WatchCatalog(s.refresh)
	return s
}

// Run serves one MCP connection over t (an *sdk.StdioTransport for codemode
// mcp) as the anonymous principal, until the client disconnects or ctx ends.
func (s *Server) Run(ctx context.Context, t sdk.Transport) error {
	return s.principal("").srv.Run(ctx, t)
}

// Close closes every session (their runs end) and stops following the
// catalog. Later connections are still served, without refreshes.
func (s *Server) Close() {
	s.mu.Lock()
	s.closed = true
	servers := make([]*principalServer, 0, len(s.servers))
	for _, ps := range s.servers {
		servers = append(servers, ps)
	}
	s.mu.Unlock()
	s.stop()
	for _, ps := range servers {
		for ss := range ps.srv.Sessions() {
			ss.Close()
		}
	}
}

// principal is the SDK server of one principal, made on first use.
func (s *Server) principal(p string) *principalServer {
	s.mu.Lock()
	defer s.mu.Unlock()
	if ps := s.servers[p]; ps != nil {
		return ps
	}
	ps := newPrincipalServer(s, p)
	ps.apply(s.tools, false)
	s.servers[p] = ps
	return ps
}

// refresh rebuilds tools/list after the catalog changed; the SDK tells each
// session (notifications/tools/list_changed) when a definition differs.
func (s *Server) refresh() {
	tools := s.readSurface()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed || tools == nil {
		return
	}
	s.tools = tools
	for _, ps := range s.servers {
		ps.apply(tools, true)
	}
}
