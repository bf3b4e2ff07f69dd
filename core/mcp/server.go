package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	gojson "github.com/goccy/go-json"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/codemode-go/codemode/core/catalog"
	"github.com/codemode-go/codemode/internal/text"
)

// Transport is the one thing a transport package provides: the SDK's transport
// interface (Connect(ctx) (Connection, error)). Keeping the SDK type here instead of
// wrapping it means stdio, Streamable HTTP and any future transport plug in unchanged.
type Transport = sdk.Transport

// Dropped records one piece of server metadata Connect refused, so hosts can log
// and show why a tool is missing instead of failing the whole server.
type Dropped struct {
	Kind string `json:"kind"` // "tool", "outputSchema", "resource" or "prompt"
	Name string `json:"name"` // clipped to MaxNameBytes for display
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
	session   *sdk.ClientSession
	toolsMu   sync.RWMutex
	tools     []catalog.Tool
	reloadMu  sync.Mutex // one tools/list at a time after a list_changed
	watchers  map[int]func()
	watchSeq  int
	resources []Resource
	prompts   []Prompt
	dropped   []Dropped
	relay     Relay // a relayed server's reads (NewRemote); nil when connected
	// readOnly holds the tools the host vouched for (TrustReadOnly).
	readOnly atomic.Pointer[map[string]bool]

	closeOnce sync.Once
	closeErr  error
	closed    chan struct{}
}

// ErrClosed is returned by calls on a closed Server.
var ErrClosed = errors.New("mcp: server is closed")

// Connect opens a session over t, initializes it and lists tools, resources and
// prompts. name is the host's name for the server (catalog owner, MCP.<name>); the
// name the server reports about itself is ignored. On error nothing stays open.
func Connect(ctx context.Context, name string, t Transport) (*Server, error) {
	if err := ValidateServerName(name); err != nil {
		return nil, err
	}
	if t == nil {
		return nil, fmt.Errorf("mcp: server %q: nil transport", name)
	}
	s := &Server{name: name, closed: make(chan struct{})}
	client := sdk.NewClient(&sdk.Implementation{Name: "codemode-go", Version: "0.1.0"}, &sdk.ClientOptions{
		// The handler runs on the session's reading side: listing from it
		// would wait for itself, so the new list is fetched on its own goroutine.
		ToolListChangedHandler: func(context.Context, *sdk.ToolListChangedRequest) { go s.reloadTools() },
	})
	session, err := client.Connect(ctx, t, nil)
	if err != nil {
		return nil, fmt.Errorf("mcp: server %q: connect: %w", name, err)
	}
	s.session = session
	if err := s.load(ctx); err != nil {
		_ = s.Close()
		return nil, err
	}
	return s, nil
}

func (s *Server) load(ctx context.Context) error {
	var caps *sdk.ServerCapabilities
	if ir := s.session.InitializeResult(); ir != nil {
		caps = ir.Capabilities
	}
	if caps == nil || caps.Tools != nil {
		tools, dropped, err := s.listTools(ctx)
		if err != nil {
			return err
		}
		s.tools, s.dropped = tools, append(s.dropped, dropped...)
	}
	if caps != nil && caps.Resources != nil {
		if err := s.loadResources(ctx); err != nil {
			return err
		}
	}
	if caps != nil && caps.Prompts != nil {
		if err := s.loadPrompts(ctx); err != nil {
			return err
		}
	}
	return nil
}

func (s *Server) drop(kind, name, reason string) {
	s.dropped = append(s.dropped, dropped(kind, name, reason))
}

func dropped(kind, name, reason string) Dropped {
	if len(name) > MaxNameBytes {
		name = text.Clip(clip(name), MaxNameBytes+len(text.Ellipsis))
	}
	return Dropped{Kind: kind, Name: name, Reason: reason}
}

