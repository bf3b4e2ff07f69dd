//go:build !(js && wasm)

package quickjs_test

import "github.com/codemode-go/codemode/internal/engine"

// hostEngine: only GOOS=js has a host engine.
func hostEngine() engine.Engine { return nil }
