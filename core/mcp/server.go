package mcp

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/codemode-go/codemode/internal/catalog"
	json "github.com/codemode-go/codemode/internal/jsonx"
	"github.com/codemode-go/codemode/internal/text"
)

// Dropped records one piece of server metadata Connect refused, so hosts can log
// and show why a tool is missing instead of failing the whole server.
type Dropped struct {
	Kind string `json:"kind"` // "tool", "outputSchema", "resource" or "prompt"
	Name string `json:"name"` // clipped to maxNameBytes for display
	// Reason says why it was dropped.
	Reason string `json:"reason"`
}

// Resource is a listed resource (metadata only; read it with ReadResource).
type Resource struct {
	// URI identifies the resource.
	URI string `json:"uri"`
	// Name is the server's name for it.
	Name string `json:"name"`
	// Description is the server's description, bounded.
	Description string `json:"description,omitempty"`
	// MIMEType is the declared content type.
	MIMEType string `json:"mimeType,omitempty"`
}

// Prompt is a listed prompt; get it with GetPrompt.
type Prompt struct {
	// Name is the prompt's name.
	Name string `json:"name"`
	// Description is the server's description, bounded.
	Description string `json:"description,omitempty"`
	// Arguments are the prompt's string arguments.
	Arguments []PromptArgument `json:"arguments,omitempty"`
}

// PromptArgument describes one string argument of a prompt.
type PromptArgument struct {
	// Name is the argument's name.
	Name string `json:"name"`
	// Description is the server's description, bounded.
	Description string `json:"description,omitempty"`
	// Required marks an argument the prompt needs.
	Required bool `json:"required,omitempty"`
}

// Server is one connected MCP client session. Its resource and prompt lists
// are snapshots taken at Connect; its tool list is listed again whenever the
// server announces notifications/tools/list_changed (OnToolsChanged hears of
// it). All of it is safe for concurrent use.
type Server struct {
	name      string
	session   conn // a connected server's client session (client.go); nil when relayed
	toolsMu   sync.RWMutex
	tools     []catalog.Tool
	reloadMu  sync.Mutex // one tools/list at a time after a list_changed
	watchers  map[int]func()
	watchSeq  int
	resources []Resource
	prompts   []Prompt
	dropped   []Dropped
	relay     Relay // a relayed server's reads (NewRemote); nil when connected

	closeOnce sync.Once
	closeErr  error
	closed    chan struct{}
	// readOnly holds the tools the host vouched for (TrustReadOnly).
	readOnly atomic.Pointer[map[string]bool]
}

// conn is a connected server's client session: the MCP SDK's (client.go),
// which builds for GOOS=js pages leave out (codemode_hostjs: a page's servers
// are relayed, NewRemote). Its methods word failures with callError.
type conn interface {
	readResource(ctx context.Context, server, uri string) (json.RawMessage, error)
	getPrompt(ctx context.Context, server, name string, args map[string]string) (json.RawMessage, error)
	Close() error
}

// OnToolsChanged calls fn (on a goroutine of the server's) each time the tool
// list changed after the server announced notifications/tools/list_changed;
// Tools returns the new list by then. stop ends the subscription.
func (s *Server) OnToolsChanged(fn func()) (stop func()) {
	s.toolsMu.Lock()
	defer s.toolsMu.Unlock()
	if s.watchers == nil {
		s.watchers = map[int]func(){}
	}
	s.watchSeq++
	id := s.watchSeq
	s.watchers[id] = fn
	return func() {
		s.toolsMu.Lock()
		delete(s.watchers, id)
		s.toolsMu.Unlock()
	}
}

// errClosed is returned by calls on a closed Server.
var errClosed = errors.New("mcp: server is closed")

func (s *Server) drop(kind, name, reason string) {
	s.dropped = append(s.dropped, dropped(kind, name, reason))
}

func dropped(kind, name, reason string) Dropped {
	if len(name) > maxNameBytes {
		name = text.Clip(clip(name), maxNameBytes+len(text.Ellipsis))
	}
	return Dropped{Kind: kind, Name: name, Reason: reason}
}

// Name is the host-chosen server name (catalog owner).
func (s *Server) Name() string { return s.name }

// Tools returns the server's tools as catalog tools (Source mcp, Owner = Name()).
// The list is the one of the last tools/list (see OnToolsChanged).
func (s *Server) Tools() []catalog.Tool {
	s.toolsMu.RLock()
	defer s.toolsMu.RUnlock()
	return append([]catalog.Tool(nil), s.tools...)
}

// TrustReadOnly declares, as the host, which of the server's tools are free of
// side effects, so that a restartSafe run may call them. restartSafe fails
// closed: the server's own readOnlyHint is metadata of an untrusted party (a
// server can claim anything about itself), so without the host's word no MCP
// tool passes. Each call replaces the list; a name the server does not list
// is an error naming it (the list is unchanged then). Safe for concurrent use.
func (s *Server) TrustReadOnly(names ...string) error {
	known := map[string]bool{}
	for _, t := range s.Tools() {
		known[t.Spec().Name] = true
	}
	set := map[string]bool{}
	var unknown []string
	for _, n := range names {
		if !known[n] {
			unknown = append(unknown, n)
		}
		set[n] = true
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		return fmt.Errorf("mcp: server %q lists no tool %s (its tools: %s)", s.name, strings.Join(quoteAll(unknown), ", "), strings.Join(quoteAll(s.toolNames()), ", "))
	}
	s.readOnly.Store(&set)
	return nil
}

