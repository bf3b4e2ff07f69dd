// Package wazeroengine implements engine.Engine with wazero: the compiler with an
// on-disk compilation cache natively (a cold compile of quickjs.wasm costs ~470 ms,
// a cached one ~15 ms), the interpreter when the process itself is WebAssembly or
// when asked.
package wazeroengine

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/codemode-go/codemode/internal/engine"
	"github.com/codemode-go/codemode/internal/engine/internal/loopguard"
	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/experimental"
)

// Options configures the engine.
type Options struct {
	// Interpreter forces wazero's interpreter. It is always used on GOARCH=wasm.
	Interpreter bool
	// CacheDir is the compilation cache directory; "" picks the user cache dir,
	// "-" disables the cache. Ignored by the interpreter.
	CacheDir string
	// MaxMemoryPages caps every instance's linear memory (0: wazero's default of
	// 4 GiB). Linear memory never shrinks, so this cap bounds what a hostile guest
	// can make the process hold even if QuickJS's own limit were bypassed.
	MaxMemoryPages uint32
	// NoLoopGuard loads modules as they are, without the countdown that lets a
	// Host implementing engine.Poller stop long-running guest code. Only for
	// measuring what the guard costs: without it a guest inside a long
	// built-in cannot be stopped and holds up the Go garbage collector.
	NoLoopGuard bool
	// CloseOnContextDone turns on wazero's own context check at every loop
	// back-edge and function call (WithCloseOnContextDone), with a context that
	// is never cancelled. Only for measuring that alternative to the loop
	// guard against it (3-5x CPU on the benchmark workloads).
	CloseOnContextDone bool
}

// Engine is a wazero runtime bound to one import layout.
type Engine struct {
	rt          wazero.Runtime
	interpreter bool
	guard       bool
	interval    int32 // countdown between two polls
	ctxDone     bool
}

// New creates an engine.
func New(ctx context.Context, opts Options) (*Engine, error) {
	interp := opts.Interpreter || runtime.GOARCH == "wasm"
	var cfg wazero.RuntimeConfig
	if interp {
		cfg = wazero.NewRuntimeConfigInterpreter()
	} else {
		cfg = wazero.NewRuntimeConfigCompiler()
		if c := compilationCache(opts.CacheDir); c != nil {
			cfg = cfg.WithCompilationCache(c)
		}
	}
	if opts.MaxMemoryPages > 0 {
		cfg = cfg.WithMemoryLimitPages(opts.MaxMemoryPages)
	}
	if opts.CloseOnContextDone {
		cfg = cfg.WithCloseOnContextDone(true)
	}
	e := &Engine{rt: wazero.NewRuntimeWithConfig(ctx, cfg), interpreter: interp, guard: !opts.NoLoopGuard, ctxDone: opts.CloseOnContextDone}
	// A poll costs a Go call and a clock read (~0.1 us natively); 2^16 loop
	// iterations of compiled code take well under a millisecond, of
	// interpreted code tens of milliseconds, hence a shorter interval there.
	e.interval = 1 << 12
	if interp {
		e.interval = 1 << 10
	}
	return e, nil
}

// Interpreter reports whether this engine interprets rather than compiles.
func (e *Engine) Interpreter() bool { return e.interpreter }

var (
	cacheMu sync.Mutex
	caches  = map[string]wazero.CompilationCache{}
)

// compilationCache shares one cache per directory across engines in the process.
func compilationCache(dir string) wazero.CompilationCache {
	if dir == "-" {
		return nil
	}
	if dir == "" {
		base, err := os.UserCacheDir()
		if err != nil {
			base = os.TempDir()
		}
		dir = filepath.Join(base, "codemode", "wazero")
	}
	cacheMu.Lock()
	defer cacheMu.Unlock()
	if c, ok := caches[dir]; ok {
		return c
	}
	c, err := wazero.NewCompilationCacheWithDir(dir)
	if err != nil {
		// An unusable cache directory only costs compile time.
		c = wazero.NewCompilationCache()
	}
	caches[dir] = c
	return c
}

type hostKey struct{}

// instState is what the import functions of one instance reach through the
// call context: its Host, and whether a poll stopped it.
type instState struct {
	host    engine.Host
	poller  engine.Poller // nil when host does not implement engine.Poller
	stopped error
}

