package core

import (
	"context"
	"encoding/hex"
	"errors"
	"slices"
	"strings"

	"github.com/codemode-go/codemode/core/mcp"
	"github.com/codemode-go/codemode/internal/catalog"
	"github.com/codemode-go/codemode/internal/cellcheck"
	"github.com/codemode-go/codemode/internal/config"
	"github.com/codemode-go/codemode/internal/cryptorand"
	json "github.com/codemode-go/codemode/internal/jsonx"
	"github.com/codemode-go/codemode/internal/namespace"
)

// Scope is who runs: a suspended run is only visible to the scope that made it.
type Scope = catalog.Scope

// ExecInput is the exec tool's input (spec CodeModeExecInput), plus restartSafe.
type ExecInput struct {
	// Code is the cell: a JavaScript or TypeScript program, run as the body of an async function.
	Code string `json:"code,omitempty"`
	// Command is an alias of Code (some models send it); when both are set they must be equal.
	Command string `json:"command,omitempty"`
	// Language is "javascript" (the default) or "typescript".
	Language string `json:"language,omitempty"`
	// RestartSafe declares read-only work: side-effecting catalog calls and
	// plugin namespaces are refused, and pending calls are never auto-pumped.
	RestartSafe bool `json:"restartSafe,omitempty"`
}

// WaitInput is the wait tool's input.
type WaitInput struct {
	// RunID is the runId of a waiting result.
	RunID string `json:"runId"`
}

// CallInfo identifies the model's exec/wait tool call, so nested calls appear
// under it in the trajectory and in hook events.
type CallInfo struct {
	// Scope is who runs; a suspended run is visible only to the scope that made it.
	Scope Scope
	// CallID is the model's tool call id; nested calls appear under it in hooks and the trajectory.
	CallID string
	// Principal is the authenticated caller a host vouches for (an HTTP bearer
	// token's principal, say); empty when the host has no notion of callers. A
	// suspended run belongs to its principal and scope: a wait from another
	// principal is answered exactly as one for an unknown runId, so a runId
	// reveals nothing across principals.
	Principal string
	// OnUpdate, when set, receives the streamed partial results of the run's
	// nested tool calls (catalog.Call.Update) while this exec or wait drives
	// the run: the spec's streaming updates of nested calls. Updates of a
	// suspended run have no caller and are dropped; the final result still
	// reaches the guest. It is called from the tools' goroutines, possibly
	// concurrently, never after Exec or Wait returned; it must not block.
	OnUpdate func(ToolUpdate)

	// warmTool, set only by warmUpCalls, is the whole catalog of the run.
	warmTool catalog.Tool
}

// ToolUpdate is one streamed partial result of a nested tool call.
type ToolUpdate struct {
	// RunID is the run making the call ("" for a relayed CallTool).
	RunID string `json:"runId,omitempty"`
	// CallID is the nested call: the id pendingToolCalls shows for it (the
	// relay's callId for CallTool).
	CallID string `json:"callId"`
	// ParentCallID is the exec or wait call driving the run.
	ParentCallID string `json:"parentCallId,omitempty"`
	// ToolID is the catalog id of the tool.
	ToolID string `json:"toolId"`
	// Partial is what the tool streamed.
	Partial catalog.Result `json:"partial"`
}

// Exec runs one cell. It always returns a Result; failures are results too.
// Every exec is recorded in the transcript (refusals before the VM starts
// too), and the after-hooks see its result under the outer exec's hook event.
func (rt *Runtime) Exec(ctx context.Context, call CallInfo, in ExecInput) Result {
	if rt.qjs == nil {
		return failed(CodeRuntimeUnavailable, errRelayOnly, catalog.Telemetry{})
	}
	if !rt.enter() {
		return failed(CodeRuntimeUnavailable, msgClosed, catalog.Telemetry{})
	}
	defer rt.leave()
	// The hook events carry the input as JSON; without hooks nobody reads it.
	var raw []byte
	if len(rt.opts.Hooks.Before)+len(rt.opts.Hooks.After) > 0 {
		raw, _ = json.Marshal(in)
	}
	res, r, lang := rt.exec(ctx, call, in, raw, len(rt.opts.Hooks.Before) > 0)
	if r != nil {
		r.record("exec", lang, len(in.Code)+len(in.Command), res)
	} else {
		rt.recordRefusal(call, "exec", lang, len(in.Code)+len(in.Command), res)
	}
	rt.runAfter(ctx, catalog.ExecHookEvent(call.CallID, lang, raw, call.Scope), res)
	return res
}

