//go:build codemode_relayonly && !codemode_hostjs

package wasmbin

import "embed"

// blob is empty under the codemode_relayonly tag: such a program (the
// Worker's Go front) never runs a cell, so it does not carry the engine's
// 0.7 MB; Embedded answers ErrMissing.
var blob embed.FS
