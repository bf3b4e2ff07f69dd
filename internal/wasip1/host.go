// Package wasip1 is the host-neutral heart of the GOOS=wasip1 reactor: the
// JSON requests and answers of its exports (create_runtime, exec, wait,
// settle, surface, catalog, abort, close_runtime), the tools a WebAssembly host
// declares and executes itself, and the malloc/free buffer table. The reactor's
// main package only moves bytes between linear memory and Host.Handle, so all
// of this is tested and fuzzed natively. ABI.md documents the wire format.
package wasip1

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"sync"

	"github.com/codemode-go/codemode/core"
	"github.com/codemode-go/codemode/internal/catalog"
	"github.com/codemode-go/codemode/internal/config"
	"github.com/codemode-go/codemode/internal/demo"
	"github.com/codemode-go/codemode/internal/hostopts"
	"github.com/codemode-go/codemode/internal/jsonin"
	"github.com/codemode-go/codemode/internal/ops"
	gojson "github.com/goccy/go-json"
)

// Ops are the request kinds Handle answers, one export each, in the
// reactor's order: create_runtime and the operations on a runtime
// (runtimeOps, over the operations table).
var Ops = []string{"create_runtime", "exec", "wait", "settle", "surface", "catalog", "abort", "close_runtime"}

// MaxRuntimes bounds the runtimes one instance holds (each costs a QuickJS
// template and its compiled module).
const MaxRuntimes = 16

// Host holds an instance's runtimes. Handle is safe for concurrent use, though
// a wasm instance calls it from one thread.
type Host struct {
	mu       sync.Mutex
	runtimes map[uint32]*hostRuntime
	next     uint32
	// Interpreter asks for wazero's interpreter natively (tests); under
	// GOARCH=wasm the core always interprets.
	Interpreter bool
	// Deterministic fixes the guest clock and randomness of every runtime
	// (core.Options), so tests compare cells across engines. A build and test
	// knob, never part of the wire: the reactor sets it only when built with
	// the codemode_deterministic tag (the differential test's module).
	Deterministic bool
	// ExampleTools is the example toolset create_runtime's exampleTools asks
	// for: set only by a demo build's main package (the codemode_demo tag),
	// nil in the shipped modules, which then refuse the request.
	ExampleTools demo.Tools
}

type hostRuntime struct {
	rt      *core.Runtime
	calls   *hostCalls
	scope   core.Scope
	mu      sync.Mutex
	seq     int
	parents map[string]string // exec/wait call id -> run id
}

// NewHost returns a host without runtimes.
func NewHost() *Host { return &Host{runtimes: map[uint32]*hostRuntime{}} }

// Error is the error answer's body: a code from the spec's CodeModeErrorCode
// set (invalid_input for every bad request) and a message for people.
type Error struct {
	// Code is invalid_input for a bad request, else the core's code.
	Code core.ErrorCode `json:"code"`
	// Message says what was wrong, naming the field.
	Message string `json:"message"`
}

// Error returns Message.
func (e *Error) Error() string { return e.Message }

func badInput(format string, a ...any) *Error {
	return &Error{Code: core.CodeInvalidInput, Message: fmt.Sprintf(format, a...)}
}

// Reply encodes an answer: {"ok": value} or {"error": {"code", "message"}}.
func Reply(v any, err error) []byte {
	if err != nil {
		var e *Error
		if !errors.As(err, &e) {
			e = &Error{Code: core.CodeInternalError, Message: err.Error()}
		}
		b, _ := gojson.Marshal(map[string]*Error{"error": e})
		return b
	}
	// Every exec and wait answer: goccy/go-json, the hot paths' one JSON
	// library (tests/bench/RESULTS.md, "JSON library").
	b, merr := gojson.Marshal(map[string]any{"ok": v})
	if merr != nil {
		return Reply(nil, &Error{Code: core.CodeInternalError, Message: "the answer could not be encoded as JSON"})
	}
	return b
}

// Handle answers one request of kind op. It never panics: a failure anywhere
// becomes an internal_error answer.
func (h *Host) Handle(ctx context.Context, op string, req []byte) (out []byte) {
	defer func() {
		if p := recover(); p != nil {
			out = Reply(nil, &Error{Code: core.CodeInternalError, Message: "code mode internal error while handling " + op})
		}
	}()
	v, err := h.handle(ctx, op, req)
	return Reply(v, err)
}

