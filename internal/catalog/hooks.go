package catalog

import (
	"context"
	"fmt"

	json "github.com/codemode-go/codemode/internal/jsonx"
	"github.com/codemode-go/codemode/internal/tsschema"
)

// ToolKindCodeModeExec marks hook events of the outer Code Mode exec, so policies
// can tell a Code Mode cell from a shell exec that shares the tool name.
const ToolKindCodeModeExec = "code_mode_exec"

// ToolKindCodeModeWait marks hook events of the outer Code Mode wait.
const ToolKindCodeModeWait = "code_mode_wait"

// HookEvent is what BeforeToolCall/AfterToolCall hooks and the Approver see.
type HookEvent struct {
	// ToolName is the tool's own name.
	ToolName string `json:"toolName"`
	// ToolID is the catalog id of the tool called.
	ToolID string `json:"toolId,omitempty"`
	// CallID identifies this nested call.
	CallID string `json:"callId"`
	// ParentCallID is the exec call a nested call came from.
	ParentCallID string `json:"parentCallId,omitempty"`
	// ToolKind is "code_mode_exec" for the outer exec, empty for nested calls.
	ToolKind string `json:"toolKind,omitempty"`
	// ToolInputKind is "javascript" or "typescript" for the outer exec when known.
	ToolInputKind string `json:"toolInputKind,omitempty"`
	// Via is how the guest called: tools.*, MCP.* or a namespace.
	Via Via `json:"via,omitempty"`
	// Input is the call's JSON input; a before-hook may rewrite it.
	Input json.RawMessage `json:"input,omitempty"`
	// Scope is who runs.
	Scope Scope `json:"scope"`
}

// ExecHookEvent is the hook event of the outer Code Mode exec call; the runtime
// passes it to Hooks.RunBefore before evaluating a cell.
func ExecHookEvent(callID, language string, input json.RawMessage, scope Scope) HookEvent {
	return HookEvent{ToolName: "exec", CallID: callID, ToolKind: ToolKindCodeModeExec,
		ToolInputKind: language, Input: input, Scope: scope}
}

// WaitHookEvent is the hook event of the outer Code Mode wait call (input
// {"runId": ...}); a before-hook may deny it, an input rewrite is ignored.
func WaitHookEvent(callID string, input json.RawMessage, scope Scope) HookEvent {
	return HookEvent{ToolName: "wait", CallID: callID, ToolKind: ToolKindCodeModeWait, Input: input, Scope: scope}
}

// BeforeDecision is a before-hook's verdict. The zero value lets the call proceed
// unchanged.
type BeforeDecision struct {
	// Deny refuses the call.
	Deny bool
	// Reason explains a denial or an approval request to the model (bounded).
	Reason string
	// Input, when non-nil, replaces the call input (must be valid JSON).
	Input json.RawMessage
	// RequireApproval sends the call to the Approver before it runs.
	RequireApproval bool
}

// BeforeToolCall runs before a tool. An error stops the call like a deny.
type BeforeToolCall = func(ctx context.Context, ev HookEvent) (BeforeDecision, error)

// AfterToolCall may rewrite a tool's result; it runs before output validation, so
// a rewritten `details` must still match the declared outputSchema.
type AfterToolCall = func(ctx context.Context, ev HookEvent, res Result) (Result, error)

// ApprovalRequest is what an Approver decides on.
type ApprovalRequest struct {
	// Event is the call awaiting approval.
	Event HookEvent
	// Reason is why a before-hook asked for approval.
	Reason string
}

// Approver decides approval-gated calls. Approve blocks until a decision or until
// ctx is done; the runtime treats a call blocked here as a pending call.
type Approver interface {
	// Approve reports whether the call may run. An error refuses it too (the
	// model sees that approval failed); ctx ends when the run does.
	Approve(ctx context.Context, req ApprovalRequest) (bool, error)
}

// Hooks are the run's hooks and approval gate. With no Approver, a call that
// requires approval is refused (fail closed).
type Hooks struct {
	// Before run in order before each call; each may deny, ask for approval or rewrite the input.
	Before []BeforeToolCall
	// After run in order after each call and may rewrite its result.
	After []AfterToolCall
	// Approver decides approval requests; a pending approval suspends the run like a slow tool.
	Approver Approver
}

// RunBefore runs the before-hooks in order, each seeing the input as rewritten by
// the previous ones, then the approval gate if any hook asked for it. It returns
// the input to run with.
func (h Hooks) RunBefore(ctx context.Context, ev HookEvent) (json.RawMessage, error) {
	needApproval, reason := false, ""
	for _, hook := range h.Before {
		d, err := hook(ctx, ev)
		if err != nil {
			return nil, newErr(ErrDenied, fmt.Sprintf("tool call %s denied by hook: %v", ev.toolRef(), err))
		}
		if d.Deny {
			msg := "tool call " + ev.toolRef() + " denied by policy"
			if d.Reason != "" {
				msg += ": " + boundText(d.Reason, 200)
			}
			return nil, newErr(ErrDenied, msg)
		}
		if d.Input != nil {
			if !json.Valid(d.Input) {
				return nil, newErr(ErrInvalidInput, "a before_tool_call hook rewrote the input of "+ev.toolRef()+" to invalid JSON")
			}
			ev.Input = d.Input
		}
		if d.RequireApproval {
			needApproval = true
			if reason == "" {
				reason = d.Reason
			}
		}
	}
	if needApproval {
		if h.Approver == nil {
			return nil, newErr(ErrApprovalDenied, "tool call "+ev.toolRef()+" requires approval and no approver is available")
		}
		ok, err := h.Approver.Approve(ctx, ApprovalRequest{Event: ev, Reason: reason})
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return nil, newErr(ErrApprovalDenied, fmt.Sprintf("approval for %s failed: %v", ev.toolRef(), err))
		}
		if !ok {
			return nil, newErr(ErrApprovalDenied, "tool call "+ev.toolRef()+" was not approved")
		}
	}
	return ev.Input, nil
}

// RunAfter runs the after-hooks in order over the result.
func (h Hooks) RunAfter(ctx context.Context, ev HookEvent, res Result) (Result, error) {
	for _, hook := range h.After {
		var err error
		if res, err = hook(ctx, ev, res); err != nil {
			return Result{}, fmt.Errorf("after_tool_call hook for %s: %w", ev.toolRef(), err)
		}
	}
	return res, nil
}

func (ev HookEvent) toolRef() string {
	if ev.ToolID != "" {
		return tsschema.Quote(ev.ToolID, 200)
	}
	return tsschema.Quote(ev.ToolName, 200)
}
