//go:build js && wasm

package quickjs

import (
	"github.com/codemode-go/codemode/internal/engine"
	"github.com/codemode-go/codemode/internal/engine/jsengine"
)

// HostEngineForTests is the host's own WebAssembly engine when the tests run
// under hostjs/go_js_wasm_exec.mjs (nil elsewhere); the runtimes of these
// tests (internal and external) then run on it too, so every test and the
// cross-engine snapshot test cover both engines.
func HostEngineForTests() engine.Engine {
	if !jsengine.Available() {
		return nil
	}
	e, err := jsengine.New(jsengine.Options{MaxMemoryPages: 4096})
	if err != nil {
		return nil
	}
	return e
}
