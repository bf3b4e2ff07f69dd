package worker

import (
	"context"
	"errors"
	"log/slog"
	"strings"

	"github.com/codemode-go/codemode/core"
	"github.com/codemode-go/codemode/edge"
	"github.com/codemode-go/codemode/edge/mcpserver"
	"github.com/codemode-go/codemode/internal/catalog"
	"github.com/codemode-go/codemode/internal/config"
	"github.com/codemode-go/codemode/internal/ops"
	"github.com/codemode-go/codemode/internal/relay"
	"github.com/codemode-go/codemode/internal/surface"
	json "github.com/goccy/go-json"
)

// Request is one operation forwarded to a session's Durable Object.
type Request struct {
	// Object is the object's name (ObjectName).
	Object string
	// Op is "exec", "wait", "surface", "touch" (the front's own, see
	// WithLater), "cancel" (abort the run of one exec or wait by its call id:
	// MCP's notifications/cancelled) or "end" (end the session's runs: MCP's
	// DELETE).
	Op string
	// Body is the JSON message (see message).
	Body []byte
	// RelayAuth is the caller's Authorization header: the object's core sends it
	// back with its relayed server-tool calls, which the front authenticates
	// like any other request.
	RelayAuth string
}

// Sender delivers a Request to its object and returns the object's JSON answer.
// An error is a failure of the object or of the way to it, never of the cell.
type Sender func(ctx context.Context, req Request) ([]byte, error)

// message is the body the session object (src/session.mjs) reads.
type message struct {
	Principal string     `json:"principal"`
	Scope     core.Scope `json:"scope"`
	Input     any        `json:"input,omitempty"`
	// CallID names an exec or wait (the MCP server's call id), so a cancel
	// can name it while it is in flight.
	CallID string `json:"callId,omitempty"`
	Format string `json:"format,omitempty"`
	// Config is tools.codeMode for the object's core, which starts on the
	// object's first request (one parser, the front's, reads the Worker's config).
	Config              config.Config `json:"config"`
	TTLSeconds          int           `json:"ttlSeconds"`
	InterruptsPerSecond int64         `json:"interruptsPerSecond,omitempty"`
	PollsPerSecond      int64         `json:"pollsPerSecond,omitempty"`
}

// Forwarder is the front's edge.Runtime: Exec, Wait and Surface run in the
// session's Durable Object, Catalog and CallTool in Relay, a RelayOnly core
// over the Worker's Go tools.
type Forwarder struct {
	// Relay answers Catalog, CallTool and Config; build it with
	// hostopts.Options.RelayOnly, so no request pays for loading QuickJS.
	Relay *core.Runtime
	// RelayMCP, when the Worker has remote MCP servers, builds the relay core
	// of one request with them connected; release closes them (see NewFront
	// for why a connection lives no longer than its request). Nil: Relay.
	RelayMCP func(ctx context.Context) (rt *core.Runtime, release func())
	// Send reaches the objects (the Durable Object namespace binding in the
	// Worker; see NewObjectSender).
	Send Sender
	// InterruptsPerSecond is the interrupt budget's rate for the object's core
	// (measured for V8 in workerd; see tests/bench/RESULTS.md).
	InterruptsPerSecond int64
	// PollsPerSecond is the loop guard's poll budget rate for the object's
	// core (WorkerdPollsPerSecond).
	PollsPerSecond int64
	// Logger receives touches that did not reach the object (nil: none).
	Logger *slog.Logger
}

var (
	_ edge.Runtime            = (*Forwarder)(nil)
	_ mcpserver.RemoteRuntime = (*Forwarder)(nil)
)

type relayAuthKey struct{}

// WithRelayAuth stores the caller's Authorization header in ctx, for Forwarder
// to hand to the object.
func WithRelayAuth(ctx context.Context, auth string) context.Context {
	return context.WithValue(ctx, relayAuthKey{}, auth)
}

func relayAuth(ctx context.Context) string {
	s, _ := ctx.Value(relayAuthKey{}).(string)
	return s
}

