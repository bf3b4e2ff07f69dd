// Package core is the host-agnostic Code Mode runtime: exec and wait over a
// QuickJS-WASI sandbox, the run and snapshot store, the JSON bridge, limits,
// error codes and telemetry. Hosts (native, wasm, edge) are thin adapters over
// Runtime.Exec and Runtime.Wait.
//
// A Go host reads it in this order: New with Options (Config from
// DefaultConfig, Tools made with Func or TypedFunc, Policy, Hooks, MCP servers
// from package core/mcp, plugin namespaces in a NamespaceRegistry, Engine);
// then Runtime.Exec and Runtime.Wait with a CallInfo, answering a Result.
// Several of these types are aliases of packages under internal/ (Tool, Spec,
// Hooks, Policy, Config, ...): `go doc` of the alias target lists their fields,
// and a value made here is the very type the runtime uses.
package core

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/codemode-go/codemode/core/internal/guest"
	"github.com/codemode-go/codemode/core/mcp"
	"github.com/codemode-go/codemode/internal/catalog"
	"github.com/codemode-go/codemode/internal/config"
	"github.com/codemode-go/codemode/internal/engine"
	"github.com/codemode-go/codemode/internal/hostopts"
	"github.com/codemode-go/codemode/internal/namespace"
	"github.com/codemode-go/codemode/internal/quickjs"
	"github.com/codemode-go/codemode/internal/quickjs/wasmbin"
)

// Bridge host function names (package guest holds the template's config).
const (
	hostSync  = guest.HostSync
	hostAsync = guest.HostAsync
)

// Options configures a Runtime. Config is the only field New requires.
type Options struct {
	// Config is tools.codeMode; it must be valid and enabled. Start from
	// DefaultConfig.
	Config Config
	// Tools returns the effective tools of a run of scope (after the host's
	// own policy resolution for agent, model, sender and so on); the core
	// applies Policy on top.
	Tools func(ctx context.Context, scope Scope) ([]Tool, error)
	// MCPServers are connected MCP servers every scope sees (the operator's
	// servers): their tools join every run's catalog as mcp:<name>:<tool> and
	// are reached through MCP.<name>.
	MCPServers []*mcp.Server
	// MCP supplies the MCP servers of one scope on top of MCPServers, resolved
	// per run like Tools: an agent's, session's or sender's own servers never
	// appear in another scope's catalog, declaration files or MCP namespace.
	// A server whose name is already taken in the run is left out (logged);
	// Policy applies to their tools.
	MCP func(ctx context.Context, scope Scope) ([]*mcp.Server, error)
	// NamespaceConfig is handed to plugin namespaces' createScope as ctx.Config.
	NamespaceConfig []byte
	// Policy is the allow/deny filter every run's catalog applies.
	Policy Policy
	// Hooks are the before/after hooks and the approver every nested call goes through.
	Hooks Hooks
	// Engine says how QuickJS runs; the zero value is right for a native host
	// that uses this repository's build.
	Engine EngineConfig
	// Transcript, when set, records every exec/wait and its nested tool calls.
	Transcript *Transcript
	// MaxRunningCells bounds the cells whose guest code runs at once in this
	// Runtime; a cell waiting for its tool calls does not count. A new exec or
	// wait queues at most 100 ms for a slot, then fails at capacity
	// (Result.RetryAfter; 429 over HTTP). 0 means one per core but one
	// (at least one) natively and no bound under GOOS=js and wasip1; a
	// negative value means no bound.
	MaxRunningCells int
	// SuspendLimits bounds this runtime's suspended runs (count and snapshot
	// bytes); nil gives the runtime its own, NewSuspendLimits(0, 0) (the
	// spec's 64 runs, 256 MiB). Runtimes sharing a process's memory on
	// purpose pass the same one.
	SuspendLimits *SuspendLimits
	// Logger receives what the host must see and the model must not: a tool's
	// panic value, a tool left out of the catalog and why, a broken plugin
	// namespace, an engine trap. Nil discards these records.
	Logger *slog.Logger
	// Namespaces is the plugin namespace registry runs resolve against; nil
	// gives the runtime its own, empty one. Runtimes that should see the same
	// registrations share one on purpose.
	Namespaces *NamespaceRegistry

	// host are the knobs only this module's hosts and tests set (hostopts.Of).
	host hostopts.Options
}