func (s *Server) trustsReadOnly(name string) bool {
	m := s.readOnly.Load()
	return m != nil && (*m)[name]
}

func (s *Server) toolNames() []string {
	out := []string{}
	for _, t := range s.Tools() {
		out = append(out, t.Spec().Name)
	}
	return out
}

func quoteAll(xs []string) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = fmt.Sprintf("%q", text.Cut(x, maxNameBytes))
	}
	return out
}

// Resources returns the resources listed at Connect.
func (s *Server) Resources() []Resource { return append([]Resource(nil), s.resources...) }

// Prompts returns the prompts listed at Connect.
func (s *Server) Prompts() []Prompt { return append([]Prompt(nil), s.prompts...) }

// Dropped returns metadata Connect refused, with reasons.
func (s *Server) Dropped() []Dropped { return append([]Dropped(nil), s.dropped...) }

// Close ends the session, which stops a stdio server process or ends the HTTP
// session. It is idempotent; calls after Close fail with errClosed.
func (s *Server) Close() error {
	s.closeOnce.Do(func() {
		close(s.closed)
		if s.session != nil {
			s.closeErr = s.session.Close()
		}
	})
	return s.closeErr
}

func (s *Server) isClosed() bool {
	select {
	case <-s.closed:
		return true
	default:
		return false
	}
}

// ReadResource reads one resource and returns the MCP result as JSON
// ({"contents":[...]}).
func (s *Server) ReadResource(ctx context.Context, uri string) (json.RawMessage, error) {
	return s.ReadResourceFor(ctx, catalog.Scope{}, uri)
}

// ReadResourceFor is ReadResource on behalf of scope: a relayed server
// (NewRemote) hands the scope to the server that owns it, which checks that
// the server is visible there; a connected server needs none.
func (s *Server) ReadResourceFor(ctx context.Context, scope catalog.Scope, uri string) (json.RawMessage, error) {
	if s.isClosed() {
		return nil, errClosed
	}
	if uri == "" || len(uri) > maxURIBytes {
		return nil, fmt.Errorf("mcp: %s: resources.read: uri must be 1..%d bytes", s.name, maxURIBytes)
	}
	if s.session == nil {
		if s.relay == nil {
			return nil, errRelayed(s.name, "resources.read")
		}
		raw, err := s.relay.ReadResource(ctx, scope, s.name, uri)
		if err != nil {
			return nil, err
		}
		return boundedRaw(s.name, "resources.read", raw)
	}
	return s.session.readResource(ctx, s.name, uri)
}

// GetPrompt renders one prompt and returns the MCP result as JSON
// ({"description"?, "messages":[...]}).
func (s *Server) GetPrompt(ctx context.Context, name string, args map[string]string) (json.RawMessage, error) {
	return s.GetPromptFor(ctx, catalog.Scope{}, name, args)
}

// GetPromptFor is GetPrompt on behalf of scope (see ReadResourceFor).
func (s *Server) GetPromptFor(ctx context.Context, scope catalog.Scope, name string, args map[string]string) (json.RawMessage, error) {
	if s.isClosed() {
		return nil, errClosed
	}
	if err := checkName(name); err != nil {
		return nil, fmt.Errorf("mcp: %s: prompts.get: %v", s.name, err)
	}
	if s.session == nil {
		if s.relay == nil {
			return nil, errRelayed(s.name, "prompts.get")
		}
		raw, err := s.relay.GetPrompt(ctx, scope, s.name, name, args)
		if err != nil {
			return nil, err
		}
		return boundedRaw(s.name, "prompts.get", raw)
	}
	return s.session.getPrompt(ctx, s.name, name, args)
}

func nonNil[T any](xs []T) []T {
	if xs == nil {
		return []T{}
	}
	return xs
}

// bounded encodes an MCP result (every tool call's, on the nested-call path)
// with the hot paths' one JSON library (internal/jsonx: goccy/go-json, measured
// against encoding/json and encoding/json/v2 in tests/bench/RESULTS.md, "JSON
// library"; encoding/json in the page's build, for its size).
func bounded(server, what string, v any) (json.RawMessage, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("mcp: %s: %s: result is not JSON: %v", server, what, err)
	}
	if len(raw) > maxPayloadBytes {
		return nil, fmt.Errorf("mcp: %s: %s: result is %d bytes, limit %d", server, what, len(raw), maxPayloadBytes)
	}
	return raw, nil
}

// boundedRaw applies bounded's size limit to a result that arrived as JSON
// from a relay, and refuses one that is not a JSON object.
func boundedRaw(server, what string, raw json.RawMessage) (json.RawMessage, error) {
	if len(raw) > maxPayloadBytes {
		return nil, fmt.Errorf("mcp: %s: %s: result is %d bytes, limit %d", server, what, len(raw), maxPayloadBytes)
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil {
		return nil, fmt.Errorf("mcp: %s: %s: the relayed result is not a JSON object", server, what)
	}
	return raw, nil
}
