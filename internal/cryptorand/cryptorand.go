//go:build !(js && wasm)

package cryptorand

import "crypto/rand"

// Read fills b with cryptographically secure random bytes. Like
// crypto/rand.Read it never fails: a platform without a random source
// stops the program.
func Read(b []byte) { rand.Read(b) }
