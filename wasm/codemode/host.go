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
	"github.com/codemode-go/codemode/internal/issuesdemo"
	"github.com/codemode-go/codemode/internal/jsonin"
	"github.com/codemode-go/codemode/internal/namespace"
	"github.com/codemode-go/codemode/internal/remote"
)

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
}

func (h *host) api() js.Value {
	fns := map[string]func(args []js.Value) (string, error){
		"init":    h.init,
		"exec":    h.exec,
		"wait":    h.wait,
		"surface": h.surface,
		"catalog": h.catalog,
		"abort":   h.abort,
		// restartTTL: for hosts whose clock stands still during CPU work.
		"restartTTL": h.restartTTL,
		"close":      h.close,
		// IDE helpers: the core's own config parser and its transcript.
		"checkConfig": h.checkConfig,
		"transcript":  h.transcript,
		// stats: this Go program's goroutines and heap, for leak checks
		// on hosts that show no process (a Worker's Durable Object).
		"stats": h.stats,
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
	}
	var servers []*mcp.Server
	var ns *namespace.Registry
	if opts.ServerTools != nil {
		// Namespaces are Go registrations (createScope and input mappers), so
		// they cannot travel over /v1/catalog; the core for a page registers the
		// spec's example namespace (Issues, plugin "github") itself. It becomes
		// visible only when the server relays that plugin's own tools, exactly
		// as the ownership rules require.
		ns = namespace.NewRegistry()
		if err := issuesdemo.RegisterIn(ns); err != nil {
			return "", err
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
	b, _ := json.Marshal(map[string]any{"timeoutMs": cfg.TimeoutMs, "languages": cfg.Languages})
	return string(b), nil
}

func (h *host) exec(args []js.Value) (string, error) {
	rt, err := h.runtime()
	if err != nil {
		return "", err
	}
	var in core.ExecInput
	if err := jsonin.Decode([]byte(strArg(args, 0)), &in, "input"); err != nil {
		return "", fmt.Errorf("exec: %v", err)
	}
	scope, err := scopeArg(args, 2)
	if err != nil {
		return "", fmt.Errorf("exec: %v", err)
	}
	return marshal(rt.Exec(context.Background(), core.CallInfo{Scope: scope, CallID: strArg(args, 1)}, in))
}

func (h *host) wait(args []js.Value) (string, error) {
	rt, err := h.runtime()
	if err != nil {
		return "", err
	}
	var in core.WaitInput
	if err := jsonin.Decode([]byte(strArg(args, 0)), &in, "input"); err != nil {
		return "", fmt.Errorf("wait: %v", err)
	}
	scope, err := scopeArg(args, 2)
	if err != nil {
		return "", fmt.Errorf("wait: %v", err)
	}
	return marshal(rt.Wait(context.Background(), core.CallInfo{Scope: scope, CallID: strArg(args, 1)}, in))
}

func (h *host) surface(args []js.Value) (string, error) {
	rt, err := h.runtime()
	if err != nil {
		return "", err
	}
	scope, err := scopeArg(args, 1)
	if err != nil {
		return "", fmt.Errorf("surface: %v", err)
	}
	s, err := rt.Surface(context.Background(), scope, false)
	if err != nil {
		return "", err
	}
	tools, err := s.Format(strArg(args, 0))
	if err != nil {
		return "", fmt.Errorf("surface: %v", err)
	}
	return marshal(tools)
}

func (h *host) catalog(args []js.Value) (string, error) {
	rt, err := h.runtime()
	if err != nil {
		return "", err
	}
	c, err := rt.Catalog(context.Background(), core.Scope{})
	if err != nil {
		return "", err
	}
	out := make([]catalog.Entry, len(c.Entries))
	for i, e := range c.Entries {
		out[i] = e.Entry
	}
	return marshal(out)
}

func (h *host) abort(args []js.Value) (string, error) {
	rt, err := h.runtime()
	if err != nil {
		return "", err
	}
	scope, err := scopeArg(args, 1)
	if err != nil {
		return "", fmt.Errorf("abort: %v", err)
	}
	return marshal(rt.Abort(scope, strArg(args, 0)))
}

// ttlAnswer is restartTTL's answer: the new expiry, or the core's refusal
// (a spec error code and wait's message for the same runId).
type ttlAnswer struct {
	OK        bool           `json:"ok"`
	ExpiresAt int64          `json:"expiresAt,omitempty"` // ms since the epoch
	Code      core.ErrorCode `json:"code,omitempty"`
	Error     string         `json:"error,omitempty"`
}

// restartTTL restarts a suspended run's snapshot TTL from now
// (core.Runtime.RestartTTL): args are the runId and the optional scope JSON.
func (h *host) restartTTL(args []js.Value) (string, error) {
	rt, err := h.runtime()
	if err != nil {
		return "", err
	}
	scope, err := scopeArg(args, 1)
	if err != nil {
		return "", fmt.Errorf("restartTTL: %v", err)
	}
	expires, err := rt.RestartTTL(core.CallInfo{Scope: scope}, strArg(args, 0))
	var re *core.RunError
	if errors.As(err, &re) {
		return marshal(ttlAnswer{Code: re.Code, Error: re.Message})
	}
	if err != nil {
		return "", err
	}
	return marshal(ttlAnswer{OK: true, ExpiresAt: expires.UnixMilli()})
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

// scopeArg reads the optional scope JSON at args[i] ("" or absent: no scope).
func scopeArg(args []js.Value, i int) (core.Scope, error) {
	var sc struct {
		AgentID    string `json:"agentId"`
		SessionID  string `json:"sessionId"`
		SessionKey string `json:"sessionKey"`
		AgentRunID string `json:"agentRunId"`
	}
	if s := strArg(args, i); s != "" {
		if err := jsonin.Decode([]byte(s), &sc, "scope"); err != nil {
			return core.Scope{}, err
		}
	}
	return core.Scope{AgentID: sc.AgentID, SessionID: sc.SessionID, SessionKey: sc.SessionKey, AgentRunID: sc.AgentRunID}, nil
}

func marshal(v any) (string, error) {
	b, err := json.Marshal(v)
	return string(b), err
}
