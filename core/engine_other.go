//go:build !(js && wasm) || codemode_relayonly

package core

import "github.com/codemode-go/codemode/internal/engine"

// defaultHostEngine: outside GOOS=js there is no host engine; wazero is used.
func defaultHostEngine(Options, uint32) (engine.Engine, error) { return nil, nil }