// EngineConfig says how a Runtime runs QuickJS. The zero value uses the
// quickjs.wasm this repository's build embeds, wazero's compiler natively (its
// interpreter under GOARCH=wasm) and the wall-clock deadline alone.
type EngineConfig struct {
	// QuickJSWasm is quickjs.wasm from the npm package quickjs-wasi@3.7.0. It
	// must match the pinned sha256. A module fetched with go get embeds no
	// binary, so its users set this or QuickJSWasmPath; nil and "" take the
	// copy built into this repository's builds (./build.sh deps), and New says
	// exactly what to do when there is none.
	QuickJSWasm []byte
	// QuickJSWasmPath is a file holding the same binary, typically
	// "node_modules/quickjs-wasi/quickjs.wasm" after `npm i quickjs-wasi@3.7.0`.
	// QuickJSWasm wins when both are set.
	QuickJSWasmPath string
	// Interpreter asks for wazero's interpreter instead of its compiler.
	Interpreter bool
	// InterruptsPerSecond is how many QuickJS interrupt checks the engine makes
	// per second of guest CPU; the interrupt budget of a run is timeoutMs worth
	// of them. It bounds a busy cell where the wall clock stands still during
	// CPU work (a deployed Cloudflare Worker): measure it for the engine that
	// runs there. 0 means 1,000,000; negative is an error.
	InterruptsPerSecond int64
	// PollsPerSecond is how many times per second of guest CPU the engine's
	// loop guard polls inside a long built-in; a run may poll timeoutMs worth
	// of them. Set it only where the clock stands still during CPU work (a
	// deployed Cloudflare Worker), where it is what stops a long built-in; 0
	// (the default) means no such bound, the deadline does.
	PollsPerSecond int64
}

func init() {
	hostopts.Of = func(opts any) *hostopts.Options { return &opts.(*Options).host }
	hostopts.WaitOutside = waitOutside
}

// defaultInterruptsPerSecond is the interrupt budget rate when the engine's own
// rate is not known: generous enough that the wall-clock deadline, where the
// clock moves, always fires first. It was 20,000 until a page's worker (V8,
// QuickJS tiered up) made more checks than that per second and ended the first
// `while (true) {}` at 8-9 s of a 10 s timeoutMs; hosts whose clock stands
// still during CPU work pass their measured rate (the Worker: 20,000).
const defaultInterruptsPerSecond = 1_000_000

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
	if opts.Engine.QuickJSWasm != nil || opts.Engine.QuickJSWasmPath != "" {
		b, err := wasmbin.Select(opts.Engine.QuickJSWasm, opts.Engine.QuickJSWasmPath)
		if err != nil {
			return nil, &UnavailableError{Err: err}
		}
		wasm = b
	}
	now := opts.host.Now
	if now == nil {
		now = time.Now
	}
	if opts.Engine.InterruptsPerSecond < 0 {
		return nil, errors.New("core: Engine.InterruptsPerSecond must not be negative")
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
	if opts.host.RelayOnly {
		rt := &Runtime{opts: opts, cfg: opts.Config, store: newStore(time.Duration(opts.Config.SnapshotTtlSeconds)*time.Second, now, opts.SuspendLimits), now: now,
			suspended: opts.SuspendLimits, memo: new(catalog.RenderCache)}
		rt.life.released = make(chan struct{})
		return rt, nil
	}
	eng := opts.host.Engine
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
			e, err := newWazero(ctx, opts.Engine.Interpreter, pages)
			if err != nil {
				return nil, &UnavailableError{Err: err}
			}
			eng, own = e, e
		}
	}
	qc := guest.Template()
	qc.Engine, qc.Wasm, qc.Deterministic = eng, wasm, opts.host.Deterministic
	q, err := quickjs.New(ctx, qc)
	if err != nil {
		if own != nil {
			own.Close(ctx)
		}
		return nil, &UnavailableError{Err: err}
	}
	if from, why := q.TemplateFrom(); why != nil {
		opts.Logger.Debug("codemode: QuickJS template built at start, not loaded from the build's image", "from", from, "why", why.Error())
	}
	ttl := time.Duration(opts.Config.SnapshotTtlSeconds) * time.Second
	maxRunning := opts.MaxRunningCells
	if maxRunning == 0 {
		maxRunning = defaultMaxRunningCells()
	}
	rt := &Runtime{opts: opts, cfg: opts.Config, qjs: q, store: newStore(ttl, now, opts.SuspendLimits), now: now, ownEngine: own, admit: newAdmission(maxRunning), suspended: opts.SuspendLimits, memo: new(catalog.RenderCache)}
	rt.life.released = make(chan struct{})
	return rt, nil
}

// interruptBudget is timeoutMs worth of interrupt checks at the engine's rate.
func (rt *Runtime) interruptBudget() int64 {
	rate := rt.opts.Engine.InterruptsPerSecond
	if rate == 0 {
		rate = defaultInterruptsPerSecond
	}
	return max(int64(rt.cfg.TimeoutMs)*rate/1000, 1)
}

// pollBudget is timeoutMs worth of loop-guard polls, or 0 (no bound).
func (rt *Runtime) pollBudget() int64 {
	if rt.opts.Engine.PollsPerSecond <= 0 {
		return 0
	}
	return max(int64(rt.cfg.TimeoutMs)*rt.opts.Engine.PollsPerSecond/1000, 1)
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
func (rt *Runtime) Config() Config { return rt.cfg }

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
