//go:build !codemode_hostjs

package wasmbin

import "embed"

//go:embed blob
var blob embed.FS