func (h *Host) handle(ctx context.Context, op string, req []byte) (any, error) {
	if op == "create_runtime" {
		return h.create(ctx, req)
	}
	var head struct {
		Runtime uint32 `json:"runtime"`
	}
	// Each op decodes the whole request strictly below; here only the handle.
	if err := json.Unmarshal(req, &head); err != nil {
		if err := jsonin.Decode(req, &map[string]json.RawMessage{}, "request"); err != nil {
			return nil, badInput("%s: %v", op, err)
		}
		return nil, badInput(`%s: "runtime" must be the number create_runtime returned`, op)
	}
	h.mu.Lock()
	r := h.runtimes[head.Runtime]
	h.mu.Unlock()
	if r == nil {
		return nil, badInput("%s: unknown runtime %d (create_runtime returns the number; close_runtime ends it)", op, head.Runtime)
	}
	do, ok := runtimeOps[op]
	if !ok {
		return nil, badInput("unknown operation %q", op)
	}
	return do(ctx, h, r, head.Runtime, req)
}

// runtimeOps answers the exports that act on a runtime. Each decodes its
// envelope (the runtime handle and the operation's own fields) strictly,
// then calls the operations table (internal/ops) with the runtime's scope:
// the same decoding of the fields, the same refusals and answers as every
// other host.
var runtimeOps = map[string]func(ctx context.Context, h *Host, r *hostRuntime, id uint32, req []byte) (any, error){
	"exec": func(ctx context.Context, h *Host, r *hostRuntime, id uint32, req []byte) (any, error) {
		var in ExecRequest
		if err := jsonin.Decode(req, &in, "request"); err != nil {
			return nil, badInput("exec: %v", err)
		}
		return r.call("exec", "", func(c ops.Call) core.Result {
			return *ops.Exec(ctx, r.rt, c, ops.ExecRequest{ExecArgs: in.ExecArgs, Scope: r.wireScope()}).Result
		}), nil
	},
	"wait": func(ctx context.Context, h *Host, r *hostRuntime, id uint32, req []byte) (any, error) {
		var in RunRequest
		if err := jsonin.Decode(req, &in, "request"); err != nil {
			return nil, badInput("wait: %v", err)
		}
		return r.call("wait", in.RunID, func(c ops.Call) core.Result {
			return *ops.Wait(ctx, r.rt, c, ops.WaitRequest{WaitArgs: ops.WaitArgs{RunID: &in.RunID}, Scope: r.wireScope()}).Result
		}), nil
	},
	"settle": func(ctx context.Context, h *Host, r *hostRuntime, id uint32, req []byte) (any, error) {
		return r.settle(req)
	},
	"surface": func(ctx context.Context, h *Host, r *hostRuntime, id uint32, req []byte) (any, error) {
		var in SurfaceRequest
		if err := jsonin.Decode(req, &in, "request"); err != nil {
			return nil, badInput("surface: %v", err)
		}
		v, err := tableAnswer("surface", ops.SurfaceOf(ctx, r.rt, ops.Call{}, ops.SurfaceRequest{Scope: r.wireScope(), Format: in.Format}))
		if err != nil {
			return nil, err
		}
		return v.(ops.SurfaceResponse).Tools, nil
	},
	"catalog": func(ctx context.Context, h *Host, r *hostRuntime, id uint32, req []byte) (any, error) {
		var in RuntimeRequest
		if err := jsonin.Decode(req, &in, "request"); err != nil {
			return nil, badInput("catalog: %v", err)
		}
		return tableAnswer("catalog", ops.Catalog(ctx, r.rt, r.wireScope()))
	},
	"abort": func(ctx context.Context, h *Host, r *hostRuntime, id uint32, req []byte) (any, error) {
		var in RunRequest
		if err := jsonin.Decode(req, &in, "request"); err != nil {
			return nil, badInput("abort: %v", err)
		}
		v, err := tableAnswer("abort", ops.Abort(ctx, r.rt, ops.Call{}, ops.RunRequest{RunID: &in.RunID, Scope: r.wireScope()}))
		if err == nil && v.(ops.AbortResponse).Aborted {
			r.forget(in.RunID)
		}
		return v, err
	},
	"close_runtime": func(ctx context.Context, h *Host, r *hostRuntime, id uint32, req []byte) (any, error) {
		var in RuntimeRequest
		if err := jsonin.Decode(req, &in, "request"); err != nil {
			return nil, badInput("close_runtime: %v", err)
		}
		h.mu.Lock()
		delete(h.runtimes, id)
		h.mu.Unlock()
		return map[string]bool{"closed": true}, r.rt.Close(ctx)
	},
}

// SurfaceRequest is surface's request.
type SurfaceRequest struct {
	// Runtime is the handle create_runtime answered.
	Runtime uint32 `json:"runtime"`
	// Format is "plain" (the default), "anthropic", "openai" or
	// "openai-responses" (ops.SurfaceRequest.Format).
	Format *string `json:"format"`
}

