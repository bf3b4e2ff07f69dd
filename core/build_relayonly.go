//go:build codemode_relayonly

package core

import (
	"context"
	"errors"

	"github.com/codemode-go/codemode/internal/engine"
)

// The codemode_relayonly build tag leaves out what only running cells needs:
// esbuild (TypeScript) and wazero (the default engine), about ten MB of a
// WebAssembly binary. It is for programs that only build RelayOnly runtimes,
// like the Cloudflare Worker's Go front, which must fit the Worker's size limit
// beside the session object's full core. Options.Engine still works.
var errRelayOnlyBuild = errors.New("this program was built with the codemode_relayonly tag: it cannot run cells without Options.Engine")

func (rt *Runtime) transformTS(context.Context, string) (string, lineMap, error) {
	return "", nil, errRelayOnlyBuild
}

func newWazero(context.Context, bool, uint32) (engine.Engine, error) { return nil, errRelayOnlyBuild }
