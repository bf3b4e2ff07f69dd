// Package catalog holds the per-run tool catalog of Code Mode: the one interface
// through which any tool reaches the core, the catalog IDs, the compact entries
// the guest sees, search/describe, declared output contracts and the exact-id
// execution path that every nested call (tools.*, MCP.*, namespaces) goes through.
package catalog

import (
	"context"
	"encoding/json"
)

// Source is where a tool comes from. Plugin tools use SourceOpenClaw with the
// plugin id as owner; there is no separate "plugin" source (spec: ToolCatalogEntry).
type Source string

// The sources: core and plugin tools, MCP server tools, client (app) tools.
const (
	SourceOpenClaw Source = "openclaw"
	SourceMCP      Source = "mcp"
	SourceClient   Source = "client"
)

// Origin orders tools inside the catalog (spec: core tools, bundled plugin tools,
// external plugin tools, MCP tools, client tools).
type Origin int

// The origins, in catalog order.
const (
	OriginCore Origin = iota
	OriginBundledPlugin
	OriginExternalPlugin
	OriginMCP
	OriginClient
)

// Spec is the static description of a tool. Parameters and OutputSchema are JSON
// Schema documents (2020-12). OutputSchema is trusted only for SourceOpenClaw tools
// not marked Untrusted; MCP and client claims never produce output hints.
type Spec struct {
	// Name is the tool's name; required.
	Name string `json:"name"`
	// Label is an optional display name.
	Label string `json:"label,omitempty"`
	// Description says what the tool does; search matches it.
	Description string `json:"description"`
	// Parameters is the input JSON Schema; inputs are checked against it.
	Parameters json.RawMessage `json:"parameters,omitempty"`
	// OutputSchema is the output JSON Schema; for trusted tools it becomes an output hint and is enforced.
	OutputSchema json.RawMessage `json:"outputSchema,omitempty"`
	// Source defaults from Origin: MCP, client, else openclaw.
	Source Source `json:"source"`
	// Owner is "core" for core tools, the plugin id for plugin tools, the server
	// name for MCP tools and the client/app id for client tools.
	Owner string `json:"owner"`
	// Origin orders the catalog; it is not serialized.
	Origin Origin `json:"-"`
	// DirectOnly tools stay visible to the model and never enter the catalog.
	DirectOnly bool `json:"directOnly,omitempty"`
	// SideEffects marks a tool a restartSafe run must refuse; it wins over ReadOnly.
	SideEffects bool `json:"sideEffects,omitempty"`
	// ReadOnly is a trusted declaration that the tool is free of side effects:
	// restartSafe fails closed and lets only ReadOnly tools through. The host
	// sets it for its own tools; an MCP tool has it only when the host vouched
	// for it (mcp.Server.TrustReadOnly), never from the server's readOnlyHint.
	ReadOnly bool `json:"readOnly,omitempty"`
	// Untrusted marks an openclaw tool whose schemas come from metadata nobody
	// vouched for (an OpenAPI document the config does not mark trusted). Like
	// MCP and client tools, its entry shows input "unknown" and no output hint,
	// its declarations are unknown and its OutputSchema is neither shown nor
	// enforced; unlike them it runs on the host and is reached through tools.*.
	Untrusted bool `json:"untrusted,omitempty"`
	// Control marks a Code Mode control tool (the Code Mode exec and wait). It is a
	// flag rather than a name because the core shell tool is also called "exec" and
	// must stay in the catalog; the Tool Search control names are matched by name
	// (see BuildOptions.ControlNames).
	Control bool `json:"control,omitempty"`
	// Scope, when non-nil, restricts the tool to runs whose Scope matches every
	// non-empty field; Build drops it for any other run, so a catalog never shows
	// another agent's, session's, sender's or run's tools.
	Scope *Scope `json:"scope,omitempty"`
}

// Scope identifies who runs: a catalog never shows or calls another agent's,
// session's, sender's or run's tools.
type Scope struct {
	// AgentID is the agent running.
	AgentID string `json:"agentId,omitempty"`
	// SessionID is the session's id.
	SessionID string `json:"sessionId,omitempty"`
	// SessionKey is the session's routing key.
	SessionKey string `json:"sessionKey,omitempty"`
	// AgentRunID is the agent run (one user turn).
	AgentRunID string `json:"agentRunId,omitempty"`
	// SenderID is who sent the message the run answers.
	SenderID string `json:"senderId,omitempty"`
	// ChannelID is the channel the message came through (a chat, a thread, an
	// app surface): the spec's channel context, handed to every nested call.
	ChannelID string `json:"channelId,omitempty"`
}

// Call is one invocation of a tool.
type Call struct {
	// ID is unique per nested call; ParentID is the exec call that made it.
	ID string
	// ParentID is the model's exec/wait call that made this nested call.
	ParentID string
	// RunID is the code-mode run that made the call (the runId wait takes):
	// it stays the same while the run suspends and resumes, so a tool can tie
	// the calls of one run together. Empty when the call comes from outside a
	// run (the HTTP relay).
	RunID string
	// Input is the tool input as JSON (an object; {} when the guest passed none).
	Input json.RawMessage
	// Scope is who runs the call.
	Scope Scope
	// Update, when non-nil, receives streamed partial results.
	Update func(partial Result)
}

// Result is what a tool returns: content blocks for a model and the structured
// JSON value `details` that tools.callValue hands to the guest.
type Result struct {
	// Content are content blocks for a model (MCP-style JSON objects).
	Content []json.RawMessage `json:"content,omitempty"`
	// Details is the structured JSON value tools.callValue hands to the guest.
	Details json.RawMessage `json:"details,omitempty"`
	// IsError marks a result that reports a failure as content.
	IsError bool `json:"isError,omitempty"`
}

// Tool is how any tool reaches the core. The core never knows whether a tool runs
// in Go, in a browser page or behind fetch. Execute may block for a long time; it
// must return when ctx is done.
type Tool interface {
	// Spec describes the tool; the catalog reads it once per run, when it is built.
	Spec() Spec
	// Execute runs one call. call.Input has been checked against
	// Spec().Parameters already; an error is a failed call the guest can catch
	// (its message reaches the model, so keep host details out of it).
	Execute(ctx context.Context, call Call) (Result, error)
}
