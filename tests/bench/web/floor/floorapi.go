//go:build js && wasm

package main

import "syscall/js"

// floorAPI is the boot contract of wasm/codemode (hostjs/core.js's runGo and
// the worker's calls) with no work behind it: init and exec answer at once,
// exec with the value the bench page checks. It measures what the page pays
// before the core does anything, never a result of the core.
func floorAPI() js.Value {
	answer := func(text string) js.Func {
		return js.FuncOf(func(js.Value, []js.Value) any { return js.Global().Get("Promise").Call("resolve", text) })
	}
	api := js.Global().Get("Object").New()
	api.Set("init", answer(`{"timeoutMs":1000,"languages":["javascript"],"failures":{}}`))
	api.Set("exec", answer(`{"value":42}`))
	for _, m := range []string{"wait", "warmUp", "warmUpCalls", "surface", "catalog", "abort", "restartTTL", "close", "stats", "transcript", "checkConfig"} {
		api.Set(m, answer(`{}`))
	}
	return api
}

// floorCore is what floor.mjs's "size" variant hands to the boot instead of
// wasm/codemode's api (main.go is replaced through `go build -overlay`): the
// real api stays linked and every package init runs, but only a page that
// sets __codemodeRealCore (none does) gets it.
func floorCore(real func() js.Value) js.Value {
	if js.Global().Get("__codemodeRealCore").Truthy() {
		return real()
	}
	return floorAPI()
}
