//go:build !codemode_hostjs && !codemode_relayonly

package wasmbin

import "embed"

// blob holds quickjs.wasm when ./build.sh deps placed it in blob/.
//
//go:embed blob
var blob embed.FS