// Exec forwards a cell to the session's object.
func (f *Forwarder) Exec(ctx context.Context, call core.CallInfo, in core.ExecInput) core.Result {
	return f.result(ctx, "exec", call, in)
}

// Wait forwards a wait to the session's object. After an eviction the object
// is new and its core has no such run: it answers invalid_input, as for any
// unknown or expired runId.
func (f *Forwarder) Wait(ctx context.Context, call core.CallInfo, in core.WaitInput) core.Result {
	return f.result(ctx, "wait", call, in)
}

func (f *Forwarder) result(ctx context.Context, op string, call core.CallInfo, input any) core.Result {
	b, err := f.sendMsg(ctx, op, message{Principal: call.Principal, Scope: call.Scope, Input: input, CallID: call.CallID})
	if err != nil {
		return ObjectFailure(err)
	}
	var res struct {
		core.Result
		// Failure is the object's report that no core answered
		// (ops.FailureResult).
		Failure string `json:"failure"`
	}
	if err := json.Unmarshal(b, &res); err != nil || (res.Status == "" && res.Failure == "") {
		return ops.Unavailable("the session's answer was not a Code Mode result")
	}
	if res.Failure != "" {
		return ops.FailureResult(res.Failure)
	}
	if res.Status == core.StatusWaiting && res.RunID != "" {
		f.touch(ctx, call, res.RunID)
	}
	return res.Result
}

// touch asks the object to restart the run's snapshot TTL (core.Runtime.RestartTTL):
// on Cloudflare the object's clock stands still during CPU work, so the
// suspension was stamped with the time the exec or wait arrived, and the
// touch, a request of its own, arrives when the clock is right again. It runs
// after the answer went out, through the request's WithLater (the Worker's
// ctx.waitUntil); without one it is sent before the answer. The object's
// refusal (the run was already resumed or ended) needs nothing; only a failure
// to reach the object is logged: the run then keeps its first stamp.
func (f *Forwarder) touch(ctx context.Context, call core.CallInfo, runID string) {
	ctx = context.WithoutCancel(ctx)
	task := func() {
		if _, err := f.send(ctx, "touch", call.Principal, call.Scope, core.WaitInput{RunID: runID}, ""); err != nil && f.Logger != nil {
			f.Logger.Warn("touch did not reach the session object", "run", runID, "reason", err.Error())
		}
	}
	later := laterOf(ctx)
	if later == nil {
		task()
		return
	}
	later(task)
}

// Surface asks the session's object for its model-visible tools (its core
// knows the JavaScript tools registered there); edge renders the formats.
func (f *Forwarder) Surface(ctx context.Context, scope core.Scope, disableTools bool) (surface.Surface, error) {
	if disableTools {
		return surface.Surface{Tools: []surface.ToolDef{}}, nil
	}
	b, err := f.send(ctx, "surface", edge.Principal(ctx), scope, nil, "plain")
	if err != nil {
		return surface.Surface{}, err
	}
	var tools []surface.ToolDef
	if err := json.Unmarshal(b, &tools); err != nil {
		var wrapped struct {
			Tools []surface.ToolDef `json:"tools"`
		}
		if err := json.Unmarshal(b, &wrapped); err != nil {
			return surface.Surface{}, errors.New("the session's surface was not a tool list")
		}
		tools = wrapped.Tools
	}
	active := false
	for _, t := range tools {
		active = active || t.Name == surface.ExecToolName
	}
	return surface.Surface{Active: active, Tools: tools}, nil
}

// relay is the core that answers this request's relays: Relay, or one with
// the remote MCP servers connected (RelayMCP).
func (f *Forwarder) relay(ctx context.Context) (*core.Runtime, func()) {
	if f.RelayMCP == nil {
		return f.Relay, func() {}
	}
	return f.RelayMCP(ctx)
}

// Catalog is the Worker's Go tools, for the session cores that relay to them.
func (f *Forwarder) Catalog(ctx context.Context, scope core.Scope) (relay.Catalog, error) {
	rt, release := f.relay(ctx)
	defer release()
	return rt.Catalog(ctx, scope)
}

