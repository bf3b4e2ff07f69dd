// Package relay holds what one core hands another that runs the cells
// elsewhere (a page, a Worker's session object) and relays the server's tools
// back: the exported catalog of a scope, a relayed MCP read and a relayed
// call's failure. Hosts speak it; a Go user of the runtime never does, so it
// stays out of core's public API.
package relay

import (
	"github.com/codemode-go/codemode/core/mcp"
	"github.com/codemode-go/codemode/internal/catalog"
)

// Catalog is a runtime's catalog for one scope as a core running
// elsewhere needs it (a page or a Worker that relays server tools back here
// through CallTool): every entry with its schemas, trust and owner, and for each
// visible MCP server what its MCP.<server> namespace shows.
type Catalog struct {
	// Entries are the run's catalog entries with their schemas, trust and owner.
	Entries []catalog.ExportedEntry `json:"entries"`
	// MCPServers are the visible MCP servers.
	MCPServers []MCPServer `json:"mcpServers"`
}

// MCPServer is one visible MCP server: its name, the guest namespace it
// appears under, its listed resources and prompts, and the declaration files
// API.read serves for it (rendered from the policy-filtered catalog).
type MCPServer struct {
	// Name is the server's configured name.
	Name string `json:"name"`
	// Namespace is the safe spelling the guest reaches it under, MCP.<Namespace>.
	Namespace string `json:"namespace"`
	// Tools are the server's visible tool names.
	Tools []string `json:"tools"`
	// Resources are the server's listed resources.
	Resources []mcp.Resource `json:"resources"`
	// Prompts are the server's listed prompts.
	Prompts []mcp.Prompt `json:"prompts"`
	// Declarations are the API files rendered for the server.
	Declarations []File `json:"declarations"`
}

// File is one read-only declaration file.
type File struct {
	// Path is the file's path under API, e.g. mcp/github.d.ts.
	Path string `json:"path"`
	// Content is the file's text.
	Content string `json:"content"`
}

// ToolError is a relayed tool call that failed: a stable code and a message
// for the model (never a Go type, stack or host path).
type ToolError struct {
	// Code is one of unknown_tool, denied, approval_denied, restart_safe,
	// invalid_input, output_contract, aborted and tool_failed.
	Code string `json:"code"`
	// Message says what went wrong, in words for the model.
	Message string `json:"message"`
}

// Error is the message.
func (e *ToolError) Error() string { return e.Message }

// MCPRead is one resources.read or prompts.get for a core running elsewhere:
// Server and either URI (a resource) or Prompt with its Arguments.
type MCPRead struct {
	// Server is the MCP server's configured name.
	Server string
	// URI is the resource to read; empty for a prompt.
	URI string
	// Prompt is the prompt to render when URI is empty.
	Prompt string
	// Arguments are the prompt's arguments.
	Arguments map[string]string
}
