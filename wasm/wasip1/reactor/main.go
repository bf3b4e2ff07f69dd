//go:build wasip1

// Command reactor is the GOOS=wasip1 reactor (-buildmode=c-shared) for
// embedding Code Mode in any WebAssembly host: call _initialize first, then
// the exports below, each taking a request buffer from malloc and returning
// the answer buffer as (address << 32 | length), which the host frees. See
// ../ABI.md.
package main

import (
	"context"

	"github.com/codemode-go/codemode/internal/wasip1"
)

var (
	host = wasip1.NewHost()
	bufs = wasip1.NewBuffers()
)

func main() {}

func call(op string, p, n uint32) uint64 {
	rp, rn := host.Call(context.Background(), bufs, op, uintptr(p), n)
	return uint64(rp)<<32 | uint64(rn)
}

// malloc returns a buffer of n bytes for a request (0 if n is 0 or too large).
//
//go:wasmexport malloc
func malloc(n uint32) uint32 { return uint32(bufs.Alloc(n)) }

// free releases a buffer; unknown addresses are ignored.
//
//go:wasmexport free
func free(p uint32) { bufs.Free(uintptr(p)) }

//go:wasmexport create_runtime
func createRuntime(p, n uint32) uint64 { return call("create_runtime", p, n) }

//go:wasmexport exec
func exec(p, n uint32) uint64 { return call("exec", p, n) }

//go:wasmexport wait
func wait(p, n uint32) uint64 { return call("wait", p, n) }

//go:wasmexport settle
func settle(p, n uint32) uint64 { return call("settle", p, n) }

//go:wasmexport surface
func surface(p, n uint32) uint64 { return call("surface", p, n) }

//go:wasmexport catalog
func catalog(p, n uint32) uint64 { return call("catalog", p, n) }

//go:wasmexport abort
func abort(p, n uint32) uint64 { return call("abort", p, n) }

//go:wasmexport close_runtime
func closeRuntime(p, n uint32) uint64 { return call("close_runtime", p, n) }
