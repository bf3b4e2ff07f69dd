package quickjs

import (
	"context"
	_ "embed"
	"encoding/binary"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/codemode-go/codemode/internal/engine"
	"github.com/codemode-go/codemode/internal/quickjs/wasmbin"
)

//go:embed kit.js
var kitSource string

// kitSealed is kit.js compiled by bcgen (./build.sh gen).
//
//go:embed kit.bc
var kitSealed []byte

// Config describes a Runtime: one compiled module and one template snapshot.
type Config struct {
	// Engine runs the module (required).
	Engine engine.Engine
	// Wasm is quickjs.wasm; nil takes the embedded, checksum-verified binary.
	Wasm []byte
	// HostFunctions are the names of host functions created in the template. Their
	// callbacks are registered per VM with VM.Handle; the names are stable, so a
	// restored VM only needs its callbacks registered again.
	HostFunctions []string
	// Prelude, when set, is a JavaScript function expression evaluated once into
	// the template and called with an object holding the host functions by name.
	// Its return value is available on every VM as VM.Prelude().
	Prelude string
	// PreludeSealed, when it holds Prelude's bytecode sealed by bcgen for
	// the pinned quickjs.wasm (Seal), is evaluated instead of the source.
	// Only embedded files belong here, and the module must be the pinned
	// binary's (wasmbin.Select checks bytes handed in; a host engine's
	// compiled module is the build's quickjs.wasm).
	PreludeSealed []byte
	// Image, when set, is this config's template made at build time by
	// Runtime.Image: New loads it instead of building the template. One
	// sealed for other inputs (kit, prelude, host functions, QuickJS) or
	// malformed is not used and the template is built as without it
	// (TemplateFrom says why). Only embedded files belong here.
	Image []byte
	// Deterministic fixes the clock (Clock, default 2024-01-01T00:00:00Z) and
	// seeds all randomness from Seed, for reproducible tests.
	Deterministic bool
	Clock         time.Time
	Seed          uint64
	// PoolSize is how many idle instances are kept for reuse (default 4).
	PoolSize int
}

func (c *Config) clock() time.Time {
	if c.Clock.IsZero() {
		return time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	}
	return c.Clock
}

// Runtime owns a compiled quickjs.wasm, the template every VM starts from, and a
// pool of idle instances. It is safe for concurrent use; the VMs it hands out are not.
type Runtime struct {
	cfg    Config
	module engine.Module
	tmpl   *template

	// maxNesting bounds host calls nested in one another (0: unbounded), taken
	// from an engine.NestingLimiter.
	maxNesting int

	// from and why are how the template was made and, when an image was not
	// used, why (TemplateFrom); version is the module's QuickJS version.
	from    string
	why     error
	version string

	mu   sync.Mutex
	pool []pooled
	rng  uint64 // deterministic randomness state
}

// template is the memory image right after qjs_init and the prelude, plus the
// kit's boxes, which sit at the same addresses in every VM made from it.
type template struct {
	mem []byte
	// plan is how an instance is reset to mem: its long zero stretches are
	// cleared, the rest copied (see engine.Zeroer).
	plan              []span
	sp, rtPtr, ctxPtr uint32
	kit               kit
}

type kit struct {
	reseed, errorInfo, parse, stringify, makeError, user Value
	// undefined is one box made at template time: qjs_get_undefined allocates
	// a new box per call, so handing it out afresh would leak one each time.
	undefined Value
}

const (
	defaultStackSize = 256 << 10
	// MaxStackSize is the largest stack limit the binary's 1 MiB C stack allows.
	MaxStackSize = 512 << 10
)

