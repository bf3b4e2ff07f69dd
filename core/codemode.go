// Package core is the host-agnostic Code Mode runtime: exec and wait over a
// QuickJS-WASI sandbox, the run and snapshot store, the JSON bridge, limits,
// error codes and telemetry. Hosts (native, wasm, edge) are thin adapters over
// Runtime.Exec and Runtime.Wait.
package core

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/codemode-go/codemode/core/mcp"
	"github.com/codemode-go/codemode/internal/catalog"
	"github.com/codemode-go/codemode/internal/config"
	"github.com/codemode-go/codemode/internal/engine"
	"github.com/codemode-go/codemode/internal/namespace"
	"github.com/codemode-go/codemode/internal/quickjs"
	"github.com/codemode-go/codemode/internal/quickjs/wasmbin"
)

//go:embed guest/prelude.js
var preludeSource string

// Bridge host function names; stable, because restored VMs look them up by name.
const (
	hostSync  = "__openclaw_sync"
	hostAsync = "__openclaw_async"
)

// ToolSource returns the effective tools of a run (after the host's own policy
// resolution for agent, model, sender and so on). The core applies the catalog
// policy (allow/deny) on top.
type ToolSource func(ctx context.Context, scope catalog.Scope) ([]catalog.Tool, error)

// MCPSource returns the MCP servers a run of scope sees, beyond
// Options.MCPServers; the core applies the catalog policy to their tools.
type MCPSource func(ctx context.Context, scope catalog.Scope) ([]*mcp.Server, error)

// Options configures a Runtime.
type Options struct {
	// Config is tools.codeMode; it must be valid and enabled.
	Config config.Config
	// Tools supplies each run's effective tools.
	Tools ToolSource
	// MCPServers are connected MCP servers every scope sees (the operator's
	// servers): their tools join every run's catalog as mcp:<name>:<tool> and
	// are reached through MCP.<name>.
	MCPServers []*mcp.Server
	// MCP supplies the MCP servers of one scope on top of MCPServers, resolved
	// per run like Tools: an agent's, session's or sender's own servers never
	// appear in another scope's catalog, declaration files or MCP namespace.
	// A server whose name is already taken in the run is left out (logged).
	MCP MCPSource
	// NamespaceConfig is handed to plugin namespaces' createScope as ctx.Config.
	NamespaceConfig []byte
	// Policy and Hooks apply to every run's catalog.
	Policy catalog.Policy
	// Hooks are the before/after hooks and the approver every nested call goes through.
	Hooks catalog.Hooks
	// Engine runs QuickJS; nil picks the host's own WebAssembly engine under
	// GOOS=js when the host installed it (internal/engine/jsengine), else a wazero
	// engine (compiler natively, interpreter under GOARCH=wasm).
	Engine engine.Engine
	// Interpreter asks the default engine for wazero's interpreter.
	Interpreter bool
	// Deterministic fixes the guest clock and randomness (tests).
	Deterministic bool
	// Transcript, when set, records every exec/wait and its nested tool calls.
	Transcript *Transcript
	// Now is the clock for snapshot expiry (tests); nil means time.Now.
	Now func() time.Time
	// InterruptsPerSecond is how many QuickJS interrupt checks the engine makes
	// per second of guest CPU; the interrupt budget of a run is timeoutMs worth
	// of them. It bounds a busy cell where the wall clock stands still during
	// CPU work (a deployed Cloudflare Worker): measure it for the engine that
	// runs there. 0 means DefaultInterruptsPerSecond.
	InterruptsPerSecond int64
	// PollsPerSecond is how many times per second of guest CPU the engine's
	// loop guard polls inside a long built-in (engine.Poller); a run may poll
	// timeoutMs worth of them. Set it only where the clock stands still
	// during CPU work (a deployed Cloudflare Worker), where it is what stops a
	// long built-in; 0 (the default) means no such bound, the deadline does.
	PollsPerSecond int64
	// MaxRunningCells bounds the cells whose guest code runs at once in this
	// Runtime; a cell waiting for its tool calls does not count. A new exec or
	// wait queues at most AdmissionWait for a slot, then fails at capacity
	// (Result.RetryAfter; 429 over HTTP). 0 means DefaultMaxRunningCells (one
	// per core but one, natively); a negative value means no bound.
	MaxRunningCells int
	// SuspendLimits bounds this runtime's suspended runs (count and snapshot
	// bytes); nil gives the runtime its own, NewSuspendLimits(0, 0) (the
	// spec's 64 runs, MaxSuspendedBytes). Runtimes sharing a process's memory
	// on purpose pass the same one.
	SuspendLimits *SuspendLimits
	// TransformTS runs the TypeScript transform in another program and answers
	// internal/typescript.Transform's text for src. Only builds without the
	// compiler use it (the codemode_hostjs tag: hostjs's codemode.wasm, whose
	// shim loads tsx.wasm on the first TypeScript cell); the others transform
	// in-process and ignore it. A run's clock starts after the transform, so
	// its loading never eats into timeoutMs.
	TransformTS func(ctx context.Context, src string) ([]byte, error)
	// RelayOnly builds a runtime that never loads QuickJS: it serves Catalog,
	// CallTool and Surface, and Exec and Wait answer runtime_unavailable. A
	// stateless front whose cells run elsewhere (the Cloudflare Worker's Go
	// front, a new instance per request) answers tool relays with it without
	// paying for a VM on every request.
	RelayOnly bool

	// QuickJSWasm is quickjs.wasm from the npm package quickjs-wasi@3.7.0. It
	// must match the pinned sha256 (wasmbin.SHA256 in this repository). A module
	// fetched with go get embeds no binary, so its users set this or
	// QuickJSWasmPath; nil and "" take the copy built into this repository's
	// builds (./build.sh deps), and New says exactly what to do when there is none.
	QuickJSWasm []byte
	// QuickJSWasmPath is a file holding the same binary, typically
	// "node_modules/quickjs-wasi/quickjs.wasm" after `npm i quickjs-wasi@3.7.0`.
	// QuickJSWasm wins when both are set.
	QuickJSWasmPath string
	// Logger receives what the host must see and the model must not: a tool's
	// panic value, a tool left out of the catalog and why, a broken plugin
	// namespace, an engine trap. Nil discards these records.
	Logger *slog.Logger
	// Namespaces is the plugin namespace registry runs resolve against; nil
	// gives the runtime its own, empty one. Runtimes that should see the same
	// registrations share one on purpose (namespace.Default is the process's,
	// for hosts that want it).
	Namespaces *namespace.Registry
}

