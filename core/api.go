package core

import (
	"context"
	"encoding/json"

	"github.com/codemode-go/codemode/internal/catalog"
	"github.com/codemode-go/codemode/internal/config"
	"github.com/codemode-go/codemode/internal/namespace"
)

// The names a Go user of the runtime needs from the packages under internal/:
// aliases, so a value made here is the very type the runtime works with.

// Config is tools.codeMode: enabled, limits, languages, search. Its fields and
// JSON names are the spec's; Validate reports the first value out of bounds.
type Config = config.Config

// DefaultConfig is the spec's defaults with Code Mode disabled: set Enabled
// (and change what you need) before handing it to New.
func DefaultConfig() Config { return config.Default() }

// Tool is how any tool reaches the core: Spec describes it, Execute runs one
// call. The core never knows whether it runs in Go, in a browser page or
// behind fetch. Func and TypedFunc make one from a function.
type Tool = catalog.Tool

// Spec is the static description of a tool: name, description, input and
// output JSON Schemas, owner and Origin, and the side-effect flags restartSafe
// runs check.
type Spec = catalog.Spec

// ToolCall is one invocation of a tool, as Tool.Execute receives it.
type ToolCall = catalog.Call

// ToolResult is what a tool returns: content blocks for a model and the
// structured JSON value `details` that tools.callValue hands to the guest.
type ToolResult = catalog.Result

// Func makes a Tool from a function of the raw JSON input; its result is
// marshalled to JSON (a ToolResult is passed through as is).
func Func(spec Spec, fn func(ctx context.Context, input json.RawMessage) (any, error)) Tool {
	return catalog.Func(spec, fn)
}

// TypedFunc makes a Tool from a function of Go types: the input and output
// JSON Schemas are derived from In and Out (unless spec sets them), and the
// input is decoded strictly before fn runs.
func TypedFunc[In, Out any](spec Spec, fn func(ctx context.Context, in In) (Out, error)) (Tool, error) {
	return catalog.TypedFunc(spec, fn)
}

// Origin orders tools inside the catalog (spec: core tools, bundled plugin
// tools, external plugin tools, MCP tools, client tools). The zero value is a
// core tool (owner "core"); a host's own tools are usually plugin tools, and
// MCP and client tools get theirs from the connector that makes them.
type Origin = catalog.Origin

// The plugin origins a host gives its tools (Spec.Origin; Owner is the
// plugin id).
const (
	OriginBundledPlugin  = catalog.OriginBundledPlugin
	OriginExternalPlugin = catalog.OriginExternalPlugin
)

// Policy is the allow/deny filter applied to each run's tools: patterns match
// a tool's name or catalog id, `*` matches any run of characters, Deny wins.
// A nil Allow allows everything, a non-nil empty one nothing.
type Policy = catalog.Policy

// Hooks are the before-hooks (deny, ask for approval, rewrite the input), the
// after-hooks (rewrite the result) and the Approver every nested call goes
// through. With no Approver, a call that requires approval is refused.
type Hooks = catalog.Hooks

// HookEvent is what the hooks and the Approver see of a call.
type HookEvent = catalog.HookEvent

// BeforeDecision is a before-hook's verdict; the zero value lets the call
// proceed unchanged.
type BeforeDecision = catalog.BeforeDecision

// Approver decides approval-gated calls; a call blocked in Approve is a
// pending call (the run may suspend on it like on a slow tool).
type Approver = catalog.Approver

// ApprovalRequest is what an Approver decides on.
type ApprovalRequest = catalog.ApprovalRequest

// NamespaceRegistry holds plugin namespace registrations (RegisterForPlugin,
// ClearForPlugin). A Runtime has its own unless Options.Namespaces shares one;
// it is safe for concurrent use.
type NamespaceRegistry = namespace.Registry

// NewNamespaceRegistry returns an empty registry.
func NewNamespaceRegistry() *NamespaceRegistry { return namespace.NewRegistry() }

// Namespace describes one plugin namespace: the guest global, what the model
// is told about it, the catalog tools it may call, and CreateScope, which
// builds its value once per run.
type Namespace = namespace.Registration

// NamespaceContext is the run context a Namespace's CreateScope receives.
type NamespaceContext = namespace.ScopeContext

// Callable is a namespace scope member the guest may call; CallTool makes one.
type Callable = namespace.Callable

// CallTool makes a namespace member that calls the catalog tool toolName (one
// of the Namespace's RequiredToolNames). mapper turns the guest's arguments
// into the tool input; nil passes the first argument (or {}) through.
func CallTool(toolName string, mapper func(args []json.RawMessage) (json.RawMessage, error)) Callable {
	return namespace.Tool(toolName, mapper)
}