// stopSignal is the panic that unwinds a stopped instance: wazero recovers it
// at the outermost call and returns it wrapped, and Call unwraps it again.
type stopSignal struct{ err error }

func (s *stopSignal) Error() string { return "guest stopped by the host: " + s.err.Error() }

func (st *instState) stop(err error) {
	if st.stopped == nil {
		st.stopped = err
	}
	panic(&stopSignal{st.stopped})
}

// Load compiles wasm and instantiates the host modules that dispatch its imports.
// One Engine serves one import layout: the host modules are named after the
// import modules ("env", "wasi_snapshot_preview1") and exist once per runtime.
// Unless Options.NoLoopGuard is set, the module is first rewritten by
// loopguard so that its code polls the Host (see engine.Poller).
func (e *Engine) Load(ctx context.Context, wasm []byte, imports []engine.Import) (engine.Module, error) {
	if e.guard {
		g, err := loopguard.Rewrite(wasm)
		if err != nil {
			return nil, fmt.Errorf("guard quickjs.wasm: %w", err)
		}
		wasm = g
	}
	compiled, err := e.rt.CompileModule(ctx, wasm)
	if err != nil {
		return nil, fmt.Errorf("compile quickjs.wasm: %w", err)
	}
	byModule := map[string]wazero.HostModuleBuilder{}
	var order []string
	builder := func(name string) wazero.HostModuleBuilder {
		b, ok := byModule[name]
		if !ok {
			b = e.rt.NewHostModuleBuilder(name)
			byModule[name] = b
			order = append(order, name)
		}
		return b
	}
	for i, imp := range imports {
		idx := i
		fn := api.GoModuleFunc(func(ctx context.Context, _ api.Module, stack []uint64) {
			st := ctx.Value(hostKey{}).(*instState)
			if st.stopped != nil {
				st.stop(st.stopped)
			}
			st.host.CallImport(idx, stack)
		})
		builder(imp.Module).NewFunctionBuilder().WithGoModuleFunction(fn, valTypes(imp.Params), valTypes(imp.Results)).Export(imp.Name)
	}
	if e.guard {
		interval := uint64(e.interval)
		poll := api.GoModuleFunc(func(ctx context.Context, _ api.Module, stack []uint64) {
			st := ctx.Value(hostKey{}).(*instState)
			if st.stopped != nil {
				st.stop(st.stopped)
			}
			if st.poller != nil {
				if err := st.poller.Poll(); err != nil {
					st.stop(err)
				}
			}
			stack[0] = interval
		})
		builder(loopguard.PollModule).NewFunctionBuilder().WithGoModuleFunction(poll, nil, []api.ValueType{api.ValueTypeI32}).Export(loopguard.PollName)
	}
	for _, name := range order {
		if _, err := byModule[name].Instantiate(ctx); err != nil {
			return nil, fmt.Errorf("host module %s: %w", name, err)
		}
	}
	return &module{rt: e.rt, compiled: compiled, ctxDone: e.ctxDone}, nil
}

// Close releases the runtime and every instance.
func (e *Engine) Close(ctx context.Context) error { return e.rt.Close(ctx) }

func valTypes(ts []engine.ValType) []api.ValueType {
	out := make([]api.ValueType, len(ts))
	for i, t := range ts {
		switch t {
		case engine.I32:
			out[i] = api.ValueTypeI32
		case engine.I64:
			out[i] = api.ValueTypeI64
		case engine.F64:
			out[i] = api.ValueTypeF64
		}
	}
	return out
}

type module struct {
	rt       wazero.Runtime
	compiled wazero.CompiledModule
	ctxDone  bool
	reserve  atomic.Uint64 // bytes of capacity a new instance's memory starts with
}

// ReserveMemory implements engine.MemoryReserver.
func (m *module) ReserveMemory(bytes uint32) { m.reserve.Store(uint64(bytes)) }

// linearMemory is an instance's memory allocated with room for the reserve
// up front; growing within it only extends the slice (its bytes past the
// length were zeroed by make and never written, memory never shrinking).
type linearMemory struct{ buf []byte }

func (l *linearMemory) Reallocate(size uint64) []byte {
	if size <= uint64(cap(l.buf)) {
		l.buf = l.buf[:size]
	} else {
		l.buf = append(l.buf, make([]byte, size-uint64(len(l.buf)))...)
	}
	return l.buf
}

