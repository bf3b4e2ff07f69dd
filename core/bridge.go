package core

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"slices"
	"strconv"

	"github.com/codemode-go/codemode/core/mcp"
	"github.com/codemode-go/codemode/internal/catalog"
	json "github.com/codemode-go/codemode/internal/jsonx"
	"github.com/codemode-go/codemode/internal/quickjs"
	"github.com/codemode-go/codemode/internal/strictjson"
	"github.com/codemode-go/codemode/internal/text"
)

// Bounds of one bridge message each way. The guest's memory limit would stop a
// larger one too, but only after the host had built it.
const (
	maxBridgeRequest = 16 << 20
	maxBridgeResult  = 16 << 20
)

// request is every bridge operation's input; fields are used per op.
type request struct {
	Op        string            `json:"op"`
	Text      string            `json:"text"`
	Value     json.RawMessage   `json:"value"`
	Query     string            `json:"query"`
	Limit     *int              `json:"limit"`
	ID        string            `json:"id"`
	Input     json.RawMessage   `json:"input"`
	Mode      string            `json:"mode"`
	Reason    string            `json:"reason"`
	Server    string            `json:"server"`
	Tool      *string           `json:"tool"`
	Schema    bool              `json:"schema"`
	URI       string            `json:"uri"`
	Name      string            `json:"name"`
	Arguments json.RawMessage   `json:"arguments"`
	NS        string            `json:"ns"`
	Path      []string          `json:"path"`
	Args      []json.RawMessage `json:"args"`
	Ms        float64           `json:"ms"`
	Token     int64             `json:"token"`
	Kind      string            `json:"kind"`  // unknown: what sort of object
	Where     string            `json:"where"` // unknown: how the cell reaches it
	Have      []string          `json:"have"`  // unknown: the object's own names
}

// guestError is plain data for the guest: never a host Error object.
type guestError struct {
	Name    string `json:"name"`
	Message string `json:"message"`
}

// readRequest decodes one guest message. Its errors are what the cell reads
// when a value it passes out cannot cross: they name the value and the rule,
// never the bridge or its functions, which the cell cannot see.
func (r *run) readRequest(vm *quickjs.VM, args []quickjs.Value) (request, error) {
	var req request
	if len(args) != 1 {
		return req, errInternalCall
	}
	s, err := vm.GoString(args[0])
	if err != nil {
		return req, err
	}
	if len(s) > maxBridgeRequest {
		return req, &quickjs.Throw{Name: "RangeError", Message: "a value of " + strconv.Itoa(len(s)) + " bytes is too large to pass to text(), json(), a tool or a namespace (at most " + strconv.Itoa(maxBridgeRequest) + " bytes per call); pass less or summarize it"}
	}
	// Guest-serialized JSON is never passed on as it is: parsed strictly and
	// re-serialized, so raw values (json output, tool inputs) are clean too.
	// Lone surrogates (a cut emoji) become U+FFFD, as in a well-formed string.
	b, err := strictjson.CanonicalWellFormed([]byte(s))
	if err != nil {
		return req, &quickjs.Throw{Name: "TypeError", Message: "a value passed to text(), json(), a tool or a namespace is not plain JSON (" + strictReason(err) + ")"}
	}
	if decodeRequest(b, &req) {
		return req, nil
	}
	req = request{}
	if err := json.Unmarshal(b, &req); err != nil {
		return req, errInternalCall
	}
	return req, nil
}

// errInternalCall answers a message the prelude never sends: only a cell that
// reached the runtime's hidden functions could, and they are not in its reach.
var errInternalCall = &quickjs.Throw{Name: "TypeError", Message: "invalid call into the Code Mode runtime"}

// strictReason is a strictjson error without its "not strict JSON" framing.
func strictReason(err error) string {
	var se *strictjson.Error
	if errors.As(err, &se) {
		return se.Msg
	}
	return "unreadable"
}

// hostSync answers operations that complete at once: output, search, describe,
// MCP $api headers. It returns {"ok": value} or {"error": {name, message}}.
func (r *run) hostSync(vm *quickjs.VM, _ quickjs.Value, args []quickjs.Value) (quickjs.Value, error) {
	req, err := r.readRequest(vm, args)
	if err != nil {
		return 0, err
	}
	var out any
	switch req.Op {
	case "text":
		err = r.emit(Output{Type: "text", Text: req.Text}, int64(len(req.Text))+outputItemCost)
	case "json":
		err = r.emit(Output{Type: "json", Value: req.Value}, int64(len(req.Value))+outputItemCost)
	case "search":
		limit := 0
		if req.Limit != nil {
			limit = *req.Limit
		}
		out = r.cat.Search(req.Query, catalog.SearchLimit(limit, r.rt.cfg.EffectiveSearchDefaultLimit(), r.rt.cfg.MaxSearchLimit))
	case "describe":
		out, err = r.cat.Describe(req.ID)
	case "timer.cancel":
		r.cancelTimer(req.Token)
	case "unknown":
		err = r.unknownName(req)
	case "mcp.api":
		tool := ""
		if req.Tool != nil {
			tool = *req.Tool
		}
		out, err = r.files().APIHeader(req.Server, tool, req.Schema)
	case "api.files":
		out = r.apiFiles()
	default:
		err = errInternalCall
	}
	var reply any
	if err != nil {
		var t *quickjs.Throw
		if errors.As(err, &t) {
			reply = map[string]guestError{"error": {t.Name, t.Message}}
		} else {
			reply = map[string]guestError{"error": {"Error", plainMessage(err)}}
		}
	} else {
		reply = map[string]any{"ok": out}
	}
	b, err := json.Marshal(reply)
	if err != nil {
		return 0, &quickjs.Throw{Name: "Error", Message: "the runtime's answer could not be serialized"}
	}
	return vm.NewString(string(b))
}