// listTools runs tools/list and keeps the tools that pass the bounds, with
// what it dropped and why.
func (s *Server) listTools(ctx context.Context) ([]catalog.Tool, []Dropped, error) {
	seen := map[string]bool{}
	var tools []catalog.Tool
	var drops []Dropped
	drop := func(kind, name, reason string) { drops = append(drops, dropped(kind, name, reason)) }
	for t, err := range s.session.Tools(ctx, nil) {
		if err != nil {
			return nil, nil, fmt.Errorf("mcp: server %q: tools/list: %w", s.name, err)
		}
		if len(tools) >= MaxItems {
			drop("tool", t.Name, fmt.Sprintf("more than %d tools", MaxItems))
			break
		}
		if err := checkName(t.Name); err != nil {
			drop("tool", t.Name, err.Error())
			continue
		}
		if seen[t.Name] {
			drop("tool", t.Name, "duplicate tool name")
			continue
		}
		in, err := checkSchema(t.InputSchema)
		if err != nil {
			drop("tool", t.Name, "inputSchema: "+err.Error())
			continue
		}
		var out json.RawMessage
		if t.OutputSchema != nil {
			if out, err = checkSchema(t.OutputSchema); err != nil {
				drop("outputSchema", t.Name, err.Error())
				out = nil
			}
		}
		seen[t.Name] = true
		tools = append(tools, &tool{server: s, spec: catalog.Spec{
			Name:         t.Name,
			Label:        clip(t.Title),
			Description:  clip(t.Description),
			Parameters:   in,
			OutputSchema: out,
			Source:       catalog.SourceMCP,
			Owner:        s.name,
			Origin:       catalog.OriginMCP,
			// ReadOnly is the host's word alone (TrustReadOnly): the
			// server's readOnlyHint is untrusted metadata, kept as a hint.
		}, hint: t.Annotations != nil && t.Annotations.ReadOnlyHint})
	}
	return tools, drops, nil
}

// reloadTools lists the tools again after the server announced a change,
// swaps the list in and tells the watchers. A list that fails (the server
// went away meanwhile) keeps the old one.
func (s *Server) reloadTools() {
	s.reloadMu.Lock()
	defer s.reloadMu.Unlock()
	if s.isClosed() {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), reloadTimeout)
	defer cancel()
	tools, _, err := s.listTools(ctx)
	if err != nil {
		return
	}
	s.toolsMu.Lock()
	s.tools = tools
	watchers := make([]func(), 0, len(s.watchers))
	for _, w := range s.watchers {
		watchers = append(watchers, w)
	}
	s.toolsMu.Unlock()
	for _, w := range watchers {
		w()
	}
}

// reloadTimeout bounds one tools/list after a list_changed.
const reloadTimeout = 20 * time.Second

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

func (s *Server) loadResources(ctx context.Context) error {
	for r, err := range s.session.Resources(ctx, nil) {
		if err != nil {
			return fmt.Errorf("mcp: server %q: resources/list: %w", s.name, err)
		}
		if len(s.resources) >= MaxItems {
			s.drop("resource", r.URI, fmt.Sprintf("more than %d resources", MaxItems))
			break
		}
		if r.URI == "" || len(r.URI) > MaxURIBytes {
			s.drop("resource", r.URI, fmt.Sprintf("uri must be 1..%d bytes", MaxURIBytes))
			continue
		}
		if err := checkName(r.Name); err != nil && r.Name != "" {
			s.drop("resource", r.URI, err.Error())
			continue
		}
		s.resources = append(s.resources, Resource{URI: r.URI, Name: r.Name, Description: clip(r.Description), MIMEType: clip(r.MIMEType)})
	}
	return nil
}