// CallTool runs one of the Worker's Go tools through the relay core's catalog.
func (f *Forwarder) CallTool(ctx context.Context, call core.CallInfo, id string, input json.RawMessage) (catalog.Result, *relay.ToolError) {
	rt, release := f.relay(ctx)
	defer release()
	return rt.CallTool(ctx, call, id, input)
}

// ReadMCP runs in a relay core with the Worker's remote MCP servers connected.
func (f *Forwarder) ReadMCP(ctx context.Context, call core.CallInfo, rd relay.MCPRead) (json.RawMessage, *relay.ToolError) {
	rt, release := f.relay(ctx)
	defer release()
	return rt.ReadMCP(ctx, call, rd)
}

// CallDirect runs a direct-only tool of the Worker's Go tools for the MCP
// server (the relay core's catalog, as CallTool).
func (f *Forwarder) CallDirect(ctx context.Context, call core.CallInfo, name string, input json.RawMessage) (catalog.Result, *relay.ToolError) {
	rt, release := f.relay(ctx)
	defer release()
	return rt.CallDirect(ctx, call, name, input)
}

// CancelCall asks the session's object to abort the run of the exec or wait
// call.CallID (MCP's notifications/cancelled, a request of its own that may
// reach another isolate than the call). A failure is logged: the run then
// ends with its TTL.
func (f *Forwarder) CancelCall(ctx context.Context, call core.CallInfo) {
	if _, err := f.sendMsg(ctx, "cancel", message{Principal: call.Principal, Scope: call.Scope, CallID: call.CallID}); err != nil && f.Logger != nil {
		f.Logger.Warn("cancel did not reach the session object", "reason", err.Error())
	}
}

// EndRemoteSession asks the session's object to end its runs (MCP's DELETE
// of the session); a failure is logged, the runs then end with their TTL.
func (f *Forwarder) EndRemoteSession(ctx context.Context, call core.CallInfo) {
	if _, err := f.sendMsg(ctx, "end", message{Principal: call.Principal, Scope: call.Scope}); err != nil && f.Logger != nil {
		f.Logger.Warn("ending a session did not reach the session object", "reason", err.Error())
	}
}

// Config is the Worker's tools.codeMode.
func (f *Forwarder) Config() config.Config { return f.Relay.Config() }

func (f *Forwarder) send(ctx context.Context, op, principal string, scope core.Scope, input any, format string) ([]byte, error) {
	return f.sendMsg(ctx, op, message{Principal: principal, Scope: scope, Input: input, Format: format})
}

// sendMsg completes m with the object's core settings and sends it.
func (f *Forwarder) sendMsg(ctx context.Context, op string, m message) ([]byte, error) {
	cfg := f.Relay.Config()
	m.Config, m.TTLSeconds = cfg, cfg.SnapshotTtlSeconds
	m.InterruptsPerSecond, m.PollsPerSecond = f.InterruptsPerSecond, f.PollsPerSecond
	body, err := json.Marshal(m)
	if err != nil {
		return nil, err
	}
	return f.Send(ctx, Request{Object: ObjectName(m.Principal, m.Scope), Op: op, Body: body, RelayAuth: relayAuth(ctx)})
}

// ObjectFailure turns a failure of the Durable Object (not of the cell) into
// the result the client sees: the Worker's CPU limit (limits.cpu_ms), which
// ends a long built-in that never reaches QuickJS's interrupt, is the cell's
// timeout; anything else (memory limit, a reset by a deploy, a lost
// connection) is runtime_unavailable. Never a 500, never the platform's text.
func ObjectFailure(err error) core.Result {
	msg := strings.ToLower(err.Error())
	if strings.Contains(msg, "cpu") || strings.Contains(msg, "time limit") {
		return ops.Failed(core.CodeTimeout, "code mode cell exceeded the Worker's CPU limit (limits.cpu_ms) while running guest code.")
	}
	return ops.Unavailable("the session's Durable Object failed or was reset; suspended runs of this session are gone.")
}
