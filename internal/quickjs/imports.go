package quickjs

import (
	"encoding/binary"
	"time"

	"github.com/codemode-go/codemode/internal/engine"
)

// The import layout of quickjs.wasm; the index is what engine.Host receives.
const (
	impHostCall = iota
	impHostInterrupt
	impPromiseRejection
	impModuleNormalize
	impModuleLoad
	impTimezoneOffset
	impClockTimeGet
	impFdWrite
	impFdClose
	impFdFdstatGet
	impFdSeek
	impRandomGet
)

var (
	i32 = engine.I32
	i64 = engine.I64
)

// Imports lists what quickjs.wasm imports. Hosts that implement engine.Engine
// must bind exactly these.
var Imports = []engine.Import{
	impHostCall:         {Module: "env", Name: "host_call", Params: []engine.ValType{i32, i32, i32, i32, i32}, Results: []engine.ValType{i32}},
	impHostInterrupt:    {Module: "env", Name: "host_interrupt", Results: []engine.ValType{i32}},
	impPromiseRejection: {Module: "env", Name: "host_promise_rejection", Params: []engine.ValType{i32, i32, i32}},
	impModuleNormalize:  {Module: "env", Name: "host_module_normalize", Params: []engine.ValType{i32, i32}, Results: []engine.ValType{i32}},
	impModuleLoad:       {Module: "env", Name: "host_module_load", Params: []engine.ValType{i32, i32}, Results: []engine.ValType{i32}},
	impTimezoneOffset:   {Module: "env", Name: "host_get_timezone_offset", Params: []engine.ValType{i32, i32}, Results: []engine.ValType{i32}},
	impClockTimeGet:     {Module: "wasi_snapshot_preview1", Name: "clock_time_get", Params: []engine.ValType{i32, i64, i32}, Results: []engine.ValType{i32}},
	impFdWrite:          {Module: "wasi_snapshot_preview1", Name: "fd_write", Params: []engine.ValType{i32, i32, i32, i32}, Results: []engine.ValType{i32}},
	impFdClose:          {Module: "wasi_snapshot_preview1", Name: "fd_close", Params: []engine.ValType{i32}, Results: []engine.ValType{i32}},
	impFdFdstatGet:      {Module: "wasi_snapshot_preview1", Name: "fd_fdstat_get", Params: []engine.ValType{i32, i32}, Results: []engine.ValType{i32}},
	impFdSeek:           {Module: "wasi_snapshot_preview1", Name: "fd_seek", Params: []engine.ValType{i32, i64, i32, i32}, Results: []engine.ValType{i32}},
	impRandomGet:        {Module: "wasi_snapshot_preview1", Name: "random_get", Params: []engine.ValType{i32, i32}, Results: []engine.ValType{i32}},
}

const (
	errnoSuccess = 0
	errnoBadf    = 8
	errnoInval   = 28
	errnoSpipe   = 70
)

// CallImport dispatches one import call of this VM's instance. The guest gets no
// file system, network, environment or host time zone: fd_write is swallowed,
// the time zone is UTC, and only the clocks and randomness are real (or fixed in
// deterministic mode).
func (vm *VM) CallImport(index int, stack []uint64) {
	switch index {
	case impHostCall:
		stack[0] = uint64(vm.hostCall(uint32(stack[0]), uint32(stack[1]), Value(stack[2]), uint32(stack[3]), uint32(stack[4])))
	case impHostInterrupt:
		if vm.interrupt() {
			stack[0] = 1
		} else {
			stack[0] = 0
		}
	case impPromiseRejection:
		vm.promiseRejection(Value(stack[0]), Value(stack[1]), uint32(stack[2]) != 0)
	case impModuleNormalize, impModuleLoad:
		stack[0] = 0 // no modules: QuickJS raises an error in the guest
	case impTimezoneOffset:
		stack[0] = 0
	case impClockTimeGet:
		stack[0] = vm.clockTimeGet(uint32(stack[0]), uint32(stack[2]))
	case impFdWrite:
		stack[0] = vm.fdWrite(uint32(stack[0]), uint32(stack[1]), uint32(stack[2]), uint32(stack[3]))
	case impFdClose:
		stack[0] = errnoBadf
	case impFdFdstatGet:
		stack[0] = vm.fdstat(uint32(stack[0]), uint32(stack[1]))
	case impFdSeek:
		stack[0] = errnoSpipe
	case impRandomGet:
		stack[0] = vm.randomGet(uint32(stack[0]), uint32(stack[1]))
	}
}

func (vm *VM) clockTimeGet(id, out uint32) uint64 {
	if id > 3 {
		return errnoInval
	}
	var ns uint64
	if vm.rt.cfg.Deterministic {
		ns = uint64(vm.rt.cfg.clock().UnixNano())
	} else if id == 0 {
		ns = uint64(time.Now().UnixNano())
	} else if vm.building {
		// The template's performance.now() origin is the process start, so a
		// template image made at build time counts from the loading process's
		// start like one built in it, never below zero.
		ns = 1
	} else {
		ns = uint64(time.Since(processStart).Nanoseconds()) + 1
	}
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], ns)
	if !vm.mem.Write(out, b[:]) {
		return errnoInval
	}
	return errnoSuccess
}

var processStart = time.Now()

func (vm *VM) fdWrite(fd, iovs, n, out uint32) uint64 {
	if fd != 1 && fd != 2 {
		return errnoBadf
	}
	total := uint32(0)
	for i := uint32(0); i < n && i < 1024; i++ {
		v, ok := vm.mem.View(iovs+i*8, 8)
		if !ok {
			return errnoInval
		}
		total += binary.LittleEndian.Uint32(v[4:])
	}
	var b [4]byte
	binary.LittleEndian.PutUint32(b[:], total)
	vm.mem.Write(out, b[:])
	return errnoSuccess
}

func (vm *VM) fdstat(fd, out uint32) uint64 {
	if fd != 1 && fd != 2 {
		return errnoBadf
	}
	var b [24]byte
	b[0] = 2 // character device
	if !vm.mem.Write(out, b[:]) {
		return errnoInval
	}
	return errnoSuccess
}

func (vm *VM) randomGet(buf, n uint32) uint64 {
	if n > 1<<20 {
		return errnoInval
	}
	b := make([]byte, n)
	vm.randomGet2(b)
	if !vm.mem.Write(buf, b) {
		return errnoInval
	}
	return errnoSuccess
}
