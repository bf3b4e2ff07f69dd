package quickjs

import (
	"context"
	"encoding/binary"
	"errors"
	"math"
	"time"

	"github.com/codemode-go/codemode/internal/engine"
	json "github.com/codemode-go/codemode/internal/jsonx"
)

// Value is a JSValue box: an i32 pointer into guest memory. Values returned by VM
// methods are owned by the caller and released with Free, except the static ones
// (Undefined, Global).
type Value uint32

// HostFunc implements a host function. this and args are borrowed: Dup what you
// keep. Return an owned value (0 means undefined) or an error, which the guest
// sees as a thrown Error (use *Throw to pick the name).
type HostFunc func(vm *VM, this Value, args []Value) (Value, error)

// Limits bound one VM. Zero fields mean: no memory limit beyond the engine's page
// cap, a 256 KiB stack, no deadline, no budget.
type Limits struct {
	MemoryLimit  uint32
	MaxStackSize uint32
	// Deadline stops the guest on the wall clock.
	Deadline time.Time
	// InterruptBudget stops the guest after this many interrupt checks (QuickJS
	// checks about once per 10,000 back jumps and calls). Where the clock does
	// not advance inside a busy loop (Cloudflare Workers), only this fires.
	InterruptBudget int64
	// PollBudget stops the guest from outside after this many polls of the
	// engine's loop guard (engine.Poller), 0 meaning no such bound. A long
	// built-in never reaches an interrupt check, so where the clock stands
	// still during CPU work (a deployed Cloudflare Worker) this is what ends
	// it; elsewhere the deadline does.
	PollBudget int64
}

// VM is one QuickJS context in one instance.
type VM struct {
	rt   *Runtime
	tmpl *template
	inst engine.Instance
	mem  engine.Memory
	ref  *hostRef

	callbacks map[string]HostFunc
	depth     int
	// hostDepth counts host calls on the stack, bounded by Runtime.maxNesting.
	hostDepth int
	dead      error

	ctx         context.Context
	deadline    time.Time
	budget      int64
	ticks       int64
	pollBudget  int64
	polls       int64
	interrupted string
	// grace and graceTicks are what is left of the one allowance for
	// host-initiated guest code (see guarded) of this VM's run: a fresh VM gets
	// the whole allowance, a restored one what its snapshot had left.
	grace      time.Duration
	graceTicks int64

	rejections map[uint32]rejection
	// building marks the VM that builds a template: its monotonic clock
	// reads the process start (see clockTimeGet).
	building bool
}

type rejection struct{ promise, reason Value }

func (vm *VM) attach(p pooled) {
	vm.inst, vm.ref, vm.mem = p.inst, p.ref, p.inst.Memory()
	p.ref.vm = vm
	if vm.tmpl == nil {
		vm.tmpl = vm.rt.tmpl
	}
	if vm.ctx == nil {
		vm.ctx = context.Background()
	}
}

// call invokes an export. A trap kills the VM.
func (vm *VM) call(name string, args ...uint64) (uint64, error) {
	if vm.dead != nil {
		return 0, vm.dead
	}
	vm.depth++
	r, err := vm.inst.Call(name, args...)
	vm.depth--
	if err != nil {
		if vm.dead == nil {
			var ie *InterruptError
			if errors.As(err, &ie) {
				vm.dead = ie
			} else {
				vm.dead = &TrapError{Err: err}
			}
		}
		if vm.depth == 0 {
			vm.inst.Close(context.Background())
		}
		return 0, vm.dead
	}
	return r, nil
}

func (vm *VM) growTo(size uint32) error {
	cur := vm.mem.Size()
	if size <= cur {
		return nil
	}
	pages := (size - cur + engine.PageSize - 1) / engine.PageSize
	if _, ok := vm.mem.Grow(pages); !ok {
		return errors.New("quickjs: memory page cap reached")
	}
	return nil
}

// Err is nil while the VM is usable, else why it is not (closed or trapped).
func (vm *VM) Err() error { return vm.dead }

// SetLimits applies limits and resets the interrupt state. ctx cancels the guest.
// It leaves the allowance for host-initiated guest code alone: that is one per
// run, not one per call (see GraceTime).
func (vm *VM) SetLimits(ctx context.Context, lim Limits) {
	if ctx == nil {
		ctx = context.Background()
	}
	vm.ctx, vm.deadline, vm.budget, vm.pollBudget = ctx, lim.Deadline, lim.InterruptBudget, lim.PollBudget
	vm.ticks, vm.polls, vm.interrupted = 0, 0, ""
	vm.applyLimits(lim)
}