// New compiles the module and builds the template.
func New(ctx context.Context, cfg Config) (*Runtime, error) {
	if cfg.Engine == nil {
		return nil, errors.New("quickjs: Config.Engine is required")
	}
	if c, ok := cfg.Engine.(engine.Compiled); cfg.Wasm == nil && !(ok && c.HasModule()) {
		b, err := wasmbin.Bytes()
		if err != nil {
			return nil, err
		}
		cfg.Wasm = b
	}
	if cfg.PoolSize == 0 {
		cfg.PoolSize = 4
	}
	mod, err := cfg.Engine.Load(ctx, cfg.Wasm, Imports)
	if err != nil {
		return nil, err
	}
	r := &Runtime{cfg: cfg, module: mod, rng: cfg.Seed ^ 0x9E3779B97F4A7C15}
	if l, ok := cfg.Engine.(engine.NestingLimiter); ok {
		r.maxNesting = l.MaxNesting()
	}
	// Without a usable image, the template is built; one that fails from the
	// embedded bytecode is built again from the sources (the bytecode is for
	// the pinned quickjs.wasm only: QuickJS checks no more than its version
	// byte, and a wrong one can trap).
	if r.why = r.loadImage(ctx); r.why == nil {
		r.from = "image"
	} else if err := r.buildTemplate(ctx, true); err == nil {
		r.from = "bytecode"
	} else if err = r.buildTemplate(ctx, false); err == nil {
		r.from = "source"
	} else {
		return nil, err
	}
	if res, ok := mod.(engine.MemoryReserver); ok {
		res.ReserveMemory(uint32(len(r.tmpl.mem)))
	}
	return r, nil
}

// buildTemplate runs the cold init once: _initialize, qjs_init, the host
// functions, the kit and the prelude; then it captures the memory image.
// With bytecode, the kit and prelude are read from their sealed bytecode where
// it was made from today's sources.
func (r *Runtime) buildTemplate(ctx context.Context, bytecode bool) error {
	vm, err := r.instantiate(ctx, &template{})
	if err != nil {
		return err
	}
	defer vm.discard()
	vm.building = true
	if _, err := vm.call("_initialize"); err != nil {
		return err
	}
	if rc, err := vm.call("qjs_init"); err != nil || int32(rc) != 0 {
		return fmt.Errorf("quickjs: qjs_init failed (%d, %v)", int32(rc), err)
	}
	vm.applyLimits(Limits{})
	undef, err := vm.call("qjs_get_undefined")
	if err != nil {
		return err
	}
	vm.tmpl.kit.undefined = Value(undef)
	host, err := vm.NewObject()
	if err != nil {
		return err
	}
	for _, name := range r.cfg.HostFunctions {
		fn, err := vm.newHostFunction(name)
		if err != nil {
			return err
		}
		err = vm.SetProp(host, name, fn)
		vm.Free(fn)
		if err != nil {
			return err
		}
	}
	r.version = vm.QuickJSVersion()
	version := ""
	if bytecode {
		version = r.version
	}
	user := vm.Undefined()
	if r.cfg.Prelude != "" {
		p, err := vm.evalScript(r.cfg.Prelude, "prelude.js", r.sealed(bytecode, version, r.cfg.Prelude, r.cfg.PreludeSealed))
		if err != nil {
			return fmt.Errorf("quickjs: prelude: %w", err)
		}
		user, err = vm.Call(p, vm.Undefined(), host)
		vm.Free(p)
		if err != nil {
			return fmt.Errorf("quickjs: prelude: %w", err)
		}
	}
	vm.Free(host)
	k, err := vm.evalScript(kitSource, "kit.js", r.sealed(bytecode, version, kitSource, kitSealed))
	if err != nil {
		return fmt.Errorf("quickjs: kit: %w", err)
	}
	obj, err := vm.Call(k, vm.Undefined(), user)
	vm.Free(k)
	vm.Free(user)
	if err != nil {
		return fmt.Errorf("quickjs: kit: %w", err)
	}
	kt := kit{undefined: vm.tmpl.kit.undefined}
	for _, f := range []struct {
		name string
		dst  *Value
	}{{"reseed", &kt.reseed}, {"errorInfo", &kt.errorInfo}, {"parse", &kt.parse}, {"stringify", &kt.stringify}, {"makeError", &kt.makeError}, {"user", &kt.user}} {
		if *f.dst, err = vm.GetProp(obj, f.name); err != nil {
			return err
		}
	}
	vm.Free(obj)
	vm.call("qjs_run_gc")
	rt, _ := vm.call("qjs_get_runtime_ptr")
	cx, _ := vm.call("qjs_get_context_ptr")
	// Nothing runs in the instance after this copy (see the pooling below).
	mem, ok := engine.Copy(vm.mem, 0, vm.mem.Size())
	if !ok {
		return errors.New("quickjs: cannot read memory")
	}
	t := &template{mem: mem, sp: vm.inst.StackPointer(), kit: kt, rtPtr: uint32(rt), ctxPtr: uint32(cx)}
	t.plan = planReset(t.mem)
	r.tmpl = t
	r.keep(vm)
	return nil
}

