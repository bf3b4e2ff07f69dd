//go:build js && wasm

package jsengine

import (
	"runtime"
	"sync"
	"time"
)

// QuickJS's imports land here: hostjs/hostengine.js binds each of the module's
// imports to one of these exports with the instance id in front. host_call and
// host_interrupt, the frequent ones, have their own typed entry points; the
// rest share codemode_import with float64 arguments (every value the ABI passes
// there fits a float64 exactly).

// yieldEvery bounds how often a spinning guest yields to other goroutines.
const yieldEvery = 2 * time.Millisecond

var lastYield time.Time

var (
	liveMu sync.Mutex
	live   = map[int32]*instance{}
)

func lookup(id int32) *instance {
	liveMu.Lock()
	in := live[id]
	liveMu.Unlock()
	return in
}

//go:wasmexport codemode_host_call
func exportHostCall(id, a0, a1, a2, a3, a4 int32) int32 {
	in := lookup(id)
	if in == nil {
		return 0
	}
	st := in.stack[:]
	st[0], st[1], st[2], st[3], st[4] = uint64(uint32(a0)), uint64(uint32(a1)), uint64(uint32(a2)), uint64(uint32(a3)), uint64(uint32(a4))
	in.host.CallImport(in.mod.hostCallIndex, st)
	return int32(uint32(st[0]))
}

//go:wasmexport codemode_host_interrupt
func exportHostInterrupt(id int32) int32 {
	in := lookup(id)
	if in == nil {
		return 1
	}
	st := in.stack[:]
	st[0] = 0
	in.host.CallImport(in.mod.interruptIndex, st)
	// GOOS=js has one thread and a spinning guest never returns to the Go
	// scheduler on its own: let other goroutines (another run, an abort, an
	// expired timer) advance, at most every yieldEvery so guest compute does
	// not pay for a scheduler pass at each of QuickJS's interrupt checks.
	if now := time.Now(); now.Sub(lastYield) >= yieldEvery {
		lastYield = now
		runtime.Gosched()
	}
	return int32(uint32(st[0]))
}

// pollImport is the loop guard's import (loopguard.PollModule.PollName).
const pollImport = "codemode.poll"

// pollInterval is the countdown until the next poll: 2^12 loop iterations or
// 1 MiB of bulk memory work, as wazero's compiler gets natively.
const pollInterval = 1 << 12

// exportHostPoll serves the loop guard of a guarded quickjs.wasm: it asks the
// host's engine.Poller whether the guest must stop (the deadline, a context
// already done) and returns the next countdown, or -1 when the instance must
// stop: the glue then throws out of the import, which unwinds every wasm frame
// up to the export call, and Call returns the poll's error.
//
// It never yields to other goroutines (unlike natively): with one thread, a
// runtime.Gosched here let another goroutine enter a second VM above this
// one's frames, and the Go runtime then crashed ("memory access out of
// bounds") in the core's GOOS=js suite. So inside a long built-in a cancel
// from another goroutine is seen only at the deadline.
//
//go:wasmexport codemode_host_poll
func exportHostPoll(id int32) int32 {
	in := lookup(id)
	if in == nil {
		return -1
	}
	if in.stopped == nil && in.poller != nil {
		if err := in.poller.Poll(); err != nil {
			in.stopped = err
		}
	}
	if in.stopped != nil {
		return -1
	}
	return pollInterval
}

//go:wasmexport codemode_import
func exportImport(id, index int32, a0, a1, a2, a3 float64) float64 {
	in := lookup(id)
	if in == nil || index < 0 || int(index) >= len(in.mod.imports) {
		return 0
	}
	imp := in.mod.imports[index]
	var st [4]uint64
	for i, a := range [4]float64{a0, a1, a2, a3} {
		if i < len(imp.Params) {
			st[i] = toSlot(imp.Params[i], a)
		}
	}
	in.host.CallImport(int(index), st[:])
	if len(imp.Results) == 0 {
		return 0
	}
	return fromSlot(imp.Results[0], st[0])
}
