package loopguard

import (
	"crypto/sha256"
	"encoding/hex"
)

// pinnedSHA256 is the SHA-256 of the quickjs.wasm whose loops pinnedExempt
// names (quickjs-wasi@3.7.0, the binary internal/quickjs/wasmbin pins).
const pinnedSHA256 = "c0bd8f296e18cf074969f6401b9ecb72609a1323818ec2b9bf7a8f8d740d1363"

// pinnedExempt lists the loops of the pinned quickjs.wasm that get no
// countdown, by function index (imports included, as in the module's
// function index space) and by the loop's ordinal in that function's body
// (1 is the first loop instruction). A module with any other checksum keeps
// every countdown but the dispatch loop's (DispatchTargets): the list is a
// statement about one binary, and TestpinnedExemptionsAreTheNamedLoops checks
// it against that binary's code.
//
// Why these: after the dispatch loop, they were where the guard's cost sat on
// guest compute. Counted on the benchmark workloads (a profiling build of the
// rewriter that counted each loop header), a JavaScript `for` loop ran two
// countdowns per iteration, both in find_own_property, and a JavaScript call
// ran seven, all in JS_CallInternal; the A/B in tests/bench/RESULTS.md
// ("hostjs compute: bounded loops without a countdown") is what they cost.
//
// Why it is safe: the guard only has to keep the work between two polls
// bounded. Each loop here runs a bounded number of times per entry, and each
// entry is itself counted: JS_CallInternal calls QuickJS's interrupt check on
// every call, before any of its loops run, and a property lookup is made by a
// bytecode (which QuickJS counts at every jump and call) or by a built-in
// whose own loops keep their countdown.
var pinnedExempt = map[uint32][]int{
	// JS_CallInternal. Loops 3 and 4 fill the new frame's variables and
	// variable references, loop 31 frees the frame at return: the frame is
	// allocated on the C stack after a stack-overflow check, so these run at
	// most MaxStackSize/8 (64K) times. Loop 5 encloses the dispatch loop and
	// runs once per call and once per exception caught in it. Loop 27 frees a
	// call's function and arguments after it returns: at most the call
	// bytecode's 16-bit argument count plus one.
	93: {3, 4, 5, 27, 31},
	// find_own_property: walks one shape's hash chain for an atom. A chain holds
	// only properties of that object whose atoms share a bucket of a table at
	// least as large as the object's property count; since atom numbers stay
	// below the number of atoms alive at once, a chain of k needs about k*k
	// live atoms, so the memory limit (at most 1 GiB) keeps it under ~8K.
	100: {1},
}

// exemptions returns pinnedExempt for the pinned module, else nil.
func exemptions(wasm []byte) map[uint32][]int {
	sum := sha256.Sum256(wasm)
	if hex.EncodeToString(sum[:]) != pinnedSHA256 {
		return nil
	}
	return pinnedExempt
}
