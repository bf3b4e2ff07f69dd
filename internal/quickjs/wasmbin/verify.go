//go:build !codemode_hostjs

package wasmbin

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
)

// Verify checks that b is the pinned quickjs.wasm.
func Verify(b []byte) error {
	sum := sha256.Sum256(b)
	if got := hex.EncodeToString(sum[:]); got != SHA256 {
		return fmt.Errorf("quickjs.wasm has sha256 %s, want %s (%s; reinstall it with `npm i %s`)", got, SHA256, Version, Version)
	}
	return nil
}
