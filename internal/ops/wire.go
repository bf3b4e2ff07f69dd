package ops

import (
	"github.com/codemode-go/codemode/core"
	json "github.com/codemode-go/codemode/internal/jsonx"
	"github.com/codemode-go/codemode/internal/relay"
)

// Scope is the wire scope of every operation: the agent run the caller acts
// for (not the Code Mode runId exec hands out).
type Scope struct {
	// AgentID is the agent running.
	AgentID string `json:"agentId"`
	// SessionID is the session; a suspended run is visible only to the same
	// principal, agent and session that made it.
	SessionID string `json:"sessionId"`
	// SessionKey is the session's routing key, handed to tools and hooks.
	SessionKey string `json:"sessionKey"`
	// AgentRunID is the agent run (one user turn), handed to tools and hooks.
	AgentRunID string `json:"agentRunId"`
}

// Core is the core's scope for s (the zero scope for nil).
func (s *Scope) Core() core.Scope {
	if s == nil {
		return core.Scope{}
	}
	return core.Scope{AgentID: s.AgentID, SessionID: s.SessionID, SessionKey: s.SessionKey, AgentRunID: s.AgentRunID}
}

// ExecArgs are exec's arguments as a caller sends them: the spec's
// CodeModeExecInput plus restartSafe. Every host decodes them with the same
// strict decoder into this one type (ExecRequest embeds it, the wasip1
// request and the MCP server's exec arguments too), so they accept and refuse
// alike; core.Runtime.Exec judges the values.
type ExecArgs struct {
	// Code is the cell (core.ExecInput.Code); pointers tell a missing field
	// from an empty one, so each refusal names what was wrong.
	Code *string `json:"code"`
	// Command is the alias of Code for hooks and trusted rewrites; when both
	// are set they must be equal.
	Command *string `json:"command"`
	// Language is "javascript" or "typescript"; absent means the config's default.
	Language *string `json:"language"`
	// RestartSafe declares read-only work (core.ExecInput.RestartSafe).
	RestartSafe *bool `json:"restartSafe"`
}

// Input is the core's exec input for a.
func (a ExecArgs) Input() core.ExecInput {
	in := core.ExecInput{Code: str(a.Code), Command: str(a.Command), Language: str(a.Language)}
	if a.RestartSafe != nil {
		in.RestartSafe = *a.RestartSafe
	}
	return in
}

// WaitArgs are wait's arguments (the spec's CodeModeWaitInput), shared like
// ExecArgs.
type WaitArgs struct {
	// RunID is the runId of a waiting result; the core refuses an empty one.
	RunID *string `json:"runId"`
}

// Input is the core's wait input for a.
func (a WaitArgs) Input() core.WaitInput { return core.WaitInput{RunID: str(a.RunID)} }

// ExecRequest is exec's message (the body of POST /v1/exec): its arguments
// and the scope.
type ExecRequest struct {
	ExecArgs
	// Scope is required.
	Scope *Scope `json:"scope"`
}

// WaitRequest is wait's message (POST /v1/wait).
type WaitRequest struct {
	WaitArgs
	// Scope is required and must be the scope that made the run.
	Scope *Scope `json:"scope"`
}

// SurfaceRequest is surface's message (POST /v1/surface).
type SurfaceRequest struct {
	// Scope is required.
	Scope *Scope `json:"scope"`
	// Format is "plain" (the default), "anthropic", "openai" (Chat
	// Completions) or "openai-responses" (surface.Formats): the shape of the
	// tool definitions in the answer.
	Format *string `json:"format"`
}

// SurfaceResponse is surface's answer: the model-visible tools in the format
// asked for.
type SurfaceResponse struct {
	// Tools are the tool definitions (exec, wait and the direct-only tools).
	Tools any `json:"tools"`
}

// CatalogRequest is catalog's message. Its scope is optional (absent fields
// are empty): GET /v1/catalog takes it from the query.
type CatalogRequest struct {
	// Scope whose catalog is asked for.
	Scope *Scope `json:"scope"`
}

// ToolCallRequest is tools/call's message (POST /v1/tools/call).
type ToolCallRequest struct {
	// ID is the catalog id of the tool (from the catalog); required.
	ID *string `json:"id"`
	// Input is the tool input, a JSON object.
	Input json.RawMessage `json:"input"`
	// Scope is required.
	Scope *Scope `json:"scope"`
	// CallID names the nested call in hooks and the transcript; absent, the
	// server makes one.
	CallID *string `json:"callId"`
}

// ToolCallResponse is a relayed call's success: the tool's structured details
// and, when it has any, its content blocks.
type ToolCallResponse struct {
	// Details is the tool's structured result (what tools.callValue returns).
	Details json.RawMessage `json:"details"`
	// Content are the tool's content blocks, when it has any.
	Content []json.RawMessage `json:"content,omitempty"`
}

// ToolCallError is a relayed call's failure, answered with status 200 because
// the relay worked and the tool did not: the remote core hands it to the guest
// as a catchable error. Code is relay.ToolError's.
type ToolCallError struct {
	// Error is the failure's code and message, for the guest.
	Error relay.ToolError `json:"error"`
}

// MCPResourceRequest is mcp/resources/read's message: a remote core's guest
// reads a resource of one of this server's MCP servers.
type MCPResourceRequest struct {
	// Server is the MCP server's name (RemoteMCPServer.Name); required.
	Server *string `json:"server"`
	// URI is the resource's URI; required.
	URI *string `json:"uri"`
	// Scope is required: a server its catalog does not show exposes nothing.
	Scope *Scope `json:"scope"`
}

// MCPPromptRequest is mcp/prompts/get's message.
type MCPPromptRequest struct {
	// Server is the MCP server's name; required.
	Server *string `json:"server"`
	// Name is the prompt's name; required.
	Name *string `json:"name"`
	// Arguments are the prompt's arguments, strings by name.
	Arguments map[string]string `json:"arguments"`
	// Scope is required.
	Scope *Scope `json:"scope"`
}

// MCPReadResponse is an MCP read's success: the MCP result ({contents} of a
// resource, {description?, messages} of a prompt). A failure is a
// ToolCallError, answered like a relayed tool's.
type MCPReadResponse struct {
	// Result is the MCP result as the server returned it (bounded).
	Result json.RawMessage `json:"result"`
}

// RunRequest is the message of abort and restartTTL: one run of a scope.
type RunRequest struct {
	// RunID is the run; required.
	RunID *string `json:"runId"`
	// Scope is required and must be the scope that made the run.
	Scope *Scope `json:"scope"`
}

// AbortResponse is abort's answer.
type AbortResponse struct {
	// Aborted is false when the scope had no such run.
	Aborted bool `json:"aborted"`
}

// TTLAnswer is restartTTL's answer: the new expiry, or the core's refusal
// (a spec error code and wait's message for the same runId).
type TTLAnswer struct {
	// OK is true when the TTL was restarted.
	OK bool `json:"ok"`
	// ExpiresAt is the new expiry in milliseconds since the epoch.
	ExpiresAt int64 `json:"expiresAt,omitempty"`
	// Code is the refusal's error code.
	Code core.ErrorCode `json:"code,omitempty"`
	// Error is the refusal's message.
	Error string `json:"error,omitempty"`
}

func str(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}
