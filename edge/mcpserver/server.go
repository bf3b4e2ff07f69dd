// Package mcpserver serves Code Mode as an MCP server: the model-visible
// surface (exec with the quick index, wait and the direct-only tools) as MCP
// tools, over stdio (codemode mcp) or Streamable HTTP (/mcp of codemode
// serve), built on the official Go SDK. It is a thin host over the same
// operations as the HTTP API (edge): exec and wait decode their arguments
// into ops.ExecArgs and ops.WaitArgs with the same strict decoder, run
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
// NewStateless serves the same tools where no request holds a session (the
// Cloudflare Worker): the session id is minted at initialize, principal and
// id name where the runs live (RemoteRuntime), cancellation and DELETE are
// forwarded there; it pushes nothing (no list_changed, no progress).
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
	"github.com/codemode-go/codemode/edge"
	"github.com/codemode-go/codemode/internal/catalog"
	"github.com/codemode-go/codemode/internal/relay"
	json "github.com/goccy/go-json"
)

// Operations is what every server asks of a core: edge.Operations are exec,
// wait, the surface (tools/list) and the config (exec's languages), as the
// HTTP API calls them.
type Operations interface {
	edge.Operations
	// CallDirect runs a direct-only tool (tools/call of any other name).
	CallDirect(ctx context.Context, call core.CallInfo, name string, input json.RawMessage) (catalog.Result, *relay.ToolError)
}

// Runtime is what a server in the core's own process (New) asks of it;
// *core.Runtime implements it.
type Runtime interface {
	Operations
	// EndSession ends the runs of an MCP session that closed.
	EndSession(scope core.Scope) int
	// WatchCatalog tells the server when tools/list must be rebuilt.
	WatchCatalog(fn func()) (stop func())
}

var _ Runtime = (*core.Runtime)(nil)

// RemoteRuntime is what a stateless server (NewStateless) asks of a host
// whose runs live somewhere no request of the server holds (the Cloudflare
// Worker's session objects). Calls carry the principal and the MCP session's
// scope, so the host finds the session's runs from any instance.
type RemoteRuntime interface {
	Operations
	// CancelCall aborts the run of the exec or wait named call.CallID in
	// call.Scope (notifications/cancelled, which arrives as a request of its
	// own): a call still in flight ends its run when it answers; a wait's
	// run ends at once. Nothing happens for a call that already answered.
	CancelCall(ctx context.Context, call core.CallInfo)
	// EndRemoteSession ends every run of call.Scope (DELETE /mcp).
	EndRemoteSession(ctx context.Context, call core.CallInfo)
}

// Defaults of Options.
const (
	defaultAgentID       = "mcp"
	defaultProgressEvery = time.Second
	defaultIdleTimeout   = time.Hour
)

// Options configures a Server; the zero value is ready to use.
type Options struct {
	// Name and Version are the server's implementation info in initialize;
	// "codemode" and "dev" when empty.
	Name, Version string
	// AgentID is the agentId of every session's scope; "mcp" when
	// empty.
	AgentID string
	// ProgressEvery is how often a call blocked on slow tools reports
	// progress (when the client sent a progress token); one second
	// when zero.
	ProgressEvery time.Duration
	// IdleTimeout closes a Streamable HTTP session that sent no request for
	// this long (its runs end with it); one hour when zero.
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
	rt     Operations
	local  Runtime       // New's runtime; nil when stateless
	remote RemoteRuntime // NewStateless's runtime; nil otherwise
	opts   Options
	stop   func()

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
	s := newServer(rt, opts)
	s.local = rt
	s.tools = s.readSurface(context.Background(), s.surfaceScope())
	s.stop = rt.WatchCatalog(s.refresh)
	return s
}

// NewStateless makes a server for a host where no state outlives a request
// and any instance may serve any request of a session (the Cloudflare
// Worker): its HTTPHandler keeps no MCP session. The session id is minted at
// initialize and names the session on every later request; the principal
// and that id make the scope {agentId: Options.AgentID, sessionId: <id>},
// which the host maps to where the runs live. tools/list is read from rt at
// the first request and kept. What it cannot do without a standing stream:
// push notifications/tools/list_changed, or progress (the cell runs where
// the server cannot see its pending tools). Only HTTPHandler serves it.
func NewStateless(rt RemoteRuntime, opts Options) *Server {
	s := newServer(rt, opts)
	s.remote = rt
	s.stop = func() {}
	return s
}

// newServer applies Options' defaults.
func newServer(rt Operations, opts Options) *Server {
	if opts.Name == "" {
		opts.Name = "codemode"
	}
	if opts.Version == "" {
		opts.Version = "dev"
	}
	if opts.AgentID == "" {
		opts.AgentID = defaultAgentID
	}
	if opts.ProgressEvery <= 0 {
		opts.ProgressEvery = defaultProgressEvery
	}
	if opts.IdleTimeout <= 0 {
		opts.IdleTimeout = defaultIdleTimeout
	}
	if opts.MaxBodyBytes <= 0 {
		opts.MaxBodyBytes = edge.DefaultMaxBodyBytes
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	return &Server{rt: rt, opts: opts, servers: map[string]*principalServer{}}
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

// principal is the SDK server of one principal, made on first use; nil when
// a stateless server has no surface yet (ensureSurface).
func (s *Server) principal(p string) *principalServer {
	s.mu.Lock()
	defer s.mu.Unlock()
	if ps := s.servers[p]; ps != nil {
		return ps
	}
	if s.tools == nil && s.remote != nil {
		return nil
	}
	ps := newPrincipalServer(s, p)
	ps.apply(s.tools, false)
	s.servers[p] = ps
	return ps
}

// refresh rebuilds tools/list after the catalog changed; the SDK tells each
// session (notifications/tools/list_changed) when a definition differs.
func (s *Server) refresh() {
	tools := s.readSurface(context.Background(), s.surfaceScope())
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