// exec is Exec's work; r is nil when the cell was refused before a run began.
// hooks false skips the before-hooks (there are none, or warmUp's cell, which
// no hook may see).
func (rt *Runtime) exec(ctx context.Context, call CallInfo, in ExecInput, raw []byte, hooks bool) (Result, *run, string) {
	src, lang, msg := rt.checkInput(in)
	if ctx.Err() != nil {
		return failed("", msgAborted, catalog.Telemetry{}), nil, lang
	}
	cat, visible, servers, err := rt.runCatalog(ctx, call)
	var tel catalog.Telemetry
	if cat != nil {
		tel = cat.Telemetry(visible)
	}
	if err != nil {
		rt.opts.Logger.Error("code mode: the tool catalog could not be built", "error", err.Error())
		return failed(CodeInternalError, "code mode could not build the tool catalog (the host's log says why).", tel), nil, lang
	}
	if msg != "" {
		return failed(CodeInvalidInput, msg, tel), nil, lang
	}
	rewritten := raw
	if hooks {
		rewritten, err = rt.opts.Hooks.RunBefore(ctx, catalog.ExecHookEvent(call.CallID, lang, raw, call.Scope))
	}
	if err != nil {
		return failed(CodeInvalidInput, err.Error(), tel), nil, lang
	}
	if string(rewritten) != string(raw) {
		// A trusted hook rewrote the cell: the rewrite obeys the same input rules.
		var next ExecInput
		if err := json.Unmarshal(rewritten, &next); err != nil {
			return failed(CodeInvalidInput, "exec: a hook rewrote the input into something that is not an exec input", tel), nil, lang
		}
		next.RestartSafe = next.RestartSafe || in.RestartSafe
		if src, lang, msg = rt.checkInput(next); msg != "" {
			return failed(CodeInvalidInput, msg, tel), nil, lang
		}
		in = next
	}
	if err := cellcheck.Bounds(src, lang == config.LanguageTypeScript); err != nil {
		return failed(CodeInvalidInput, err.Error(), tel), nil, lang
	}
	if err := cellcheck.Check(src); err != nil {
		return failed(CodeInvalidInput, err.Error(), tel), nil, lang
	}
	var lines lineMap
	if lang == config.LanguageTypeScript {
		js, lm, err := rt.transformTS(ctx, src)
		if err == nil {
			err = cellcheck.CompiledBounds(js)
		}
		if err != nil {
			return failed(CodeInvalidInput, err.Error(), tel), nil, lang
		}
		src, lines = js, lm
	}
	if !rt.admit.enter(ctx) {
		if ctx.Err() != nil {
			return failed("", msgAborted, tel), nil, lang
		}
		return rt.busy("", tel), nil, lang
	}
	r := &run{
		rt: rt, id: newRunID(), scope: call.Scope, principal: call.Principal, parentCallID: call.CallID,
		cat: cat, visible: visible, servers: servers, restartSafe: in.RestartSafe, cell: newCellText(src, lines), slot: true,
	}
	defer r.dropSlot()
	r.updates.set(call.OnUpdate, call.CallID)
	defer r.updates.set(nil, "")
	if err := r.init(); err != nil {
		rt.opts.Logger.Error("code mode: plugin namespace setup failed", "run", r.id, "error", err.Error())
		r.discard()
		return failed(CodeInvalidInput, "code mode namespace setup failed (a plugin namespace is broken; the host's log says why).", tel), nil, lang
	}
	return r.start(ctx, src), r, lang
}

// Wait resumes a suspended run. Like exec it is an outer call: before-hooks
// may deny it, after-hooks see its result, the transcript records it, and its
// failures carry the telemetry of the run (or of the caller's catalog).
func (rt *Runtime) Wait(ctx context.Context, call CallInfo, in WaitInput) Result {
	if rt.qjs == nil {
		return failed(CodeRuntimeUnavailable, errRelayOnly, catalog.Telemetry{})
	}
	if !rt.enter() {
		return failed(CodeRuntimeUnavailable, msgClosed, catalog.Telemetry{})
	}
	defer rt.leave()
	raw, _ := json.Marshal(in)
	ev := catalog.WaitHookEvent(call.CallID, raw, call.Scope)
	res, r := rt.wait(ctx, call, in, ev)
	if r != nil {
		r.record("wait", "", 0, res)
	} else {
		rt.recordRefusal(call, "wait", "", 0, res)
	}
	rt.runAfter(ctx, ev, res)
	return res
}

