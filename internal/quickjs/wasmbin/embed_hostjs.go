//go:build codemode_hostjs

package wasmbin

import "embed"

// blob is empty in hostjs's core (the codemode_hostjs tag): the shim compiles
// quickjs.wasm itself and hands the engine the module (internal/engine/jsengine),
// so the bytes would only add to the download. Embedded answers ErrMissing.
var blob embed.FS
