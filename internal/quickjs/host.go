package quickjs

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/codemode-go/codemode/internal/cryptorand"
)

// hostCall runs a host function. Whatever happens, including a panic, the guest
// sees a thrown plain Error and the process keeps running.
func (vm *VM) hostCall(namePtr, nameLen uint32, this Value, argc, argv uint32) (ret Value) {
	defer func() {
		if p := recover(); p != nil {
			ret = vm.throw(&Throw{Name: "Error", Message: "internal error in a host function"})
		}
	}()
	nb, ok := vm.mem.View(namePtr, nameLen)
	if !ok {
		return vm.throw(errors.New("bad host function name"))
	}
	fn := vm.callbacks[string(nb)]
	if fn == nil {
		return vm.throw(&Throw{Name: "Error", Message: "host function " + string(nb) + " is not available"})
	}
	if max := vm.rt.maxNesting; max > 0 && vm.hostDepth >= max {
		return vm.throw(&Throw{Name: "RangeError", Message: fmt.Sprintf("host calls nested too deeply (limit %d)", max)})
	}
	vm.hostDepth++
	defer func() { vm.hostDepth-- }()
	var args []Value
	if argc > 0 {
		if argc > 64 {
			argc = 64
		}
		ab, ok := vm.mem.View(argv, 4*argc)
		if !ok {
			return vm.throw(errors.New("bad host function arguments"))
		}
		args = make([]Value, argc)
		for i := range args {
			args[i] = Value(binary.LittleEndian.Uint32(ab[4*i:]))
		}
	}
	res, err := fn(vm, this, args)
	if err != nil {
		return vm.throw(err)
	}
	if res == 0 {
		d, _ := vm.Dup(vm.Undefined())
		return d
	}
	return res
}

// throw raises err in the guest as a plain Error (no host object crosses) and
// returns the 0 box that tells the C trampoline an exception is pending.
func (vm *VM) throw(err error) Value {
	name, msg := "Error", err.Error()
	var t *Throw
	if errors.As(err, &t) {
		name, msg = t.Name, t.Message
	}
	var je *JSError
	if errors.As(err, &je) {
		name, msg = je.Name, je.Message
	}
	e, xerr := vm.NewError(name, msg)
	if xerr != nil {
		return 0 // NewError's own exception (e.g. out of memory) is pending
	}
	r, _ := vm.call("qjs_throw", uint64(e))
	vm.Free(Value(r))
	vm.Free(e)
	return 0
}

// promiseRejection tracks rejections nobody handles (yet). The host owns both boxes.
func (vm *VM) promiseRejection(promise, reason Value, handled bool) {
	key, _ := vm.call("qjs_get_value_ptr", uint64(promise))
	k := uint32(key)
	if old, ok := vm.rejections[k]; ok {
		vm.Free(old.promise)
		vm.Free(old.reason)
		delete(vm.rejections, k)
	}
	if handled {
		vm.Free(promise)
		vm.Free(reason)
		return
	}
	if vm.rejections == nil {
		vm.rejections = map[uint32]rejection{}
	}
	vm.rejections[k] = rejection{promise, reason}
}

// UnhandledRejections returns and clears the promises rejected with no handler
// attached, described as errors, in no particular order.
func (vm *VM) UnhandledRejections() []*JSError {
	var out []*JSError
	for k, r := range vm.rejections {
		out = append(out, vm.ErrorOf(r.reason))
		vm.Free(r.promise)
		vm.Free(r.reason)
		delete(vm.rejections, k)
	}
	return out
}

// randomGet2 fills b with the VM's randomness source.
func (vm *VM) randomGet2(b []byte) {
	if vm.rt.cfg.Deterministic {
		vm.rt.fillDeterministic(b)
	} else {
		cryptorand.Read(b)
	}
}