// outputItemCost is what an output item's envelope ({"type":"text","text":""})
// adds to the result; charging it bounds the number of items too, so a loop of
// text("") cannot grow the host's output list without limit.
const outputItemCost = 24

// emit appends an output item if it fits maxOutputBytes (counted over the run);
// otherwise it marks the run as over its output budget.
func (r *run) emit(o Output, n int64) error {
	if r.overflow || !r.charge(n) {
		r.overflow = true
		return &quickjs.Throw{Name: "RangeError", Message: r.overflowMsg()}
	}
	r.out = append(r.out, o)
	return nil
}

func (r *run) charge(n int64) bool {
	if r.outUsed+n > r.rt.cfg.MaxOutputBytes {
		return false
	}
	r.outUsed += n
	return true
}

func (r *run) overflowMsg() string {
	return "code mode output exceeds maxOutputBytes (" + strconv.FormatInt(r.rt.cfg.MaxOutputBytes, 10) + " bytes); print less or return a summary."
}

// hostAsync starts an operation that settles later (tool calls, MCP, namespaces,
// yield) and returns its promise. The work runs on a goroutine of its own (from
// the run's call pool) under the run's context; its result is delivered by the pump, in this or a later call.
func (r *run) hostAsync(vm *quickjs.VM, _ quickjs.Value, args []quickjs.Value) (quickjs.Value, error) {
	req, err := r.readRequest(vm, args)
	if err != nil {
		return 0, err
	}
	if req.Op == "yield" {
		if r.yield != nil {
			return 0, &quickjs.Throw{Name: "Error", Message: "yield_control is already pending"}
		}
		p, res, err := vm.NewPromise()
		if err != nil {
			return 0, err
		}
		r.yield = &res
		return p, nil
	}
	if req.Op == "timer" {
		return r.startTimer(vm, req.Token, req.Ms)
	}
	job, toolID, err := r.job(req)
	if err != nil {
		return 0, err
	}
	if max := r.rt.cfg.MaxPendingToolCalls; r.pendingToolCalls() >= max {
		return 0, &quickjs.Throw{Name: "RangeError", Message: "too many pending tool calls (maxPendingToolCalls = " + strconv.Itoa(max) + "); await some before starting more"}
	}
	p, res, err := vm.NewPromise()
	if err != nil {
		return 0, err
	}
	id := r.nextID("call")
	r.calls[id] = &pendingCall{id: id, kind: req.Op, toolID: toolID, res: res}
	ctx, done := r.jobContext()
	ctx = context.WithValue(ctx, pendingKey{}, id)
	settled := r.settled
	r.pool.run(func() {
		defer done()
		s := settlement{id: id}
		v, err := r.safeRun(ctx, toolID, job)
		if err != nil {
			s.name, s.msg = "Error", plainMessage(err)
		} else if b, merr := marshalAnswer(v); merr != nil {
			s.name, s.msg = "Error", "tool result is not JSON-serializable"
		} else if len(b) > maxBridgeResult {
			s.name, s.msg = "RangeError", "tool result of "+strconv.Itoa(len(b))+" bytes is too large to hand to the cell (at most "+strconv.Itoa(maxBridgeResult)+" bytes); ask the tool for less"
		} else {
			s.ok, s.json = true, string(b)
		}
		settled.put(s)
	})
	return p, nil
}

