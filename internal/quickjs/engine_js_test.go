//go:build js && wasm

package quickjs_test

import (
	"github.com/codemode-go/codemode/internal/engine"
	"github.com/codemode-go/codemode/internal/engine/jsengine"
)

// hostEngine is the host's own WebAssembly engine when the test runs under
// hostjs/go_js_wasm_exec.mjs; the "compiled" runtime of these tests then runs on
// it, so every test (and the cross-engine snapshot test) covers both engines.
func hostEngine() engine.Engine {
	if !jsengine.Available() {
		return nil
	}
	e, err := jsengine.New(jsengine.Options{MaxMemoryPages: 4096})
	if err != nil {
		return nil
	}
	return e
}
