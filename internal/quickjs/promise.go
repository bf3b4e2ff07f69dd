package quickjs

import "encoding/binary"

// Resolvers are the resolve and reject functions of a promise the host settles
// later. They are plain boxes in guest memory: keep them with a snapshot and
// they are valid again in the restored VM.
type Resolvers struct {
	Resolve Value `json:"resolve"`
	Reject  Value `json:"reject"`
}

// PromiseState is a promise's state.
type PromiseState int

const (
	Pending PromiseState = iota
	Fulfilled
	Rejected
	NotAPromise PromiseState = -1
)

// NewPromise creates a promise and its resolvers.
func (vm *VM) NewPromise() (Value, Resolvers, error) {
	out, err := vm.malloc(8)
	if err != nil {
		return 0, Resolvers{}, err
	}
	defer vm.freePtr(out)
	r, err := vm.call("qjs_new_promise", uint64(out), uint64(out+4))
	if err != nil {
		return 0, Resolvers{}, err
	}
	p, err := vm.result(Value(r))
	if err != nil {
		return 0, Resolvers{}, err
	}
	b, _ := vm.mem.View(out, 8)
	return p, Resolvers{Value(binary.LittleEndian.Uint32(b)), Value(binary.LittleEndian.Uint32(b[4:]))}, nil
}

// Settle resolves (ok) or rejects the promise with v and releases the resolvers.
// It does not run jobs; call RunJobs.
func (vm *VM) Settle(r Resolvers, ok bool, v Value) error {
	fn := r.Reject
	if ok {
		fn = r.Resolve
	}
	res, err := vm.Call(fn, vm.Undefined(), v)
	vm.Free(res)
	vm.Free(r.Resolve)
	vm.Free(r.Reject)
	return err
}

// State returns p's state.
func (vm *VM) State(p Value) PromiseState {
	r, err := vm.call("qjs_promise_state", uint64(p))
	if err != nil {
		return NotAPromise
	}
	return PromiseState(int32(r))
}

// PromiseResult returns a settled promise's value or reason.
func (vm *VM) PromiseResult(p Value) (Value, error) {
	r, err := vm.call("qjs_promise_result", uint64(p))
	if err != nil {
		return 0, err
	}
	return vm.result(Value(r))
}

// JobsPending reports whether promise jobs wait to run.
func (vm *VM) JobsPending() bool {
	r, _ := vm.call("qjs_is_job_pending")
	return r != 0
}

// RunJobs drains the job queue. A job that throws uncatchably (interrupt, out of
// memory) stops the drain with that error; ordinary rejections stay inside
// their promises.
func (vm *VM) RunJobs() error {
	for vm.JobsPending() {
		r, err := vm.call("qjs_execute_pending_job")
		if err != nil {
			return err
		}
		if int32(r) < 0 {
			return vm.takeException()
		}
	}
	return nil
}

// RunGC runs the garbage collector.
func (vm *VM) RunGC() { vm.call("qjs_run_gc") }

// AllocatedBytes is what QuickJS has allocated (what MemoryLimit bounds).
func (vm *VM) AllocatedBytes() uint32 {
	r, _ := vm.call("qjs_get_allocated_size")
	return uint32(r)
}

// MemoryBytes is the size of the instance's linear memory.
func (vm *VM) MemoryBytes() uint32 { return vm.mem.Size() }
