// Package wasmbin embeds quickjs.wasm, the QuickJS-NG build that the npm package
// quickjs-wasi ships. The binary is not in git: ./build.sh deps copies it here
// from the pinned package and checks its sha256. The directory is embedded whole
// (it always holds README.md) so a missing binary is a clear run-time error naming
// the fix rather than a cryptic compile error.
package wasmbin

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"sync"
)

// Version and SHA256 pin the binary; build.sh checks the same values.
const (
	Version = "quickjs-wasi@3.7.0"
	SHA256  = "c0bd8f296e18cf074969f6401b9ecb72609a1323818ec2b9bf7a8f8d740d1363"
)

//go:embed blob
var blob embed.FS

var (
	once sync.Once
	bin  []byte
	err  error
)

// Bytes returns the verified quickjs.wasm.
func Bytes() ([]byte, error) {
	once.Do(func() {
		b, e := blob.ReadFile("blob/quickjs.wasm")
		if e != nil {
			err = fmt.Errorf("quickjs.wasm is not built in (internal/quickjs/wasmbin/blob/quickjs.wasm is missing): run ./build.sh deps, then rebuild")
			return
		}
		sum := sha256.Sum256(b)
		if got := hex.EncodeToString(sum[:]); got != SHA256 {
			err = fmt.Errorf("quickjs.wasm has sha256 %s, want %s (%s): run rm -rf node_modules && ./build.sh deps, then rebuild", got, SHA256, Version)
			return
		}
		bin = b
	})
	return bin, err
}