// loadImage makes the template from Config.Image: it instantiates the
// module, checks the image's seal against the QuickJS version the module
// reports (static data, readable before _initialize) and the config, and
// writes the image (the path of a pool miss).
func (r *Runtime) loadImage(ctx context.Context) error {
	switch {
	case len(r.cfg.Image) == 0:
		return ErrNoImage
	case r.cfg.Deterministic:
		return errDeterministic
	}
	im, err := decodeImage(r.cfg.Image)
	if err != nil {
		return err
	}
	vm, err := r.instantiate(ctx, im.tmpl)
	if err != nil {
		return err
	}
	defer vm.discard()
	version := vm.QuickJSVersion()
	if im.seal != imageSeal(version, &r.cfg) {
		return errors.New("quickjs: the template image was made for another kit, prelude, host functions or QuickJS (" + version + "): rebuild it")
	}
	if err := vm.load(im.tmpl); err != nil {
		return err
	}
	r.tmpl, r.version = im.tmpl, version
	r.keep(vm)
	return nil
}

// instantiate returns a VM over a fresh instance of the module, to build or
// load template t in.
func (r *Runtime) instantiate(ctx context.Context, t *template) (*VM, error) {
	vm := &VM{rt: r, tmpl: t, callbacks: map[string]HostFunc{}, grace: GraceTime, graceTicks: GraceTicks}
	ref := &hostRef{vm: vm}
	inst, err := r.module.Instantiate(ctx, ref)
	if err != nil {
		return nil, fmt.Errorf("quickjs: instantiate: %w", err)
	}
	vm.attach(pooled{inst, ref})
	return vm, nil
}

// keep pools the instance that made the template: it holds the template
// byte for byte, so the first VM needs no instantiation and no write of the
// whole image (in a page that is the first result's critical path).
func (r *Runtime) keep(vm *VM) {
	if r.cfg.PoolSize > 0 && vm.dead == nil {
		r.pool = append(r.pool, pooled{vm.inst, vm.ref})
		vm.dead = ErrClosed // the caller's deferred discard must not close it
	}
}

// TemplateFrom says how the template was made: "image" (Config.Image),
// "bytecode" (the sealed kit and prelude) or "source"; when it was not the
// image, why is the reason (ErrNoImage when none was given).
func (r *Runtime) TemplateFrom() (from string, why error) { return r.from, r.why }

// Image is the template serialized for Config.Image, sealed for this
// runtime's config and module (what a build-time generator writes). A
// deterministic runtime has none: its template holds the fixed clock and the
// Seed's draws, which a normal runtime must not inherit.
func (r *Runtime) Image() ([]byte, error) {
	if r.cfg.Deterministic {
		return nil, errDeterministic
	}
	return encodeImage(r.tmpl, imageSeal(r.version, &r.cfg)), nil
}

// sealed is src's bytecode from sealed, or nil: not wanted, or not made from src.
func (r *Runtime) sealed(want bool, version, src string, sealed []byte) []byte {
	if !want {
		return nil
	}
	return Unseal(version, src, sealed)
}

// TemplateBytes is the size of the template's memory image.
func (r *Runtime) TemplateBytes() int { return len(r.tmpl.mem) }

// NewVM returns a fresh VM in the template's state with the given limits.
func (r *Runtime) NewVM(ctx context.Context, lim Limits) (*VM, error) {
	return r.restore(ctx, r.tmpl, nil, lim)
}

// Restore returns a VM in the state of snap. The snapshot may come from another
// Runtime over the same module, even one on another engine.
func (r *Runtime) Restore(ctx context.Context, snap *Snapshot, lim Limits) (*VM, error) {
	if snap == nil || snap.tmpl == nil {
		return nil, errors.New("quickjs: restore: empty snapshot")
	}
	return r.restore(ctx, snap.tmpl, snap, lim)
}

