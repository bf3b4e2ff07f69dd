//go:build js && wasm

package cryptorand

import "syscall/js"

// maxGetRandomValues is the most bytes one crypto.getRandomValues call
// fills (the Web Crypto API throws a QuotaExceededError past it).
const maxGetRandomValues = 64 << 10

var (
	webCrypto  = js.Global().Get("crypto")
	uint8Array = js.Global().Get("Uint8Array")
)

// Read fills b with cryptographically secure random bytes from
// crypto.getRandomValues, the source the Go runtime itself reads at start.
// Like crypto/rand.Read it never fails: a host without Web Crypto throws,
// which stops the program.
func Read(b []byte) {
	for len(b) > 0 {
		n := min(len(b), maxGetRandomValues)
		a := uint8Array.New(n)
		webCrypto.Call("getRandomValues", a)
		js.CopyBytesToGo(b[:n], a)
		b = b[n:]
	}
}
