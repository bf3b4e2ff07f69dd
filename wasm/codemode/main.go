//go:build js && wasm

// Command codemode is the Code Mode core for JavaScript hosts (GOOS=js): a page's
// Web Worker, Node.js, a Durable Object. hostjs/codemode.js loads it; nothing
// else should.
//
// Boot: the host installs hostjs/hostengine.js, sets globalThis.__codemodeBoot to
// an object with ready(api), and runs the Go instance. ready receives
// {init, exec, wait, surface, catalog, abort, restartTTL, close, ...}: every
// function takes and answers JSON text and returns a Promise, because the work
// runs on goroutines (an import callback must never wait for the JavaScript
// event loop). The operations take the message of the operations table
// (internal/ops: exec's {code, ..., scope}, abort's {runId, scope}) and, for
// exec and wait, the call id.
//
// init(optionsJSON, hooks, quickjsModule) comes first. hooks are
// {callClientTool(name, inputJSON, runId, callId) -> Promise<string>,
// abortClientTool(callId), fetch(url, init) -> Promise<{status, body}>,
// watch(promise, token, settle) (internal/jspromise.Watcher)}.
package main

import (
	"syscall/js"
)

func main() {
	boot := js.Global().Get("__codemodeBoot")
	if boot.Type() != js.TypeObject {
		panic("codemode.wasm must be started by hostjs/codemode.js")
	}
	done := make(chan struct{})
	h := &host{done: done}
	boot.Call("ready", h.api())
	<-done
}
