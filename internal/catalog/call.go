package catalog

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	gojson "github.com/codemode-go/codemode/internal/jsonx"
	"github.com/codemode-go/codemode/internal/text"
)

// Via is the guest path a call came through; it decides which ids are reachable.
type Via string

const (
	// ViaTools is tools.call/callValue and tools.<safeName>: non-MCP ids only.
	ViaTools Via = "tools"
	// ViaMCP is MCP.<server>.<tool>(...): MCP ids only.
	ViaMCP Via = "mcp"
	// ViaNamespace is a plugin namespace call mapped to a catalog tool.
	ViaNamespace Via = "namespace"
)

// CallContext is the per-call context the runtime supplies.
type CallContext struct {
	// CallID identifies this nested call; generated when empty.
	CallID string
	// ParentCallID is the outer exec call id.
	ParentCallID string
	// RunID is the code-mode run making the call: the runId that wait takes,
	// the same across every exec/wait call of the run. Empty outside a run.
	RunID string
	// Via is the guest path; empty means ViaTools.
	Via Via
	// RestartSafe refuses side-effecting tools and namespace calls before they run.
	RestartSafe bool
	// Update, when non-nil, receives streamed partial results.
	Update func(partial Result)
}

// Call runs the tool with this exact id through the one execution path shared by
// tools.call/callValue, MCP.* and namespace calls: path check, restartSafe rule,
// output-contract compilation, before-hooks and approval (blocking until decided or
// ctx is done), the tool itself, after-hooks, then output validation. Every call,
// refused or not, is counted and recorded in the trajectory.
func (c *Catalog) Call(ctx context.Context, id string, input json.RawMessage, cc CallContext) (Result, error) {
	c.calls.Add(1)
	if cc.Via == "" {
		cc.Via = ViaTools
	}
	if cc.CallID == "" {
		cc.CallID = "call_" + strconv.FormatInt(c.callSeq.Add(1), 10)
	}
	rec := NestedCall{CallID: cc.CallID, ParentCallID: cc.ParentCallID, ToolID: id, Via: cc.Via,
		InputBytes: len(input), Start: time.Now()}
	res, err := c.call(ctx, id, input, cc)
	rec.End = time.Now()
	rec.DurationMs = float64(rec.End.Sub(rec.Start).Microseconds()) / 1000
	switch {
	case err == nil:
		rec.Outcome = OutcomeOK
	case isRefusal(err):
		rec.Outcome = OutcomeDenied
	default:
		rec.Outcome = OutcomeError
	}
	if len(rec.ToolID) > 256 {
		rec.ToolID = text.Cut(rec.ToolID, 256) + ellipsis // guessed ids are guest input
	}
	c.traj.add(rec)
	return res, err
}

func isRefusal(err error) bool {
	for _, k := range []error{ErrUnknownTool, ErrMCPViaTools, ErrNotMCP, ErrDenied, ErrApprovalDenied, ErrRestartSafe} {
		if errors.Is(err, k) {
			return true
		}
	}
	return false
}

// Precheck reports, without running anything, whether Call would refuse id at
// once: unknown or unreachable id, the restartSafe rule, an invalid output
// schema. The runtime uses it to refuse such calls before they become pending.
func (c *Catalog) Precheck(id string, cc CallContext) error {
	if cc.Via == "" {
		cc.Via = ViaTools
	}
	it, err := c.resolve(id, cc.Via)
	if err != nil {
		return err
	}
	if err := refuseRestartUnsafe(id, it, cc); err != nil {
		return err
	}
	_, err = c.outputContract(it)
	return err
}

// RestartSafeAllows reports whether a restartSafe run may call the tool. It
// fails closed: only a tool positively declared free of side effects by a
// trusted source passes. ReadOnly is that declaration: the host sets it for
// its own tools (core and plugin tools, a client app's own tool declarations)
// and, for an MCP tool, only by vouching for it (mcp.Server.TrustReadOnly),
// since an MCP server's own readOnlyHint is untrusted metadata. A tool
// without ReadOnly, or marked SideEffects, is refused.
func RestartSafeAllows(s Spec) bool {
	return s.ReadOnly && !s.SideEffects
}

// restartUnsafeReason says why a restartSafe run refuses s, in words for the
// model ("" when it is allowed).
func restartUnsafeReason(s Spec) string {
	switch {
	case RestartSafeAllows(s):
		return ""
	case s.SideEffects:
		return "it is marked as having side effects"
	case s.Source == SourceMCP:
		return "the host has not vouched that it is read-only (an MCP server's own readOnlyHint is not trusted)"
	default:
		return "it is not declared read-only (readOnly), so it may have side effects"
	}
}

func refuseRestartUnsafe(id string, it *item, cc CallContext) error {
	if cc.RestartSafe {
		if cc.Via == ViaNamespace { // spec: restartSafe refuses plugin namespaces
			return newErr(ErrRestartSafe, "namespace calls are refused in a restartSafe run")
		}
		if why := restartUnsafeReason(it.spec); why != "" {
			return newErr(ErrRestartSafe, fmt.Sprintf("tool %q is refused in a restartSafe run: %s; call it from an exec without restartSafe", id, why))
		}
	}
	return nil
}

func (c *Catalog) call(ctx context.Context, id string, input json.RawMessage, cc CallContext) (Result, error) {
	it, err := c.resolve(id, cc.Via)
	if err != nil {
		return Result{}, err
	}
	if err := refuseRestartUnsafe(id, it, cc); err != nil {
		return Result{}, err
	}
	contract, err := c.outputContract(it)
	if err != nil {
		return Result{}, err
	}
	if len(bytes.TrimSpace(input)) == 0 {
		input = json.RawMessage(`{}`)
	}
	if !gojson.Valid(input) {
		return Result{}, newErr(ErrInvalidInput, fmt.Sprintf("input for tool %q is not valid JSON", id))
	}
	params, err := c.inputSchema(it)
	if err != nil {
		return Result{}, err
	}
	if params != nil {
		if err := checkInput(it.entry, params, input); err != nil {
			return Result{}, err
		}
	}
	if err := ctx.Err(); err != nil {
		return Result{}, err
	}
	ev := HookEvent{ToolName: it.spec.Name, ToolID: id, CallID: cc.CallID, ParentCallID: cc.ParentCallID,
		Via: cc.Via, Input: input, Scope: c.scope}
	rewritten, err := c.hooks.RunBefore(ctx, ev)
	if err != nil {
		return Result{}, err
	}
	if params != nil && !bytes.Equal(rewritten, input) { // a hook's rewrite obeys the same schema
		if err := checkInput(it.entry, params, rewritten); err != nil {
			return Result{}, err
		}
	}
	input = rewritten
	ev.Input = input
	res, err := execute(ctx, id, it.tool, Call{ID: cc.CallID, ParentID: cc.ParentCallID, RunID: cc.RunID, Input: input,
		Scope: c.scope, Update: cc.Update})
	if err != nil {
		if ctx.Err() != nil {
			return Result{}, ctx.Err()
		}
		return Result{}, err
	}
	if res, err = c.hooks.RunAfter(ctx, ev, res); err != nil {
		return Result{}, err
	}
	if contract != nil {
		if err := checkOutput(id, contract, res.Details); err != nil {
			return Result{}, err
		}
	}
	return res, nil
}