// safeRun runs a job; a panicking tool or hook becomes an error, never a crash.
// The model sees only that the tool failed; the panic value and stack go to
// Options.Logger.
func (r *run) safeRun(ctx context.Context, toolID string, job func(context.Context) (any, error)) (v any, err error) {
	defer func() {
		if p := recover(); p != nil {
			r.rt.opts.Logger.Error("code mode: a hook or tool panicked", "tool", toolID, "run", r.id, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
			v, err = nil, errors.New("the tool failed unexpectedly")
		}
	}()
	v, err = job(ctx)
	var pe *catalog.PanicError
	if errors.As(err, &pe) {
		r.rt.opts.Logger.Error("code mode: a tool panicked", "tool", pe.ToolID, "run", r.id, "panic", fmt.Sprint(pe.Value), "stack", string(pe.Stack))
	}
	return v, err
}

// job resolves an async request to the work it stands for. Lookups and
// refusals (unknown ids, policy, restartSafe) fail here, before a promise
// exists, so they never become pending calls.
func (r *run) job(req request) (func(context.Context) (any, error), string, error) {
	switch req.Op {
	case "call":
		id := req.ID
		shape := details
		if req.Mode != "value" {
			shape = func(res catalog.Result) any { return callAnswer{tool: id, result: res} }
		}
		return r.catalogJob(id, catalog.ViaTools, req.Input, shape)
	case "mcp.call":
		tool := ""
		if req.Tool != nil {
			tool = *req.Tool
		}
		id, ok := r.mcpIDs[req.Server][tool]
		if !ok {
			return nil, "", &quickjs.Throw{Name: "Error", Message: "unknown MCP tool " + req.Server + "." + tool}
		}
		return r.catalogJob(id, catalog.ViaMCP, req.Input, func(res catalog.Result) any {
			if res.Details != nil {
				return res.Details
			}
			return map[string]any{"content": res.Content, "isError": res.IsError}
		})
	case "ns.call":
		if r.restartSafe { // spec: restartSafe refuses plugin namespaces
			return nil, "", &quickjs.Throw{Name: "Error", Message: "plugin namespaces are not available in a restartSafe run"}
		}
		toolName, input, err := r.ns.ResolveCall(req.NS, req.Path, req.Args)
		if err != nil {
			return nil, "", &quickjs.Throw{Name: "Error", Message: plainMessage(err)}
		}
		plugin, _ := r.ns.PluginID(req.NS)
		id, ok := r.openclawIDs[[2]string{plugin, toolName}]
		if !ok {
			return nil, "", &quickjs.Throw{Name: "Error", Message: "namespace tool " + toolName + " is not in this run's catalog"}
		}
		return r.catalogJob(id, catalog.ViaNamespace, input, details)
	case "mcp.resource", "mcp.prompt":
		srv := r.server(req.Server)
		if srv == nil {
			return nil, "", &quickjs.Throw{Name: "Error", Message: "unknown MCP server " + req.Server}
		}
		if req.Op == "mcp.resource" {
			uri := req.URI
			return func(ctx context.Context) (any, error) { return srv.ReadResourceFor(ctx, r.scope, uri) }, "", nil
		}
		var args map[string]string
		if len(req.Arguments) > 0 && string(req.Arguments) != "null" {
			if err := json.Unmarshal(req.Arguments, &args); err != nil {
				return nil, "", &quickjs.Throw{Name: "TypeError", Message: "MCP prompt arguments must be an object of strings"}
			}
		}
		name := req.Name
		return func(ctx context.Context) (any, error) { return srv.GetPromptFor(ctx, r.scope, name, args) }, "", nil
	}
	return nil, "", errInternalCall
}

// catalogJob is a nested call through the catalog's one execution path (hooks,
// approvals, output contracts, trajectory); shape picks what the guest gets.
func (r *run) catalogJob(id string, via catalog.Via, input json.RawMessage, shape func(catalog.Result) any) (func(context.Context) (any, error), string, error) {
	cc := catalog.CallContext{ParentCallID: r.parentCallID, RunID: r.id, RestartSafe: r.restartSafe, Via: via}
	if err := r.cat.Precheck(id, cc); err != nil {
		// Call records the refusal in the trajectory and counts it.
		_, err = r.cat.Call(r.ctx, id, input, cc)
		return nil, "", &quickjs.Throw{Name: "Error", Message: plainMessage(err)}
	}
	o := r.outside
	return func(ctx context.Context) (any, error) {
		cc := cc
		pending, _ := ctx.Value(pendingKey{}).(string)
		cc.Update = func(p catalog.Result) {
			r.updates.send(ToolUpdate{RunID: r.id, CallID: pending, ToolID: id, Partial: p})
		}
		res, err := r.cat.Call(context.WithValue(ctx, outsideKey{}, o), id, input, cc)
		if err != nil {
			return nil, err
		}
		return shape(res), nil
	}, id, nil
}

// details is what tools.callValue and namespace calls hand the guest.
func details(res catalog.Result) any {
	if res.Details == nil {
		return nil
	}
	return res.Details
}

// server returns the MCP server name if it is visible in this run: policy may
// hide all of a server's tools, and then its resources and prompts too.
func (r *run) server(name string) *mcp.Server {
	if _, visible := r.mcpIDs[name]; !visible {
		return nil
	}
	return serverNamed(r.servers, name)
}

// plainMessage bounds an error message for the guest.
func plainMessage(err error) string {
	return text.Cut(err.Error(), 2000)
}

func sortPending(p []PendingToolCall) {
	slices.SortFunc(p, func(a, b PendingToolCall) int {
		na, _ := strconv.Atoi(a.ID[len("call_"):])
		nb, _ := strconv.Atoi(b.ID[len("call_"):])
		return na - nb
	})
}