// DefaultInterruptsPerSecond is the interrupt budget rate when the engine's own
// rate is not known: generous enough that the wall-clock deadline, where the
// clock moves, always fires first. It was 20,000 until a page's worker (V8,
// QuickJS tiered up) made more checks than that per second and ended the first
// `while (true) {}` at 8-9 s of a 10 s timeoutMs; hosts whose clock stands
// still during CPU work pass their measured rate (the Worker: 20,000).
const DefaultInterruptsPerSecond = 1_000_000

// Runtime runs Code Mode cells. It is safe for concurrent use.
type Runtime struct {
	opts  Options
	cfg   config.Config
	qjs   *quickjs.Runtime
	store *store
	now   func() time.Time
	// ownEngine is the engine New created (nil when the host passed one in);
	// Close releases it.
	ownEngine engine.Engine
	life      lifecycle
	releaseMu sync.Once
	admit     *admission // nil: unbounded
	suspended *SuspendLimits
	memo      *catalog.RenderCache // schema renderings of this runtime's catalogs
}

// New validates the config and loads QuickJS-WASI. A failure here is the spec's
// runtime_unavailable: Code Mode fails closed rather than falling back.
func New(ctx context.Context, opts Options) (*Runtime, error) {
	if isZeroConfig(opts.Config) {
		return nil, errors.New(msgZeroConfig)
	}
	if err := opts.Config.Validate(); err != nil {
		return nil, err
	}
	if !opts.Config.Enabled {
		return nil, errors.New("code mode is disabled (tools.codeMode.enabled is not true): set cfg.Enabled = true")
	}
	// Nil leaves the choice to quickjs.New: the embedded binary, or an error
	// saying how to hand one in.
	var wasm []byte
	if opts.QuickJSWasm != nil || opts.QuickJSWasmPath != "" {
		b, err := wasmbin.Select(opts.QuickJSWasm, opts.QuickJSWasmPath)
		if err != nil {
			return nil, &UnavailableError{Err: err}
		}
		wasm = b
	}
	now := opts.Now
	if now == nil {
		now = time.Now
	}
	if opts.InterruptsPerSecond < 0 {
		return nil, errors.New("core: InterruptsPerSecond must not be negative")
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.Namespaces == nil {
		opts.Namespaces = namespace.NewRegistry()
	}
	if opts.SuspendLimits == nil {
		opts.SuspendLimits = NewSuspendLimits(0, 0)
	}
	if opts.RelayOnly {
		rt := &Runtime{opts: opts, cfg: opts.Config, store: newStore(time.Duration(opts.Config.SnapshotTtlSeconds)*time.Second, now, opts.SuspendLimits), now: now,
			suspended: opts.SuspendLimits, memo: new(catalog.RenderCache)}
		rt.life.released = make(chan struct{})
		return rt, nil
	}
	eng := opts.Engine
	var own engine.Engine
	if eng == nil {
		// Linear memory never shrinks: cap pages at the QuickJS limit plus room
		// for the 1 MiB C stack, static data and allocator slack.
		pages := uint32(opts.Config.MemoryLimitBytes/engine.PageSize)*5/4 + 64
		h, err := defaultHostEngine(opts, pages)
		if err != nil {
			return nil, &UnavailableError{Err: err}
		}
		if h != nil {
			eng, own = h, h
		} else {
			e, err := newWazero(ctx, opts.Interpreter, pages)
			if err != nil {
				return nil, &UnavailableError{Err: err}
			}
			eng, own = e, e
		}
	}
	q, err := quickjs.New(ctx, quickjs.Config{
		Engine:        eng,
		Wasm:          wasm,
		HostFunctions: []string{hostSync, hostAsync},
		Prelude:       preludeSource,
		Deterministic: opts.Deterministic,
	})
	if err != nil {
		if own != nil {
			own.Close(ctx)
		}
		return nil, &UnavailableError{Err: err}
	}
	ttl := time.Duration(opts.Config.SnapshotTtlSeconds) * time.Second
	maxRunning := opts.MaxRunningCells
	if maxRunning == 0 {
		maxRunning = DefaultMaxRunningCells()
	}
	rt := &Runtime{opts: opts, cfg: opts.Config, qjs: q, store: newStore(ttl, now, opts.SuspendLimits), now: now, ownEngine: own, admit: newAdmission(maxRunning), suspended: opts.SuspendLimits, memo: new(catalog.RenderCache)}
	rt.life.released = make(chan struct{})
	return rt, nil
}

// interruptBudget is timeoutMs worth of interrupt checks at the engine's rate.
func (rt *Runtime) interruptBudget() int64 {
	rate := rt.opts.InterruptsPerSecond
	if rate == 0 {
		rate = DefaultInterruptsPerSecond
	}
	return max(int64(rt.cfg.TimeoutMs)*rate/1000, 1)
}

// pollBudget is timeoutMs worth of loop-guard polls, or 0 (no bound).
func (rt *Runtime) pollBudget() int64 {
	if rt.opts.PollsPerSecond <= 0 {
		return 0
	}
	return max(int64(rt.cfg.TimeoutMs)*rt.opts.PollsPerSecond/1000, 1)
}

// errRelayOnly is Exec's and Wait's answer on a RelayOnly runtime.
const errRelayOnly = "code mode runtime unavailable: this runtime only relays tool calls; cells run in another core."

// msgZeroConfig answers a Runtime made without a config: the zero Config's
// limits are all 0, and listing the first out-of-range field would hide the fix.
const msgZeroConfig = "core.Options.Config is not set: start from the defaults, " +
	"cfg := config.Default(); cfg.Enabled = true (or read a tools.codeMode document with config.Parse)"

// isZeroConfig reports a Config no one filled in (not even from Default).
func isZeroConfig(c config.Config) bool {
	return c.Runtime == "" && c.Mode == "" && c.Languages == nil && c.TimeoutMs == 0 && c.MemoryLimitBytes == 0
}

// Config returns the runtime's configuration.
func (rt *Runtime) Config() config.Config { return rt.cfg }

// UnavailableError means QuickJS-WASI could not be loaded or started.
type UnavailableError struct {
	// Err is the cause: a missing or wrong quickjs.wasm, an engine that failed.
	Err error
}

// Error says the runtime is unavailable and why.
func (e *UnavailableError) Error() string {
	return fmt.Sprintf("code mode runtime unavailable: %v", e.Err)
}

// Unwrap returns Err, the cause.
func (e *UnavailableError) Unwrap() error { return e.Err }
