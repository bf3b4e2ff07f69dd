// Command guardwasm applies the loop guard to a module at build time:
//
//	go run ./internal/engine/internal/loopguard/guardwasm IN.wasm OUT.wasm
//
// Why: natively wazeroengine rewrites quickjs.wasm when it loads it, but the
// host engine of a page, Node.js or workerd runs a WebAssembly.Module the shim
// compiled (workerd cannot compile bytes at run time at all), so ./build.sh
// build writes the guarded module into build/web with this command: the same
// rewriter, so every engine stops a long built-in the same way.
package main

import (
	"fmt"
	"os"

	"github.com/codemode-go/codemode/internal/engine/internal/loopguard"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: guardwasm IN.wasm OUT.wasm")
		os.Exit(2)
	}
	in, err := os.ReadFile(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, "guardwasm:", err)
		os.Exit(1)
	}
	out, err := loopguard.Rewrite(in)
	if err != nil {
		fmt.Fprintln(os.Stderr, "guardwasm:", err)
		os.Exit(1)
	}
	if err := os.WriteFile(os.Args[2], out, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "guardwasm:", err)
		os.Exit(1)
	}
}
