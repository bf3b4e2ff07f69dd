//go:build js && wasm && !codemode_relayonly

package core

import (
	"github.com/codemode-go/codemode/internal/engine"
	"github.com/codemode-go/codemode/internal/engine/jsengine"
)

// defaultHostEngine picks the host's own WebAssembly engine under GOOS=js when
// the host installed it with a compiled quickjs.wasm (hostjs/hostengine.js);
// Options.Engine.Interpreter keeps wazero's interpreter.
func defaultHostEngine(opts Options, pages uint32) (engine.Engine, error) {
	if opts.Engine.Interpreter || !jsengine.Available() {
		return nil, nil
	}
	return jsengine.New(jsengine.Options{MaxMemoryPages: pages})
}
