//go:build !(js && wasm)

package quickjs

import "github.com/codemode-go/codemode/core/engine"

// resetHostEngine: only GOOS=js has a host engine.
func resetHostEngine() engine.Engine { return nil }
