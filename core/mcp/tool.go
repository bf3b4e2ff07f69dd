package mcp

import (
	"bytes"
	"context"
	"fmt"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/codemode-go/codemode/core/catalog"
	json "github.com/goccy/go-json"
)

// tool is one MCP tool behind the catalog interface.
type tool struct {
	server *Server
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
		return catalog.Result{}, ErrClosed
	}
	args, err := objectInput(call.Input)
	if err != nil {
		return catalog.Result{}, fmt.Errorf("mcp: %s.%s: %v", s.name, t.spec.Name, err)
	}
	res, err := s.session.CallTool(ctx, &sdk.CallToolParams{Name: t.spec.Name, Arguments: args})
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
	if len(trimmed) > MaxPayloadBytes {
		return nil, fmt.Errorf("input is %d bytes, limit %d", len(trimmed), MaxPayloadBytes)
	}
	if trimmed[0] != '{' || !json.Valid(trimmed) {
		return nil, fmt.Errorf("input must be a JSON object")
	}
	return json.RawMessage(trimmed), nil
}
