//go:build !codemode_hostjs

// Package typescript is the core's TypeScript transform for a program that
// runs it apart from the core: hostjs's tsx.wasm (wasm/tsx), which a page
// downloads only when it runs TypeScript, for a core built without the
// compiler (the codemode_hostjs tag) that calls it through
// hostopts.Options.TransformTS. It is the transform the core runs in-process in
// every other build (internal/tsx), not a second one.
package typescript

import "github.com/codemode-go/codemode/internal/tsx"

// Transform compiles one TypeScript cell and answers the outcome as JSON text
// for hostopts.Options.TransformTS: the JavaScript body with its line map, or the
// syntax error as the model reads it ("typescript:LINE:COL: ...").
func Transform(src string) []byte {
	return tsx.Encode(tsx.TransformMapped(src))
}
