// Command bcgen compiles a JavaScript file that a runtime evaluates into every
// QuickJS template (the kit, core's prelude) to sealed QuickJS bytecode for the
// pinned quickjs.wasm, so a start reads bytecode instead of parsing the source
// (quickjs.Seal). It runs under go generate (./build.sh gen):
//
//	go run ./internal/quickjs/bcgen SRC.js OUT.bc
//
// The bytecode keeps the source and line numbers, so stacks and
// Function.prototype.toString read as before; the file name in stacks is SRC's
// base name. The output is deterministic: compiling reads no clock or
// randomness.
package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/codemode-go/codemode/internal/engine/wazeroengine"
	"github.com/codemode-go/codemode/internal/quickjs"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: bcgen SRC.js OUT.bc")
		os.Exit(2)
	}
	if err := run(os.Args[1], os.Args[2]); err != nil {
		fmt.Fprintln(os.Stderr, "bcgen:", err)
		os.Exit(1)
	}
}

func run(src, out string) error {
	b, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	ctx := context.Background()
	eng, err := wazeroengine.New(ctx, wazeroengine.Options{})
	if err != nil {
		return err
	}
	defer eng.Close(ctx)
	sealed, err := quickjs.SealFor(ctx, eng, string(b), filepath.Base(src))
	if err != nil {
		return fmt.Errorf("%s: %w", src, err)
	}
	return os.WriteFile(out, sealed, 0o644)
}
