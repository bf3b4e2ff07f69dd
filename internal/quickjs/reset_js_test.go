//go:build js && wasm

package quickjs

import (
	"github.com/codemode-go/codemode/core/engine"
	"github.com/codemode-go/codemode/core/engine/jsengine"
)

// resetHostEngine is the host's own WebAssembly engine when the test runs
// under hostjs/go_js_wasm_exec.mjs (its memory clears through mem_zero).
func resetHostEngine() engine.Engine {
	if !jsengine.Available() {
		return nil
	}
	e, err := jsengine.New(jsengine.Options{MaxMemoryPages: 4096})
	if err != nil {
		return nil
	}
	return e
}