// HardStopSlack is how long past its deadline a guest may keep running before
// the engine stops it from outside (engine.Poller). Within it, QuickJS's own
// interrupt ends the guest gracefully (the VM stays reusable); past it the
// guest is inside something that never reaches an interrupt check (a long
// built-in) and the instance is stopped and discarded.
const HardStopSlack = 50 * time.Millisecond

// Poll is the engine's check from outside the guest (engine.Poller). It stops
// the guest at once when the context is done, HardStopSlack after the
// deadline, and when the poll budget (Limits.PollBudget) is spent. The
// deadline includes that of guarded host work.
func (vm *VM) Poll() error {
	if ie, ok := vm.dead.(*InterruptError); ok {
		return ie
	}
	if vm.ctx.Err() != nil {
		return &InterruptError{Reason: "canceled", Stopped: true}
	}
	vm.polls++
	if vm.pollBudget > 0 && vm.polls > vm.pollBudget {
		return &InterruptError{Reason: "budget", Stopped: true}
	}
	if !vm.deadline.IsZero() && time.Since(vm.deadline) > HardStopSlack {
		return &InterruptError{Reason: "deadline", Stopped: true}
	}
	return nil
}

func (vm *VM) applyLimits(lim Limits) {
	mem := uint64(math.MaxUint32)
	if lim.MemoryLimit > 0 {
		mem = uint64(lim.MemoryLimit)
	}
	stack := uint64(defaultStackSize)
	if lim.MaxStackSize > 0 {
		stack = uint64(min(lim.MaxStackSize, MaxStackSize))
	}
	vm.call("qjs_set_memory_limit", mem)
	vm.call("qjs_set_max_stack_size", stack)
	vm.call("qjs_set_interrupt_handler", 1)
	vm.call("qjs_set_promise_rejection_handler", 1)
}

// Interrupted returns why the last interrupt fired, or "".
func (vm *VM) Interrupted() string { return vm.interrupted }

// Ticks is how many interrupt checks the guest has made since SetLimits.
func (vm *VM) Ticks() int64 { return vm.ticks }

func (vm *VM) interrupt() bool {
	vm.ticks++
	switch {
	case vm.interrupted != "":
	case vm.ctx.Err() != nil:
		vm.interrupted = "canceled"
	case vm.budget > 0 && vm.ticks > vm.budget:
		vm.interrupted = "budget"
	case !vm.deadline.IsZero() && time.Now().After(vm.deadline):
		vm.interrupted = "deadline"
	default:
		return false
	}
	return true
}

// The one allowance for host-initiated guest code (describing thrown values,
// unhandled rejections, reseeding) of a run: a VM from NewVM starts with it, a
// Snapshot carries what is left of it and Restore hands that on, so a run
// resumed by any number of wait calls still gets it once. A hostile getter
// gets at most this much time and this many interrupt checks in total, however
// many errors the host has to describe and however often the run is resumed.
const (
	GraceTime  = 250 * time.Millisecond
	GraceTicks = 400
)

var errGraceSpent = errors.New("quickjs: the allowance for describing guest values is spent")

// guarded runs host-initiated guest code under what is left of the allowance,
// so a hostile getter cannot hang it even after the guest's own deadline
// passed. Once the allowance is spent, fn is not run at all.
func (vm *VM) guarded(fn func() error) error {
	if vm.grace <= 0 || vm.graceTicks <= 0 {
		return errGraceSpent
	}
	ctx, dl, b, t, in := vm.ctx, vm.deadline, vm.budget, vm.ticks, vm.interrupted
	began := time.Now()
	vm.ctx, vm.deadline, vm.budget, vm.ticks, vm.interrupted = context.Background(), began.Add(vm.grace), vm.graceTicks, 0, ""
	err := fn()
	vm.grace -= time.Since(began)
	vm.graceTicks -= vm.ticks
	vm.ctx, vm.deadline, vm.budget, vm.ticks, vm.interrupted = ctx, dl, b, t, in
	return err
}

// Handle registers the callback of a host function named in Config.HostFunctions.
func (vm *VM) Handle(name string, fn HostFunc) { vm.callbacks[name] = fn }

