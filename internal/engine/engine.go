// Package engine is the small seam between the QuickJS driver and a WebAssembly
// engine. It is just wide enough for two implementations: wazero (natively with its
// compiler, inside a wasm build with its interpreter) and the host's own
// WebAssembly engine reached through syscall/js (browser, Workers), which lives
// outside core. Everything Code Mode knows stays above this interface.
package engine

import "context"

// ValType is a WebAssembly value type; the QuickJS ABI only uses i32, i64 and f64.
type ValType byte

// The value types of the QuickJS ABI.
const (
	I32 ValType = iota + 1
	I64
	F64
)

// Import declares one function the module imports. The engine binds each import
// to Host.CallImport with the import's index in the list given to Load.
type Import struct {
	// Module is the import's module name.
	// Name is the function name within Module.
	Module, Name string
	// Params are the parameter types.
	// Results are the result types.
	Params, Results []ValType
}

// Host receives the import calls of one instance. stack holds the parameters on
// entry (i32 in the low 32 bits, f64 as IEEE bits) and must hold the results on
// return, as wazero's api.GoModuleFunction does.
type Host interface {
	// CallImport runs import number index (an index into the imports given to
	// Engine.Load) with its parameters and results in stack.
	CallImport(index int, stack []uint64)
}

// Poller is an optional interface of Host: the way an engine enforces the
// run's time limit from outside the guest.
//
// The contract: an engine that implements it (wazeroengine, natively with the
// compiler and with the interpreter) calls Poll at bounded intervals of guest
// work, whatever the guest is doing, including inside a long QuickJS built-in
// (a huge JSON.stringify, a backtracking regex, sort, BigInt to string, a
// typed-array copy): every repeat of a loop (a branch back to its header; the
// bytecode dispatch loop is left to QuickJS's interrupt check) and every 256
// bytes of bulk memory work count, and a poll comes every 2^12 counts (2^10
// on the interpreter).
// Each poll also returns control to Go, so the Go scheduler and garbage
// collector are never held up by guest code. The quickjs driver's Poll stops
// the guest when its context is done, and quickjs.HardStopSlack (50 ms) after
// its deadline if QuickJS's own interrupt has not ended it by then. When Poll returns an
// error the engine stops the instance at once: the export call in progress
// (and every enclosing one) returns that error, later import calls of the
// instance are refused the same way, and the instance must be discarded.
//
// The host engine of a page, Node.js or workerd (jsengine) implements it too
// when the shim hands it the loop-guarded quickjs.wasm that ./build.sh build
// writes (the same rewriter, applied at build time, since workerd cannot
// compile at run time): a poll every 2^12 counts. Its hosts keep their outer
// bounds as well: a page's worker is terminated past timeoutMs plus a grace,
// and a Worker has its CPU limit.
type Poller interface {
	// Poll returns nil to let the guest go on, or the error that stops it.
	Poll() error
}

// Engine compiles modules. It may hold a compilation cache and a page cap.
type Engine interface {
	// Load compiles wasm and checks that it imports nothing beyond imports.
	Load(ctx context.Context, wasm []byte, imports []Import) (Module, error)
	// Close releases the engine's caches; its modules must not be used after.
	Close(ctx context.Context) error
}

// Compiled is an optional interface of Engine: one that was handed the
// compiled quickjs.wasm by its host (internal/engine/jsengine) and ignores the
// bytes Load receives, so the driver need not read or verify any.
type Compiled interface {
	// HasModule reports that Load needs no bytes.
	HasModule() bool
}

// Module is a compiled module that can be instantiated many times.
type Module interface {
	// Instantiate creates an instance without running start functions; import
	// calls go to host.
	Instantiate(ctx context.Context, host Host) (Instance, error)
	// Close releases the compiled code; instances already made may not outlive it.
	Close(ctx context.Context) error
}

// Instance is one running module. Calls are synchronous and may re-enter: an
// import may call exports of the same instance (QuickJS host callbacks do).
// An error from Call means the instance trapped and must be discarded.
type Instance interface {
	// Call calls an exported function with i32/f64 arguments encoded as for
	// Host.CallImport and returns its single result (0 for none).
	Call(export string, args ...uint64) (uint64, error)
	// Memory is the instance's linear memory.
	Memory() Memory
	// StackPointer reads the module's __stack_pointer global.
	StackPointer() uint32
	// SetStackPointer writes it (restoring a snapshot puts it back).
	SetStackPointer(uint32)
	// Close releases the instance; it must not be called afterwards.
	Close(ctx context.Context) error
}

// Memory is the instance's linear memory.
type Memory interface {
	// Size is the current size in bytes.
	Size() uint32
	// Grow adds delta 64 KiB pages; ok is false when the engine's cap refuses.
	Grow(delta uint32) (prevPages uint32, ok bool)
	// View returns memory[off:off+n]. It may alias engine memory (wazero) or be a
	// copy (syscall/js): callers must not keep it across calls into the instance
	// and must write back through Write.
	View(off, n uint32) ([]byte, bool)
	// Write copies p to memory at off.
	Write(off uint32, p []byte) bool
}

// ViewCopier is a Memory whose View returns a fresh copy the caller owns
// (syscall/js, where the memory lives in JavaScript).
type ViewCopier interface {
	Memory
	// ViewCopies marks the engine; it does nothing.
	ViewCopies()
}

// Copy returns memory[off:off+n] as a slice the caller may keep: View itself
// when the engine's View copies anyway, else a copy of it. A QuickJS template
// is a few MiB, and copying it twice at start-up costs a GC cycle in a page.
func Copy(m Memory, off, n uint32) ([]byte, bool) {
	v, ok := m.View(off, n)
	if _, copies := m.(ViewCopier); copies || !ok {
		return v, ok
	}
	return append([]byte(nil), v...), true
}

// Zeroer is an optional interface of Memory that clears a range in place.
// Resetting an instance to its template clears the template's long zero
// stretches (the bottom 1 MiB of quickjs.wasm's memory is its C stack, all but
// about 1.3 KB zero) instead of copying them, about half the bytes a reset
// moves. A Memory without it gets the whole template written.
type Zeroer interface {
	// Zero sets memory[off:off+n] to zero; false when the range is out of bounds.
	Zero(off, n uint32) bool
}

// MemoryReserver is an optional interface of Module: instances made after
// ReserveMemory start with room for that many bytes of linear memory, so
// growing a new instance to the template's size does not copy the memory it
// started with (wazero copied the 1.18 MB minimum memory once per instance).
type MemoryReserver interface {
	// ReserveMemory sets the capacity later instances start with.
	ReserveMemory(bytes uint32)
}

// PageSize is the WebAssembly page size.
const PageSize = 65536

// NestingLimiter is an optional interface of an Engine whose re-entry depth is
// bounded by something the process cannot recover from (the host JavaScript
// engine's native stack). The QuickJS driver refuses a host call nested deeper
// than MaxNesting with a catchable RangeError in the guest.
type NestingLimiter interface {
	// MaxNesting is the deepest host-call nesting the engine survives.
	MaxNesting() int
}