// RuntimeRequest is the request of catalog and close_runtime: the handle
// alone.
type RuntimeRequest struct {
	// Runtime is the handle create_runtime answered.
	Runtime uint32 `json:"runtime"`
}

// wireScope is the runtime's scope as the table takes it.
func (r *hostRuntime) wireScope() *ops.Scope {
	return &ops.Scope{AgentID: r.scope.AgentID, SessionID: r.scope.SessionID}
}

// RunRequest is wait's and abort's request.
type RunRequest struct {
	// Runtime is the handle create_runtime answered.
	Runtime uint32 `json:"runtime"`
	// RunID is the run.
	RunID string `json:"runId"`
}

// tableAnswer is the table's answer as this ABI's: its value, or its refusal as
// an invalid_input error naming op (internal_error for a server failure).
func tableAnswer(op string, a ops.Answer) (any, error) {
	switch r := a.Refusal; {
	case r == nil:
		return a.Value, nil
	case r.Status >= 500:
		return nil, &Error{Code: core.CodeInternalError, Message: op + ": " + r.Message}
	default:
		return nil, badInput("%s: %s", op, r.Message)
	}
}

// ExecRequest is exec's request: the runtime handle and exec's arguments
// (ops.ExecArgs: the spec's exec input plus restartSafe, decoded as every
// host decodes them).
type ExecRequest struct {
	// Runtime is the handle create_runtime answered.
	Runtime uint32 `json:"runtime"`
	ops.ExecArgs
}

// CreateRequest is create_runtime's request.
type CreateRequest struct {
	// Config is tools.codeMode (JSON or JSON5 text, or the JSON value itself);
	// Code Mode is enabled whatever it says, since the host asked for a runtime.
	Config json.RawMessage `json:"config,omitempty"`
	// Tools are the host's own tools.
	Tools []ToolDecl `json:"tools,omitempty"`
	// ExampleTools adds the example toolset (shipping_list, echo, ...); only
	// the demo builds of the modules have it, the others refuse true.
	ExampleTools bool `json:"exampleTools,omitempty"`
}

func (h *Host) create(ctx context.Context, req []byte) (any, error) {
	var in CreateRequest
	if err := jsonin.Decode(req, &in, "request"); err != nil {
		return nil, badInput("create_runtime: %v", err)
	}
	cfg := config.Default()
	if len(in.Config) > 0 {
		text := in.Config
		var s string
		if json.Unmarshal(in.Config, &s) == nil {
			text = []byte(s) // JSON5 given as a string
		}
		c, err := config.Parse(text)
		if err != nil {
			return nil, badInput("create_runtime: config: %v", err)
		}
		cfg = c
	}
	cfg.Enabled = true
	calls := &hostCalls{pending: map[string]*hostCall{}}
	var tools []catalog.Tool
	seen := map[string]bool{}
	for i, d := range in.Tools {
		switch {
		case d.Name == "":
			return nil, badInput("create_runtime: tools[%d] needs a name", i)
		case seen[d.Name]:
			return nil, badInput("create_runtime: tools[%d]: the name %q is declared twice", i, d.Name)
		case len(d.Parameters) > 0 && !isObject(d.Parameters):
			return nil, badInput("create_runtime: tools[%d] (%s): parameters must be a JSON Schema object", i, d.Name)
		case len(d.OutputSchema) > 0 && !isObject(d.OutputSchema):
			return nil, badInput("create_runtime: tools[%d] (%s): outputSchema must be a JSON Schema object", i, d.Name)
		}
		seen[d.Name] = true
		tools = append(tools, hostTool{decl: d, calls: calls})
	}
	ex, ns, err := h.ExampleTools.Select(&in.ExampleTools)
	if err != nil {
		return nil, badInput("create_runtime: %v", err)
	}
	tools = append(tools, ex...)
	h.mu.Lock()
	full := len(h.runtimes) >= MaxRuntimes
	h.mu.Unlock()
	if full {
		return nil, badInput("create_runtime: this instance already holds %d runtimes (close_runtime one first)", MaxRuntimes)
	}
	co := core.Options{Config: cfg, Engine: core.EngineConfig{Interpreter: h.Interpreter},
		Tools: func(context.Context, core.Scope) ([]catalog.Tool, error) { return tools, nil }, Namespaces: ns}
	hostopts.Of(&co).Deterministic = h.Deterministic
	rt, err := core.New(ctx, co)
	if err != nil {
		var ue *core.UnavailableError
		if errors.As(err, &ue) {
			return nil, &Error{Code: core.CodeRuntimeUnavailable, Message: "code mode runtime unavailable: QuickJS-WASI could not start"}
		}
		return nil, badInput("create_runtime: %v", err)
	}
	r := &hostRuntime{rt: rt, calls: calls, parents: map[string]string{}}
	// Building the catalog once now refuses bad tool declarations here, not in
	// the first exec.
	if _, err := rt.Catalog(ctx, r.scope); err != nil {
		rt.Close(ctx)
		return nil, badInput("create_runtime: %v", err)
	}
	h.mu.Lock()
	h.next++
	id := h.next
	r.scope = core.Scope{AgentID: "wasip1", SessionID: "runtime-" + strconv.FormatUint(uint64(id), 10)}
	h.runtimes[id] = r
	h.mu.Unlock()
	return map[string]uint32{"runtime": id}, nil
}