func (rt *Runtime) wait(ctx context.Context, call CallInfo, in WaitInput, ev catalog.HookEvent) (Result, *run) {
	refuse := func(code ErrorCode, msg string) (Result, *run) {
		return failed(code, msg, rt.scopeTelemetry(ctx, call.Scope)), nil
	}
	if ctx.Err() != nil {
		return refuse("", msgAborted) // the run stays suspended
	}
	if strings.TrimSpace(in.RunID) == "" {
		return refuse(CodeInvalidInput, "wait needs a runId from a waiting exec result.")
	}
	if _, err := rt.opts.Hooks.RunBefore(ctx, ev); err != nil {
		return refuse(CodeInvalidInput, err.Error())
	}
	if !rt.admit.enter(ctx) {
		if ctx.Err() != nil {
			return refuse("", msgAborted)
		}
		return rt.busy("the run stays suspended:", rt.scopeTelemetry(ctx, call.Scope)), nil
	}
	r, msg := rt.store.take(in.RunID, call.Principal, call.Scope)
	if r == nil {
		rt.admit.leave()
		return refuse(CodeInvalidInput, msg)
	}
	r.slot = true
	defer r.dropSlot()
	r.updates.set(call.OnUpdate, call.CallID)
	defer r.updates.set(nil, "")
	return r.resume(ctx, call.CallID), r
}

// scopeTelemetry is the telemetry of a call that has no run: the caller's
// catalog counts and model-visible tool names, with no calls counted.
func (rt *Runtime) scopeTelemetry(ctx context.Context, scope Scope) catalog.Telemetry {
	cat, visible, _, err := rt.buildCatalog(context.WithoutCancel(ctx), scope)
	if err != nil || cat == nil {
		return catalog.Telemetry{}
	}
	return cat.Telemetry(visible)
}

// runAfter shows the outer call's result to the after-hooks, as `details` of
// the hook result. They observe it: the model always gets the runtime's
// CodeModeResult, so what they return and any error they raise are ignored.
func (rt *Runtime) runAfter(ctx context.Context, ev catalog.HookEvent, res Result) {
	if len(rt.opts.Hooks.After) == 0 {
		return
	}
	b, err := json.Marshal(res)
	if err != nil {
		return
	}
	rt.opts.Hooks.RunAfter(context.WithoutCancel(ctx), ev, catalog.Result{Details: b})
}

// checkInput applies the exec input rules; msg is the invalid_input message.
func (rt *Runtime) checkInput(in ExecInput) (src, lang, msg string) {
	src = in.Code
	switch {
	case in.Code != "" && in.Command != "" && in.Code != in.Command:
		return "", "", "exec: code and command are aliases and must be equal when both are given."
	case src == "":
		src = in.Command
	}
	if strings.TrimSpace(src) == "" {
		return "", "", "exec needs a non-empty code string (a JavaScript or TypeScript program)."
	}
	lang = in.Language
	if lang == "" {
		lang = rt.cfg.DefaultLanguage()
	}
	if lang != config.LanguageJavaScript && lang != config.LanguageTypeScript {
		return "", "", `exec: language must be "javascript" or "typescript".`
	}
	if !rt.cfg.LanguageEnabled(lang) {
		return "", "", "exec: language " + lang + " is disabled by tools.codeMode.languages."
	}
	return src, lang, ""
}

// runCatalog is the catalog of a run: buildCatalog's, or for a warm-up of
// the call path (warmUpCalls) a catalog of its own tool alone, without the
// host's tools, MCP servers, policy or hooks.
func (rt *Runtime) runCatalog(ctx context.Context, call CallInfo) (*catalog.Catalog, []string, []*mcp.Server, error) {
	if call.warmTool == nil {
		return rt.buildCatalog(ctx, call.Scope)
	}
	cat, err := catalog.Build([]catalog.Tool{call.warmTool}, catalog.BuildOptions{Scope: call.Scope, RenderCache: rt.memo})
	return cat, []string{"exec", "wait"}, nil, err
}

// buildCatalog builds the run-scoped catalog, the model-visible tool names
// (exec, wait and the direct-only tools kept visible) and the MCP servers the
// scope sees (whose resources and prompts the run may read).
func (rt *Runtime) buildCatalog(ctx context.Context, scope Scope) (*catalog.Catalog, []string, []*mcp.Server, error) {
	tools, servers, err := rt.effectiveTools(ctx, scope)
	if err != nil {
		return nil, nil, nil, err
	}
	visible := []string{"exec", "wait"}
	for _, t := range tools {
		if s := t.Spec(); s.DirectOnly && rt.opts.Policy.Allows(s.Name, catalog.ToolID(s)) {
			visible = append(visible, s.Name)
		}
	}
	cat, err := catalog.Build(tools, rt.buildOptions(scope))
	return cat, visible, servers, err
}

