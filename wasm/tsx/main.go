//go:build js && wasm

// Command tsx is the core's TypeScript transform as a GOOS=js program of its
// own (build/web's tsx.wasm): hostjs's codemode.wasm is built without the
// compiler (the codemode_hostjs tag), so a page that runs only JavaScript
// never downloads it. hostjs/core.js loads it on the first TypeScript cell,
// or in the background once a core whose config allows TypeScript is idle.
//
// Boot: the host sets globalThis.__codemodeTsxBoot to an object with
// ready(api) and runs the Go instance; api.transform(src) answers
// internal/typescript.Transform's JSON text synchronously (the transform is pure
// Go: it never waits for the JavaScript event loop).
package main

import (
	"syscall/js"

	"github.com/codemode-go/codemode/internal/typescript"
)

func main() {
	boot := js.Global().Get("__codemodeTsxBoot")
	if boot.Type() != js.TypeObject {
		panic("tsx.wasm must be started by hostjs/core.js")
	}
	api := js.Global().Get("Object").New()
	api.Set("transform", js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) == 0 || args[0].Type() != js.TypeString {
			return `{"error":"typescript: transform needs the cell's source text"}`
		}
		return string(typescript.Transform(args[0].String()))
	}))
	boot.Call("ready", api)
	select {}
}
