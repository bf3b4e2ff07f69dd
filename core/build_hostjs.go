//go:build codemode_hostjs && !codemode_relayonly

package core

import (
	"context"
	"errors"
	"fmt"

	"github.com/codemode-go/codemode/internal/engine"
	"github.com/codemode-go/codemode/internal/tsx"
)

// The codemode_hostjs tag builds the core that hostjs ships (build/web's
// codemode.wasm, for pages and the Worker's session objects): QuickJS runs on
// the host's own WebAssembly engine (internal/engine/jsengine), so wazero stays
// out, and the TypeScript compiler (esbuild, about a third of the binary)
// runs in tsx.wasm, which the shim loads only for TypeScript cells and hands
// in as hostopts.Options.TransformTS. Those two and the MCP SDK (core/mcp) are what a
// page never runs: see tests/bench/RESULTS.md for what each weighs.
var errHostJSBuild = errors.New(`this core was built for hostjs (codemode_hostjs): it has no wazero engine; createCodeMode({engine: "wazero"}) loads the build that has one`)

// transformTS runs the transform through hostopts.Options.TransformTS and reads its
// answer with the same decoder and line map as every build.
func (rt *Runtime) transformTS(ctx context.Context, src string) (string, lineMap, error) {
	if rt.opts.host.TransformTS == nil {
		return "", nil, errors.New("TypeScript is not available in this host: its core has no TypeScript transform (hostjs loads tsx.wasm beside codemode.wasm; a host passing modules must pass modules.tsx). Write the cell in JavaScript, or set language to \"javascript\".")
	}
	out, err := rt.opts.host.TransformTS(ctx, src)
	if err != nil {
		return "", nil, fmt.Errorf("TypeScript transform unavailable: %v", err)
	}
	js, lm, err := tsx.Decode(out)
	if lm == nil { // never a typed nil inside the interface
		return js, nil, err
	}
	return js, lm, err
}

func newWazero(context.Context, bool, uint32) (engine.Engine, error) { return nil, errHostJSBuild }
