package mcp

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/codemode-go/codemode/internal/catalog"
	"github.com/codemode-go/codemode/internal/mcpname"
)

// Relay reads a relayed server's resources and prompts where the server really
// runs (POST /v1/mcp/resources/read and /v1/mcp/prompts/get of the Code Mode
// server that owns it), for the scope of the run that asks.
type Relay interface {
	// ReadResource reads uri of server for scope ({"contents":[...]}).
	ReadResource(ctx context.Context, scope catalog.Scope, server, uri string) (json.RawMessage, error)
	// GetPrompt renders prompt name of server with args for scope
	// ({"description"?, "messages":[...]}).
	GetPrompt(ctx context.Context, scope catalog.Scope, server, name string, args map[string]string) (json.RawMessage, error)
}

// NewRemote makes a Server whose tools run elsewhere: a core in a page or a
// Worker relays a server's MCP tools back to it (GET /v1/catalog, POST
// /v1/tools/call), so they still appear under MCP.<name> with their API files.
// Every tool must be an MCP tool owned by name. Resources and prompts are
// listed as given and read through relay; with a nil relay reading them
// answers an error.
func NewRemote(name string, tools []catalog.Tool, resources []Resource, prompts []Prompt, relay Relay) (*Server, error) {
	if err := mcpname.Validate(name); err != nil {
		return nil, err
	}
	for _, t := range tools {
		if s := t.Spec(); s.Source != catalog.SourceMCP || s.Owner != name {
			return nil, fmt.Errorf("mcp: server %q: tool %q is not an MCP tool of this server", name, s.Name)
		}
	}
	return &Server{name: name, tools: append([]catalog.Tool(nil), tools...),
		resources: nonNil(resources), prompts: nonNil(prompts), relay: relay, closed: make(chan struct{})}, nil
}

// errRelayed answers resource and prompt reads of a relayed server.
func errRelayed(name, what string) error {
	return fmt.Errorf("mcp: %s: %s is not available through the tool relay", name, what)
}
