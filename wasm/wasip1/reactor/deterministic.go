//go:build wasip1 && codemode_deterministic

package main

// The differential test's reactor (wasmtest.DeterministicReactor): fixed guest
// clock and randomness in every runtime, so its cells give the exact values
// the native and GOOS=js runs give. Shipped modules never have it, and no
// request can ask for it.
func init() { host.Deterministic = true }
