package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/codemode-go/codemode/core/catalog"
	"github.com/codemode-go/codemode/internal/text"
)

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

// Server is one connected MCP client session. Its tool, resource and prompt lists
// are snapshots taken at Connect; they are safe for concurrent use.
type Server struct {
	name      string
	session   conn // a connected server's client session (client.go); nil when relayed
	tools     []catalog.Tool
	resources []Resource
	prompts   []Prompt
	dropped   []Dropped
	relay     Relay // a relayed server's reads (NewRemote); nil when connected

	closeOnce sync.Once
	closeErr  error
	closed    chan struct{}
}

// conn is a connected server's client session: the MCP SDK's (client.go),
// which builds for GOOS=js pages leave out (codemode_hostjs: a page's servers
// are relayed, NewRemote). Its methods word failures with callError.
type conn interface {
	readResource(ctx context.Context, server, uri string) (json.RawMessage, error)
	getPrompt(ctx context.Context, server, name string, args map[string]string) (json.RawMessage, error)
	Close() error
}

// ErrClosed is returned by calls on a closed Server.
var ErrClosed = errors.New("mcp: server is closed")

func (s *Server) drop(kind, name, reason string) {
	if len(name) > MaxNameBytes {
		name = text.Clip(clip(name), MaxNameBytes+len(text.Ellipsis))
	}
	s.dropped = append(s.dropped, Dropped{Kind: kind, Name: name, Reason: reason})
}

// Name is the host-chosen server name (catalog owner).
func (s *Server) Name() string { return s.name }

// Tools returns the server's tools as catalog tools (Source mcp, Owner = Name()).
func (s *Server) Tools() []catalog.Tool { return append([]catalog.Tool(nil), s.tools...) }

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
	return s.session.getPrompt(ctx, s.name, name, args)
}

func nonNil[T any](xs []T) []T {
	if xs == nil {
		return []T{}
	}
	return xs
}

func bounded(server, what string, v any) (json.RawMessage, error) {
	raw, err := json.Marshal(v)
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
	if err := json.Unmarshal(raw, &obj); err != nil {
		return nil, fmt.Errorf("mcp: %s: %s: the relayed result is not a JSON object", server, what)
	}
	return raw, nil
}