func (r *Runtime) restore(ctx context.Context, t *template, snap *Snapshot, lim Limits) (*VM, error) {
	vm := &VM{rt: r, tmpl: t, callbacks: map[string]HostFunc{}, grace: GraceTime, graceTicks: GraceTicks}
	if p, ok := r.take(t); ok {
		vm.attach(p)
	} else {
		ref := &hostRef{vm: vm}
		inst, err := r.module.Instantiate(ctx, ref)
		if err != nil {
			return nil, &RuntimeError{Err: err}
		}
		vm.attach(pooled{inst, ref})
		if err := vm.load(t); err != nil {
			vm.discard()
			return nil, err
		}
	}
	sp, rtPtr, ctxPtr := t.sp, t.rtPtr, t.ctxPtr
	if snap != nil {
		if err := snap.apply(vm); err != nil {
			vm.discard()
			return nil, err
		}
		sp, rtPtr, ctxPtr = snap.sp, snap.rtPtr, snap.ctxPtr
		vm.rejections = snap.rejections
		vm.grace, vm.graceTicks = snap.grace, snap.graceTicks
	}
	vm.inst.SetStackPointer(sp)
	if _, err := vm.call("qjs_set_runtime_and_context", uint64(rtPtr), uint64(ctxPtr)); err != nil {
		vm.discard()
		return nil, err
	}
	vm.SetLimits(ctx, lim)
	if snap == nil {
		if err := vm.reseed(); err != nil {
			vm.discard()
			return nil, err
		}
	}
	return vm, nil
}

// load writes the template image into a fresh instance.
func (vm *VM) load(t *template) error {
	if err := vm.growTo(uint32(len(t.mem))); err != nil {
		return err
	}
	if !t.reset(vm.mem) {
		return errors.New("quickjs: cannot write template")
	}
	return nil
}

// pooled is an instance with the indirection its imports dispatch through, so a
// reused instance calls back into whichever VM owns it now.
type pooled struct {
	inst engine.Instance
	ref  *hostRef
}

type hostRef struct{ vm *VM }

func (h *hostRef) CallImport(index int, stack []uint64) { h.vm.CallImport(index, stack) }

// Poll lets the engine stop the owning VM's guest from outside (engine.Poller).
func (h *hostRef) Poll() error { return h.vm.Poll() }

// take returns a pooled instance already holding template t.
func (r *Runtime) take(t *template) (pooled, bool) {
	if t != r.tmpl {
		return pooled{}, false
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	n := len(r.pool)
	if n == 0 {
		return pooled{}, false
	}
	p := r.pool[n-1]
	r.pool = r.pool[:n-1]
	return p, true
}

// recycle resets an instance in place (memory back to the template) and pools
// it. Instances whose memory grew are dropped: linear memory never shrinks.
func (r *Runtime) recycle(p pooled) bool {
	mem := p.inst.Memory()
	if mem.Size() != uint32(len(r.tmpl.mem)) {
		return false
	}
	r.mu.Lock()
	full := len(r.pool) >= r.cfg.PoolSize
	r.mu.Unlock()
	if full || !r.tmpl.reset(mem) {
		return false
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.pool) >= r.cfg.PoolSize {
		return false
	}
	r.pool = append(r.pool, p)
	return true
}

// Close releases pooled instances and the module.
func (r *Runtime) Close(ctx context.Context) error {
	r.mu.Lock()
	pool := r.pool
	r.pool = nil
	r.mu.Unlock()
	for _, p := range pool {
		p.inst.Close(ctx)
	}
	return r.module.Close(ctx)
}

// fillDeterministic is splitmix64 over the runtime's seed.
func (r *Runtime) fillDeterministic(b []byte) {
	r.mu.Lock()
	defer r.mu.Unlock()
	var w [8]byte
	for i := 0; i < len(b); i += 8 {
		r.rng += 0x9E3779B97F4A7C15
		z := r.rng
		z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
		z = (z ^ (z >> 27)) * 0x94D049BB133111EB
		binary.LittleEndian.PutUint64(w[:], z^(z>>31))
		copy(b[i:], w[:])
	}
}

// RuntimeError means an instance could not be created: the engine failed, not
// the guest.
type RuntimeError struct{ Err error }

func (e *RuntimeError) Error() string { return "quickjs runtime unavailable: " + e.Err.Error() }
func (e *RuntimeError) Unwrap() error { return e.Err }