// Close returns the instance to the runtime's pool (reset to the template) or
// releases it. The VM is unusable afterwards.
func (vm *VM) Close() {
	if vm.dead != nil {
		return
	}
	vm.dead = ErrClosed
	vm.callbacks = nil
	if !vm.rt.recycle(pooled{vm.inst, vm.ref}) {
		vm.inst.Close(context.Background())
	}
}

// discard releases the instance without pooling it.
func (vm *VM) discard() {
	if vm.dead == nil {
		vm.dead = ErrClosed
		vm.inst.Close(context.Background())
	}
}

// Eval evaluates a global script and returns its completion value.
func (vm *VM) Eval(src, filename string) (Value, error) {
	s, err := vm.cstring(src)
	if err != nil {
		return 0, err
	}
	defer vm.freePtr(s)
	f, err := vm.cstring(filename)
	if err != nil {
		return 0, err
	}
	defer vm.freePtr(f)
	r, err := vm.call("qjs_eval", uint64(s), uint64(len(src)), uint64(f), 0)
	if err != nil {
		return 0, err
	}
	return vm.result(Value(r))
}

// Call calls fn with this and args.
func (vm *VM) Call(fn, this Value, args ...Value) (Value, error) {
	var argv uint32
	if len(args) > 0 {
		p, err := vm.malloc(uint32(4 * len(args)))
		if err != nil {
			return 0, err
		}
		defer vm.freePtr(p)
		b := make([]byte, 4*len(args))
		for i, a := range args {
			binary.LittleEndian.PutUint32(b[4*i:], uint32(a))
		}
		vm.mem.Write(p, b)
		argv = p
	}
	r, err := vm.call("qjs_call", uint64(fn), uint64(this), uint64(len(args)), uint64(argv))
	if err != nil {
		return 0, err
	}
	return vm.result(Value(r))
}

// result turns an exception box into an error.
func (vm *VM) result(v Value) (Value, error) {
	if v == 0 {
		return 0, vm.takeException()
	}
	exc, err := vm.call("qjs_is_exception", uint64(v))
	if err != nil {
		return 0, err
	}
	if exc != 0 {
		vm.call("qjs_free_value", uint64(v))
		return 0, vm.takeException()
	}
	return v, nil
}

func (vm *VM) takeException() error {
	e, err := vm.call("qjs_get_exception")
	if err != nil {
		return err
	}
	exc := Value(e)
	defer vm.Free(exc)
	unc, _ := vm.call("qjs_is_uncatchable_error", uint64(exc))
	if unc != 0 && vm.interrupted != "" {
		return &InterruptError{Reason: vm.interrupted}
	}
	if vm.dead != nil {
		return vm.dead
	}
	return vm.ErrorOf(exc)
}

// ErrorOf describes a guest value as a JSError (name, message, guest stack),
// running the template's own formatter under a short guard.
func (vm *VM) ErrorOf(v Value) *JSError {
	out := &JSError{Name: "Error", Message: "(the thrown value could not be described)"}
	vm.guarded(func() error {
		s, err := vm.Call(vm.tmpl.kit.errorInfo, vm.Undefined(), v)
		if err != nil {
			var je *JSError
			if errors.As(err, &je) && je.IsOutOfMemory() {
				*out = *je
			}
			return err
		}
		defer vm.Free(s)
		str, err := vm.GoString(s)
		if err == nil {
			json.Unmarshal([]byte(str), out)
		}
		return err
	})
	return out
}

// Undefined is the VM's shared undefined box; never Free it.
func (vm *VM) Undefined() Value { return vm.tmpl.kit.undefined }

// Global returns a new box holding the global object.
func (vm *VM) Global() (Value, error) {
	r, err := vm.call("qjs_get_global")
	return Value(r), err
}

// Prelude returns the value Config.Prelude produced (static; never Free it).
func (vm *VM) Prelude() Value { return vm.tmpl.kit.user }

// Free releases an owned value.
func (vm *VM) Free(v Value) {
	if v == 0 || vm.dead != nil {
		return
	}
	if v == vm.tmpl.kit.user || v == vm.tmpl.kit.undefined {
		return
	}
	vm.call("qjs_free_value", uint64(v))
}

// Dup returns a new owned box for the same value.
func (vm *VM) Dup(v Value) (Value, error) {
	r, err := vm.call("qjs_dup_value", uint64(v))
	return Value(r), err
}
