//go:build js && wasm

package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"syscall/js"

	"github.com/codemode-go/codemode/core"
	"github.com/codemode-go/codemode/core/mcp"
	"github.com/codemode-go/codemode/internal/catalog"
	"github.com/codemode-go/codemode/internal/config"
	"github.com/codemode-go/codemode/internal/engine"
	"github.com/codemode-go/codemode/internal/engine/jsengine"
	"github.com/codemode-go/codemode/internal/hostopts"
	"github.com/codemode-go/codemode/internal/jsonin"
	"github.com/codemode-go/codemode/internal/jspromise"
	"github.com/codemode-go/codemode/internal/namespace"
	"github.com/codemode-go/codemode/internal/ops"
	"github.com/codemode-go/codemode/internal/relay"
	"github.com/codemode-go/codemode/internal/remote"
)

// demoNamespaces registers the demo namespaces (Issues) for serverTools: nil
// in the shipped codemode.wasm, set by demo.go in codemode.demo.wasm.
var demoNamespaces func(*namespace.Registry) error

// options is createCodeMode's options as the shim forwards them (already
// checked in JavaScript; checked again here, since Go trusts no caller).
type options struct {
	Config      json.RawMessage `json:"config"`
	App         string          `json:"app"`
	ClientTools []clientSpec    `json:"clientTools"`
	ServerTools *struct {
		URL     string            `json:"url"`
		Headers map[string]string `json:"headers"`
	} `json:"serverTools"`
	Engine string `json:"engine"`
	// InterruptsPerSecond is the interrupt budget's rate (core.Options); the
	// Worker's session objects pass the rate measured for V8 in workerd.
	InterruptsPerSecond int64 `json:"interruptsPerSecond"`
	// PollsPerSecond is the loop guard's poll rate (core.Options): set where
	// the clock stands still during CPU work (the Cloudflare Worker).
	PollsPerSecond int64 `json:"pollsPerSecond"`
}

type host struct {
	done  chan struct{}
	mu    sync.Mutex
	rt    *core.Runtime
	hooks js.Value
	mcp   []*mcp.Server
	once  sync.Once
	// trans records every exec/wait with its nested calls (tool id, input
	// size, outcome, duration) for hosts that show a trajectory (the web IDE).
	trans *core.Transcript
	// watcher awaits the hooks' promises (a client tool's answer) through
	// hooks.watch; nil (jspromise.AwaitContext) without one.
	watcher *jspromise.Watcher
	// clientParams are the client tools' parameters; warmParams (tools.go),
	// chosen from them on the first warm-up, the warm-up tool's.
	clientParams []json.RawMessage
	warmOnce     sync.Once
	warmParams   json.RawMessage
}

func (h *host) api() js.Value {
	fns := map[string]func(args []js.Value) (string, error){
		"init": h.init,
		// The operations table's (internal/ops), shaped as codemode.d.ts
		// answers them; restartTTL is for hosts whose clock stands still
		// during CPU work.
		"exec":       h.op("exec", ops.Decoded(ops.Exec), nil),
		"wait":       h.op("wait", ops.Decoded(ops.Wait), nil),
		"surface":    h.op("surface", ops.Decoded(ops.SurfaceOf), func(v any) any { return v.(ops.SurfaceResponse).Tools }),
		"catalog":    h.op("catalog", ops.Decoded(ops.CatalogFor), catalogEntries),
		"abort":      h.op("abort", ops.Decoded(ops.Abort), func(v any) any { return v.(ops.AbortResponse).Aborted }),
		"restartTTL": h.op("restartTTL", ops.Decoded(ops.RestartTTL), nil),
		"close":      h.close,
		// IDE helpers: the core's own config parser and its transcript.
		"checkConfig": h.checkConfig,
		"transcript":  h.transcript,
		// stats: this Go program's goroutines and heap, for leak checks
		// on hosts that show no process (a Worker's Durable Object).
		"stats": h.stats,
		// warmUp: one quiet trivial cell while the worker is idle (warmUp below).
		"warmUp": h.warmUp,
		// warmUpCalls: idle, on a page with client tools, the tool-call path
		// (warmUpCalls in tools.go).
		"warmUpCalls": h.warmUpCalls,
	}
	obj := js.Global().Get("Object").New()
	for name, fn := range fns {
		fn := fn
		obj.Set(name, js.FuncOf(func(_ js.Value, args []js.Value) any {
			// syscall/js values must be read on this turn, before the goroutine.
			cp := append([]js.Value(nil), args...)
			return async(func() (string, error) { return fn(cp) })
		}))
	}
	return obj
}