func (l *linearMemory) Free() { l.buf = nil }

func (m *module) Instantiate(ctx context.Context, host engine.Host) (engine.Instance, error) {
	if r := m.reserve.Load(); r > 0 {
		ctx = experimental.WithMemoryAllocator(ctx, experimental.MemoryAllocatorFunc(func(capacity, limit uint64) experimental.LinearMemory {
			return &linearMemory{buf: make([]byte, 0, min(limit, max(capacity, r)))}
		}))
	}
	// An empty name makes the instance anonymous, so many can coexist.
	mod, err := m.rt.InstantiateModule(ctx, m.compiled, wazero.NewModuleConfig().WithName("").WithStartFunctions())
	if err != nil {
		return nil, err
	}
	sp, ok := mod.ExportedGlobal("__stack_pointer").(api.MutableGlobal)
	if !ok {
		mod.Close(ctx)
		return nil, errors.New("quickjs.wasm exports no mutable __stack_pointer")
	}
	st := &instState{host: host}
	st.poller, _ = host.(engine.Poller)
	var base context.Context = context.Background()
	if m.ctxDone {
		// A context that can be done (but never is): this mode exists to
		// measure what wazero's check costs.
		base = neverDone{}
	}
	return &instance{
		mod:   mod,
		ctx:   context.WithValue(base, hostKey{}, st),
		st:    st,
		sp:    sp,
		mem:   memory{mod.Memory()},
		funcs: map[string][]api.Function{},
	}, nil
}

func (m *module) Close(ctx context.Context) error { return m.compiled.Close(ctx) }

// neverDone has a Done channel (so wazero arms its check) that never closes.
type neverDone struct{ context.Context }

var neverDoneCh = make(chan struct{})

func (neverDone) Done() <-chan struct{}       { return neverDoneCh }
func (neverDone) Err() error                  { return nil }
func (neverDone) Value(any) any               { return nil }
func (neverDone) Deadline() (time.Time, bool) { return time.Time{}, false }

// instance keeps a free list of function handles per export: a wazero
// api.Function must not be re-entered (host -> export -> guest -> host -> same
// export crashes the process with "split stack overflow"), so a nested call to
// an export that is already on the stack takes a fresh handle.
type instance struct {
	mod   api.Module
	ctx   context.Context
	st    *instState
	sp    api.MutableGlobal
	mem   memory
	funcs map[string][]api.Function
}

func (in *instance) Call(name string, args ...uint64) (uint64, error) {
	free := in.funcs[name]
	var f api.Function
	if n := len(free); n > 0 {
		f = free[n-1]
		in.funcs[name] = free[:n-1]
	} else if f = in.mod.ExportedFunction(name); f == nil {
		return 0, fmt.Errorf("quickjs.wasm has no export %q", name)
	}
	if in.st.stopped != nil {
		return 0, in.st.stopped
	}
	res, err := f.Call(in.ctx, args...)
	in.funcs[name] = append(in.funcs[name], f)
	if err != nil {
		var s *stopSignal
		if errors.As(err, &s) {
			return 0, s.err
		}
		return 0, err
	}
	if len(res) == 0 {
		return 0, nil
	}
	return res[0], nil
}

func (in *instance) Memory() engine.Memory           { return in.mem }
func (in *instance) StackPointer() uint32            { return uint32(in.sp.Get()) }
func (in *instance) SetStackPointer(v uint32)        { in.sp.Set(uint64(v)) }
func (in *instance) Close(ctx context.Context) error { return in.mod.Close(ctx) }

type memory struct{ m api.Memory }

func (m memory) Size() uint32                      { return m.m.Size() }
func (m memory) Grow(delta uint32) (uint32, bool)  { return m.m.Grow(delta) }
func (m memory) View(off, n uint32) ([]byte, bool) { return m.m.Read(off, n) }
func (m memory) Write(off uint32, p []byte) bool   { return m.m.Write(off, p) }

// Zero clears memory[off:off+n] in place (engine.Zeroer).
func (m memory) Zero(off, n uint32) bool {
	b, ok := m.m.Read(off, n)
	if ok {
		clear(b)
	}
	return ok
}
