//go:build !codemode_relayonly && !codemode_hostjs

package core

import (
	"context"

	"github.com/codemode-go/codemode/internal/engine"
	"github.com/codemode-go/codemode/internal/engine/wazeroengine"
	"github.com/codemode-go/codemode/internal/tsx"
)

// transformTS compiles a TypeScript cell to JavaScript (esbuild's Go API).
func (rt *Runtime) transformTS(_ context.Context, src string) (string, lineMap, error) {
	js, lm, err := tsx.TransformMapped(src)
	if lm == nil { // never a typed nil inside the interface
		return js, nil, err
	}
	return js, lm, err
}

// newWazero is the default engine: wazero, compiler natively, interpreter on
// request or under GOARCH=wasm.
func newWazero(ctx context.Context, interpreter bool, pages uint32) (engine.Engine, error) {
	return wazeroengine.New(ctx, wazeroengine.Options{Interpreter: interpreter, MaxMemoryPages: pages})
}