func (s *Server) loadPrompts(ctx context.Context) error {
	for p, err := range s.session.Prompts(ctx, nil) {
		if err != nil {
			return fmt.Errorf("mcp: server %q: prompts/list: %w", s.name, err)
		}
		if len(s.prompts) >= MaxItems {
			s.drop("prompt", p.Name, fmt.Sprintf("more than %d prompts", MaxItems))
			break
		}
		if err := checkName(p.Name); err != nil {
			s.drop("prompt", p.Name, err.Error())
			continue
		}
		out := Prompt{Name: p.Name, Description: clip(p.Description)}
		ok := true
		for _, a := range p.Arguments {
			if a == nil {
				continue
			}
			if err := checkName(a.Name); err != nil {
				s.drop("prompt", p.Name, "argument: "+err.Error())
				ok = false
				break
			}
			out.Arguments = append(out.Arguments, PromptArgument{Name: a.Name, Description: clip(a.Description), Required: a.Required})
		}
		if ok {
			s.prompts = append(s.prompts, out)
		}
	}
	return nil
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
	for _, t := range s.tools {
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

// ReadOnlyHints lists the tools whose readOnlyHint the server set: what it
// claims, for a host deciding what to pass to TrustReadOnly. The claim alone
// changes nothing.
func (s *Server) ReadOnlyHints() []string {
	var out []string
	for _, t := range s.tools {
		if mt, ok := t.(*tool); ok && mt.hint {
			out = append(out, mt.spec.Name)
		}
	}
	return out
}

func (s *Server) trustsReadOnly(name string) bool {
	m := s.readOnly.Load()
	return m != nil && (*m)[name]
}

func (s *Server) toolNames() []string {
	out := make([]string, 0, len(s.tools))
	for _, t := range s.tools {
		out = append(out, t.Spec().Name)
	}
	return out
}

func quoteAll(xs []string) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = fmt.Sprintf("%q", text.Cut(x, MaxNameBytes))
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
// session. It is idempotent; calls after Close fail with ErrClosed.
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
		return nil, ErrClosed
	}
	if uri == "" || len(uri) > MaxURIBytes {
		return nil, fmt.Errorf("mcp: %s: resources.read: uri must be 1..%d bytes", s.name, MaxURIBytes)
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
	res, err := s.session.ReadResource(ctx, &sdk.ReadResourceParams{URI: uri})
	if err != nil {
		return nil, callError(s.name, s.name, "resources.read", err)
	}
	return bounded(s.name, "resources.read", map[string]any{"contents": nonNil(res.Contents)})
}

// GetPrompt renders one prompt and returns the MCP result as JSON
// ({"description"?, "messages":[...]}).
func (s *Server) GetPrompt(ctx context.Context, name string, args map[string]string) (json.RawMessage, error) {
	return s.GetPromptFor(ctx, catalog.Scope{}, name, args)
}

// GetPromptFor is GetPrompt on behalf of scope (see ReadResourceFor).
func (s *Server) GetPromptFor(ctx context.Context, scope catalog.Scope, name string, args map[string]string) (json.RawMessage, error) {
	if s.isClosed() {
		return nil, ErrClosed
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
	res, err := s.session.GetPrompt(ctx, &sdk.GetPromptParams{Name: name, Arguments: args})
	if err != nil {
		return nil, callError(s.name, s.name, "prompts.get", err)
	}
	out := map[string]any{"messages": nonNil(res.Messages)}
	if res.Description != "" {
		out["description"] = res.Description
	}
	return bounded(s.name, "prompts.get", out)
}

func nonNil[T any](xs []T) []T {
	if xs == nil {
		return []T{}
	}
	return xs
}

// bounded encodes an MCP result (every tool call's, on the nested-call path)
// with goccy/go-json, the hot paths' one JSON library (measured against
// encoding/json and encoding/json/v2: tests/bench/RESULTS.md, "JSON library").
func bounded(server, what string, v any) (json.RawMessage, error) {
	raw, err := gojson.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("mcp: %s: %s: result is not JSON: %v", server, what, err)
	}
	if len(raw) > MaxPayloadBytes {
		return nil, fmt.Errorf("mcp: %s: %s: result is %d bytes, limit %d", server, what, len(raw), MaxPayloadBytes)
	}
	return raw, nil
}

// boundedRaw applies bounded's size limit to a result that arrived as JSON
// from a relay, and refuses one that is not a JSON object.
func boundedRaw(server, what string, raw json.RawMessage) (json.RawMessage, error) {
	if len(raw) > MaxPayloadBytes {
		return nil, fmt.Errorf("mcp: %s: %s: result is %d bytes, limit %d", server, what, len(raw), MaxPayloadBytes)
	}
	var obj map[string]json.RawMessage
	if err := gojson.Unmarshal(raw, &obj); err != nil {
		return nil, fmt.Errorf("mcp: %s: %s: the relayed result is not a JSON object", server, what)
	}
	return raw, nil
}