func isObject(b json.RawMessage) bool {
	var m map[string]json.RawMessage
	return json.Unmarshal(b, &m) == nil && m != nil
}

// RunAnswer is exec's and wait's answer: the CodeModeResult and, when it is
// waiting, the host calls of that run the host still has to settle.
type RunAnswer struct {
	// Result is the CodeModeResult.
	Result core.Result `json:"result"`
	// HostCalls are the run's host-tool calls still to settle (empty unless
	// the result is waiting).
	HostCalls []HostCall `json:"hostCalls"`
}

// call runs one exec or wait (of runID; "" for exec) and lists the run's open
// host calls when it is waiting; a run that ended leaves no bookkeeping.
func (r *hostRuntime) call(kind, runID string, do func(ops.Call) core.Result) RunAnswer {
	r.mu.Lock()
	r.seq++
	callID := kind + "_" + strconv.Itoa(r.seq)
	r.mu.Unlock()
	res := do(ops.Call{CallID: callID})
	ans := RunAnswer{Result: res, HostCalls: []HostCall{}}
	if res.Status != core.StatusWaiting && runID != "" {
		r.forget(runID)
	}
	if res.Status == core.StatusWaiting {
		r.mu.Lock()
		r.parents[callID] = res.RunID
		parents := make(map[string]string, len(r.parents))
		for k, v := range r.parents {
			parents[k] = v
		}
		r.mu.Unlock()
		ans.HostCalls = r.calls.forRun(res.RunID, parents)
	}
	return ans
}

// forget drops the bookkeeping of a run that ended or was aborted.
func (r *hostRuntime) forget(runID string) {
	r.mu.Lock()
	ended := map[string]bool{}
	for k, v := range r.parents {
		if v == runID {
			delete(r.parents, k)
			ended[k] = true
		}
	}
	r.mu.Unlock()
	// Its open host calls can no longer be settled, even before their tool
	// goroutines (which run only during some export) see the run's end.
	r.calls.drop(ended)
}

// SettleRequest answers one host call: either result or error.
type SettleRequest struct {
	// Runtime is the handle create_runtime answered.
	Runtime uint32 `json:"runtime"`
	// ID is the HostCall's id.
	ID string `json:"id"`
	// Result is the tool's result on success.
	Result *catalog.Result `json:"result,omitempty"`
	// Error is the failure's message, which the guest sees as a caught Error.
	Error *string `json:"error,omitempty"`
}

func (r *hostRuntime) settle(req []byte) (any, error) {
	var in SettleRequest
	if err := jsonin.Decode(req, &in, "request"); err != nil {
		return nil, badInput("settle: %v", err)
	}
	var a answer
	switch {
	case (in.Result == nil) == (in.Error == nil):
		return nil, badInput(`settle: give exactly one of "result" or "error"`)
	case in.Error != nil:
		a.err = errors.New(*in.Error)
	default:
		a.res = *in.Result
	}
	if err := r.calls.settle(in.ID, a); err != nil {
		return nil, badInput("settle: %v", err)
	}
	return map[string]bool{"settled": true}, nil
}

// Call is one export's whole entry: it reads the request from the buffer at
// p (a live malloc buffer, n at most its size), frees that buffer, answers op,
// and returns the address and length of the answer, a new buffer the host
// frees. A bad address or length answers an error and touches nothing.
func (h *Host) Call(ctx context.Context, bufs *Buffers, op string, p uintptr, n uint32) (uintptr, uint32) {
	req, ok := bufs.Bytes(p, n)
	var out []byte
	if !ok {
		out = Reply(nil, badInput("%s: the request must be a buffer from malloc (address %d, length %d is not one, or is longer than it)", op, p, n))
	} else {
		out = h.Handle(ctx, op, req)
		bufs.Free(p)
	}
	return bufs.Keep(out)
}