func (h *host) runtime() (*core.Runtime, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.rt == nil {
		return nil, errors.New("code mode runtime is closed or not initialized.")
	}
	return h.rt, nil
}

func strArg(args []js.Value, i int) string {
	if i < len(args) && args[i].Type() == js.TypeString {
		return args[i].String()
	}
	return ""
}

func (h *host) init(args []js.Value) (string, error) {
	var opts options
	if err := jsonin.Decode([]byte(strArg(args, 0)), &opts, "options"); err != nil {
		return "", fmt.Errorf("createCodeMode: %v", err)
	}
	if len(args) > 1 {
		h.hooks = args[1]
		h.watcher = jspromise.NewWatcher(h.hooks.Get("watch"))
	}
	cfgText := opts.Config
	if len(cfgText) == 0 || string(cfgText) == "null" {
		cfgText = json.RawMessage(`{}`)
	}
	cfg, err := config.Parse(cfgText)
	if err != nil {
		return "", fmt.Errorf("createCodeMode: config: %v", err)
	}
	cfg.Enabled = true
	if err := cfg.Validate(); err != nil {
		return "", fmt.Errorf("createCodeMode: config: %v", err)
	}
	ctx := context.Background()
	tools := make([]catalog.Tool, 0, len(opts.ClientTools))
	for _, s := range opts.ClientTools {
		t, err := h.clientTool(opts.App, s)
		if err != nil {
			return "", err
		}
		tools = append(tools, t)
		h.clientParams = append(h.clientParams, s.Parameters)
	}
	var servers []*mcp.Server
	var ns *namespace.Registry
	if opts.ServerTools != nil {
		// Namespaces are Go registrations (createScope and input mappers), so
		// they cannot travel over /v1/catalog; the demo core for a page
		// (codemode.demo.wasm, demo.go) registers the spec's example namespace
		// (Issues, plugin "github") itself. It becomes visible only when the
		// server relays that plugin's own tools, exactly as the ownership
		// rules require. The shipped core has none.
		if demoNamespaces != nil {
			ns = namespace.NewRegistry()
			if err := demoNamespaces(ns); err != nil {
				return "", err
			}
		}
		rem, err := remote.Load(ctx, remote.Options{URL: opts.ServerTools.URL, Headers: opts.ServerTools.Headers, Do: h.fetch})
		if err != nil {
			return "", err
		}
		tools = append(rem.Tools, tools...)
		servers = rem.MCPServers
	}
	co := core.Options{
		Config:     cfg,
		Tools:      func(context.Context, catalog.Scope) ([]catalog.Tool, error) { return tools, nil },
		MCPServers: servers,
		Namespaces: ns,
		Transcript: &core.Transcript{},

		Engine: core.EngineConfig{InterruptsPerSecond: opts.InterruptsPerSecond, PollsPerSecond: opts.PollsPerSecond},
	}
	if h.hooks.Type() == js.TypeObject && h.hooks.Get("transformTS").Type() == js.TypeFunction {
		hostopts.Of(&co).TransformTS = h.transformTS
	}
	switch opts.Engine {
	case "", "host":
		pages := uint32(cfg.MemoryLimitBytes/engine.PageSize)*5/4 + 64
		mod := js.Undefined()
		if len(args) > 2 {
			mod = args[2]
		}
		e, err := jsengine.New(jsengine.Options{Module: mod, MaxMemoryPages: pages})
		if err != nil {
			return "", err
		}
		hostopts.Of(&co).Engine = e
	case "wazero":
		// Only the build without the codemode_hostjs tag has wazero
		// (codemode.wazero.wasm, which the shim loads for this engine).
		co.Engine.Interpreter = true
	default:
		return "", fmt.Errorf(`createCodeMode: engine must be "host" or "wazero"`)
	}
	rt, err := core.New(ctx, co)
	if err != nil {
		return "", err
	}
	h.mu.Lock()
	h.rt, h.mcp, h.trans = rt, servers, co.Transcript
	h.mu.Unlock()
	// failures: what the page's shim answers for a call whose worker it
	// terminates, when no Go is left to ask (ops.ShimFailures).
	return string(ops.CoreInfoFor(cfg).JSON()), nil
}

