//go:build !(js && wasm)

package quickjs

import "github.com/codemode-go/codemode/internal/engine"

// HostEngineForTests: only GOOS=js has a host engine.
func HostEngineForTests() engine.Engine { return nil }