// buildOptions are the catalog options of every run of scope. A host's broken
// tool is the host's to fix: the model gets the rest of the catalog, the host's
// log gets the Spec field to fix.
func (rt *Runtime) buildOptions(scope Scope) catalog.BuildOptions {
	return catalog.BuildOptions{Policy: rt.opts.Policy, Scope: scope, Hooks: rt.opts.Hooks, RenderCache: rt.memo,
		Skip: func(err error) { rt.opts.Logger.Warn("code mode: tool left out of the catalog", "error", err.Error()) }}
}

// effectiveTools is the run's tool list before the catalog policy: the host's
// tools for scope, then the tools of every MCP server the scope sees.
func (rt *Runtime) effectiveTools(ctx context.Context, scope Scope) ([]catalog.Tool, []*mcp.Server, error) {
	var tools []catalog.Tool
	if rt.opts.Tools != nil {
		var err error
		if tools, err = rt.opts.Tools(ctx, scope); err != nil {
			return nil, nil, err
		}
	}
	servers, err := rt.mcpServers(ctx, scope)
	if err != nil {
		return nil, nil, err
	}
	for _, srv := range servers {
		tools = append(tools, srv.Tools()...)
	}
	return tools, servers, nil
}

// mcpServers are the MCP servers a run of scope sees: Options.MCPServers,
// then what Options.MCP resolves for the scope. Names are unique in a run
// (they make the catalog ids and MCP.<name>): a later server with a name
// already taken is left out and logged, never merged.
func (rt *Runtime) mcpServers(ctx context.Context, scope Scope) ([]*mcp.Server, error) {
	if rt.opts.MCP == nil {
		return rt.opts.MCPServers, nil
	}
	more, err := rt.opts.MCP(ctx, scope)
	if err != nil {
		return nil, err
	}
	out := slices.Clone(rt.opts.MCPServers)
	for _, s := range more {
		if s == nil {
			continue
		}
		if serverNamed(out, s.Name()) != nil {
			rt.opts.Logger.Warn("code mode: MCP server left out of the run: its name is taken", "server", s.Name())
			continue
		}
		out = append(out, s)
	}
	return out, nil
}

// serverNamed is the server of that name among servers, or nil.
func serverNamed(servers []*mcp.Server, name string) *mcp.Server {
	for _, s := range servers {
		if s.Name() == name {
			return s
		}
	}
	return nil
}

// resolveNamespaces keeps the plugin namespaces whose required tools are all
// visible in cat and builds their scopes for this run.
func (rt *Runtime) resolveNamespaces(cat *catalog.Catalog, scope Scope, runID string, aborted func() bool) (*namespace.Runtime, error) {
	var visible []catalog.Spec
	for _, e := range cat.Entries() {
		visible = append(visible, catalog.Spec{Name: e.Name, Source: e.Source, Owner: e.SourceName})
	}
	ns, err := rt.opts.Namespaces.Resolve(namespace.ScopeContext{
		AgentID: scope.AgentID, SessionKey: scope.SessionKey, SessionID: scope.SessionID, RunID: runID,
		Config: rt.opts.NamespaceConfig, Aborted: aborted,
	}, visible)
	if ns == nil {
		return nil, err
	}
	// Broken registrations were skipped; the run goes on with the others.
	rt.reportSkipped(err)
	return ns, nil
}

// reportSkipped logs every namespace Resolve skipped (a broken plugin
// registration), so the host sees what the run goes on without.
func (rt *Runtime) reportSkipped(err error) {
	if err == nil {
		return
	}
	errs := []error{err}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		errs = j.Unwrap()
	}
	for _, e := range errs {
		id := ""
		var se *namespace.SkippedError
		if errors.As(e, &se) {
			id = se.ID
		}
		rt.opts.Logger.Warn("code mode: broken plugin namespace skipped", "namespace", id, "error", e.Error())
	}
}

func newRunID() string {
	var b [12]byte
	cryptorand.Read(b[:])
	return "cm_" + hex.EncodeToString(b[:])
}

func failed(code ErrorCode, msg string, tel catalog.Telemetry) Result {
	if tel.ModelVisibleTools == nil {
		tel.ModelVisibleTools = []string{"exec", "wait"}
	}
	return Result{Status: StatusFailed, Error: msg, Code: code, Telemetry: tel}
}