// op answers one operation of the table for the shim: args are the message
// JSON and, for exec and wait, the call id that names it in the transcript.
// A refusal rejects the call with the table's message; view, when set,
// shapes the value as the JavaScript API answers it (codemode.d.ts). The
// entries are the table's operations by function (ops.Decoded), not
// ops.Table, so the page's binary links only these.
func (h *host) op(name string, do ops.Op, view func(any) any) func(args []js.Value) (string, error) {
	return func(args []js.Value) (string, error) {
		rt, err := h.runtime()
		if err != nil {
			return "", err
		}
		a := do(context.Background(), rt, ops.Call{CallID: strArg(args, 1)}, []byte(strArg(args, 0)))
		if a.Refusal != nil {
			return "", errors.New(name + ": " + a.Refusal.Message)
		}
		if view != nil {
			return marshal(view(a.Value))
		}
		return marshal(a.Value)
	}
}

// catalogEntries is catalog's answer in the page's shape: the entries as
// ALL_TOOLS shows them (the schemas stay with tools.describe).
func catalogEntries(v any) any {
	c := v.(relay.Catalog)
	out := make([]catalog.Entry, len(c.Entries))
	for i, e := range c.Entries {
		out[i] = e.Entry
	}
	return out
}

func (h *host) close(args []js.Value) (string, error) {
	h.mu.Lock()
	rt, servers := h.rt, h.mcp
	h.rt, h.mcp = nil, nil
	h.mu.Unlock()
	if rt != nil {
		rt.Close(context.Background())
	}
	for _, s := range servers {
		s.Close()
	}
	return "true", nil
}

// checkConfig parses tools.codeMode from JSON or JSON5 text with the core's own
// parser and bounds, answering the effective config (enabled implied) or the
// parser's error (with line and column), so a page can check an edit before it
// starts a core with it.
func (h *host) checkConfig(args []js.Value) (string, error) {
	text := strArg(args, 0)
	cfg, err := config.Parse([]byte(text))
	if err != nil {
		return "", err
	}
	cfg.Enabled = true
	if err := cfg.Validate(); err != nil {
		return "", err
	}
	return marshal(cfg)
}

// transcript answers {entries: [...]}: every exec/wait of this core in call
// order with the nested tool calls filed under the call that made them.
func (h *host) transcript(args []js.Value) (string, error) {
	h.mu.Lock()
	t := h.trans
	h.mu.Unlock()
	if t == nil {
		return `{"entries":[]}`, nil
	}
	return marshal(t)
}

// stats reports the core's own Go runtime: its goroutines and live heap bytes.
func (h *host) stats(args []js.Value) (string, error) {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return marshal(map[string]uint64{"goroutines": uint64(runtime.NumGoroutine()), "heapBytes": ms.HeapAlloc})
}

// warmUpMessage is an exec message as the shim sends one for a page's default scope.
const warmUpMessage = `{"code":"return 1","scope":{}}`

// warmUp runs one trivial cell the way exec does (the message decoded by the
// operations table's decoder, the core's exec path, the result encoded) but
// unseen by the transcript, the hooks and the run store (hostopts.WarmUp). The
// worker calls it once, idle, before the page's first cell: V8 compiles a Go
// function on its first call, and a first exec touches hundreds of them.
func (h *host) warmUp(args []js.Value) (string, error) {
	rt, err := h.runtime()
	if err != nil {
		return "", err
	}
	var req ops.ExecRequest
	if r := ops.Decode([]byte(warmUpMessage), &req, "request body"); r != nil {
		return "", errors.New("warmUp: " + r.Message)
	}
	res, err := hostopts.WarmUp(context.Background(), rt, req.Scope.Core())
	if err != nil {
		return "", err
	}
	if _, err := marshal(res); err != nil {
		return "", err
	}
	return "true", nil
}

func marshal(v any) (string, error) {
	b, err := ops.MarshalValue(v)
	return string(b), err
}
