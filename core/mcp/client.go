//go:build !codemode_hostjs

package mcp

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/codemode-go/codemode/internal/catalog"
	"github.com/codemode-go/codemode/internal/mcpname"
	json "github.com/goccy/go-json"
)

// This file is the MCP client: the official Go SDK behind Connect. Builds
// for a page's core (the codemode_hostjs tag) leave it out with the SDK and
// net/http, since a page reaches MCP servers only through a relay (NewRemote).

// Connect opens a session over t, initializes it and lists tools, resources and
// prompts. t is the official Go SDK's transport (github.com/modelcontextprotocol/go-sdk/mcp):
// ConnectStdio and ConnectHTTP hand theirs in, and any other SDK transport plugs
// in unchanged. name is the host's name for the server (catalog owner, MCP.<name>); the
// name the server reports about itself is ignored. On error nothing stays open.
func Connect(ctx context.Context, name string, t sdk.Transport) (*Server, error) {
	if err := mcpname.Validate(name); err != nil {
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
	// A list_changed that arrives while the first lists are loaded reloads
	// after them (reloadTools takes reloadMu too), never beside them.
	s.reloadMu.Lock()
	s.session = sdkConn{session}
	err = s.load(ctx, session)
	s.reloadMu.Unlock()
	if err != nil {
		_ = s.Close()
		return nil, err
	}
	return s, nil
}

func (s *Server) load(ctx context.Context, cs *sdk.ClientSession) error {
	var caps *sdk.ServerCapabilities
	if ir := cs.InitializeResult(); ir != nil {
		caps = ir.Capabilities
	}
	if caps == nil || caps.Tools != nil {
		tools, dropped, err := s.listTools(ctx, cs)
		if err != nil {
			return err
		}
		s.tools, s.dropped = tools, append(s.dropped, dropped...)
	}
	if caps != nil && caps.Resources != nil {
		if err := s.loadResources(ctx, cs); err != nil {
			return err
		}
	}
	if caps != nil && caps.Prompts != nil {
		if err := s.loadPrompts(ctx, cs); err != nil {
			return err
		}
	}
	return nil
}

// listTools runs tools/list and keeps the tools that pass the bounds, with
// what it dropped and why.
func (s *Server) listTools(ctx context.Context, cs *sdk.ClientSession) ([]catalog.Tool, []Dropped, error) {
	seen := map[string]bool{}
	var tools []catalog.Tool
	var drops []Dropped
	drop := func(kind, name, reason string) { drops = append(drops, dropped(kind, name, reason)) }
	for t, err := range cs.Tools(ctx, nil) {
		if err != nil {
			return nil, nil, fmt.Errorf("mcp: server %q: tools/list: %w", s.name, err)
		}
		if len(tools) >= maxItems {
			drop("tool", t.Name, fmt.Sprintf("more than %d tools", maxItems))
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
		tools = append(tools, &tool{server: s, cs: cs, spec: catalog.Spec{
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
	c, ok := s.session.(sdkConn) // nil until Connect has its session
	if s.isClosed() || !ok {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), reloadTimeout)
	defer cancel()
	tools, _, err := s.listTools(ctx, c.ClientSession)
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

func (s *Server) loadResources(ctx context.Context, cs *sdk.ClientSession) error {
	for r, err := range cs.Resources(ctx, nil) {
		if err != nil {
			return fmt.Errorf("mcp: server %q: resources/list: %w", s.name, err)
		}
		if len(s.resources) >= maxItems {
			s.drop("resource", r.URI, fmt.Sprintf("more than %d resources", maxItems))
			break
		}
		if r.URI == "" || len(r.URI) > maxURIBytes {
			s.drop("resource", r.URI, fmt.Sprintf("uri must be 1..%d bytes", maxURIBytes))
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

func (s *Server) loadPrompts(ctx context.Context, cs *sdk.ClientSession) error {
	for p, err := range cs.Prompts(ctx, nil) {
		if err != nil {
			return fmt.Errorf("mcp: server %q: prompts/list: %w", s.name, err)
		}
		if len(s.prompts) >= maxItems {
			s.drop("prompt", p.Name, fmt.Sprintf("more than %d prompts", maxItems))
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

// ReadOnlyHints lists the tools whose readOnlyHint the server set: what it
// claims, for a host deciding what to pass to TrustReadOnly. The claim alone
// changes nothing.
func (s *Server) ReadOnlyHints() []string {
	var out []string
	for _, t := range s.Tools() {
		if mt, ok := t.(*tool); ok && mt.hint {
			out = append(out, mt.spec.Name)
		}
	}
	return out
}

// sdkConn is conn over the SDK's client session.
type sdkConn struct{ *sdk.ClientSession }

func (c sdkConn) readResource(ctx context.Context, server, uri string) (json.RawMessage, error) {
	res, err := c.ReadResource(ctx, &sdk.ReadResourceParams{URI: uri})
	if err != nil {
		return nil, callError(server, server, "resources.read", err)
	}
	return bounded(server, "resources.read", map[string]any{"contents": nonNil(res.Contents)})
}

func (c sdkConn) getPrompt(ctx context.Context, server, name string, args map[string]string) (json.RawMessage, error) {
	res, err := c.GetPrompt(ctx, &sdk.GetPromptParams{Name: name, Arguments: args})
	if err != nil {
		return nil, callError(server, server, "prompts.get", err)
	}
	out := map[string]any{"messages": nonNil(res.Messages)}
	if res.Description != "" {
		out["description"] = res.Description
	}
	return bounded(server, "prompts.get", out)
}

// tool is one MCP tool behind the catalog interface.
type tool struct {
	server *Server
	cs     *sdk.ClientSession
	spec   catalog.Spec
	hint   bool // the server's readOnlyHint: a claim, never trusted alone
}

// Spec is the tool's spec; ReadOnly is set only when the host vouched for
// the tool (Server.TrustReadOnly).
func (t *tool) Spec() catalog.Spec {
	s := t.spec
	s.ReadOnly = t.server.trustsReadOnly(s.Name)
	return s
}

// Execute runs tools/call. A result with isError is a tool-level failure the guest
// may inspect, so it comes back as Result{IsError: true} with a nil error; protocol
// and transport failures are errors.
func (t *tool) Execute(ctx context.Context, call catalog.Call) (catalog.Result, error) {
	s := t.server
	if s.isClosed() {
		return catalog.Result{}, errClosed
	}
	args, err := objectInput(call.Input)
	if err != nil {
		return catalog.Result{}, fmt.Errorf("mcp: %s.%s: %v", s.name, t.spec.Name, err)
	}
	res, err := t.cs.CallTool(ctx, &sdk.CallToolParams{Name: t.spec.Name, Arguments: args})
	if err != nil {
		return catalog.Result{}, callError(s.name, s.name+"."+t.spec.Name, "tools/call", err)
	}
	content := make([]json.RawMessage, 0, len(res.Content))
	for i, c := range res.Content {
		raw, err := json.Marshal(c)
		if err != nil {
			return catalog.Result{}, fmt.Errorf("mcp: %s.%s: content[%d] is not JSON: %v", s.name, t.spec.Name, i, err)
		}
		content = append(content, raw)
	}
	details := map[string]any{"content": content}
	if res.StructuredContent != nil {
		details["structuredContent"] = res.StructuredContent
	}
	if res.IsError {
		details["isError"] = true
	}
	raw, err := bounded(s.name, t.spec.Name, details)
	if err != nil {
		return catalog.Result{}, err
	}
	return catalog.Result{Content: content, Details: raw, IsError: res.IsError}, nil
}

// objectInput accepts an absent input as {} and otherwise requires a JSON object,
// because MCP tool arguments are always an object.
func objectInput(in json.RawMessage) (json.RawMessage, error) {
	trimmed := bytes.TrimSpace(in)
	if len(trimmed) == 0 || bytes.Equal(trimmed, []byte("null")) {
		return json.RawMessage(`{}`), nil
	}
	if len(trimmed) > maxPayloadBytes {
		return nil, fmt.Errorf("input is %d bytes, limit %d", len(trimmed), maxPayloadBytes)
	}
	if trimmed[0] != '{' || !json.Valid(trimmed) {
		return nil, fmt.Errorf("input must be a JSON object")
	}
	return json.RawMessage(trimmed), nil
}

// callError words an SDK failure of what (a method) on subject (the server, or
// server.tool) for a caller that may be a model or an HTTP client. The SDK's own
// text can quote Go decoder messages (Go struct and field types) for a malformed
// response, so only three things pass: context errors (wrapped, so aborts and
// deadlines keep their meaning), the server's own JSON-RPC error (code and a
// clipped message: the server's text, untrusted but meant for the caller), and a
// closed connection (errUnavailable). Anything else is a response that is not
// valid MCP, said without the decoder's words.
func callError(server, subject, what string, err error) error {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		ctxErr := context.Canceled
		if errors.Is(err, context.DeadlineExceeded) {
			ctxErr = context.DeadlineExceeded
		}
		return fmt.Errorf("mcp: %s: %s: %w", subject, what, ctxErr)
	}
	if errors.Is(err, sdk.ErrConnectionClosed) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrClosedPipe) {
		return unavailableError{server}
	}
	var we *jsonrpc.Error
	if errors.As(err, &we) {
		if we.Code == codeClientClosing || we.Code == codeServerClosing {
			return unavailableError{server}
		}
		msg := we.Message
		if len(msg) > maxErrorMessageBytes {
			msg = clip(msg[:maxErrorMessageBytes]) + "…"
		}
		return fmt.Errorf("mcp: %s: %s: the server answered error %d: %s", subject, what, we.Code, clip(msg))
	}
	return fmt.Errorf("mcp: %s: %s: the server's answer is not a valid MCP result", subject, what)
}
