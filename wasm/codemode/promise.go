//go:build js && wasm

package main

import (
	"syscall/js"

	"github.com/codemode-go/codemode/internal/jspromise"
)

// async returns a Promise settled by work, which runs on its own goroutine
// (jspromise.Async).
func async(work func() (string, error)) js.Value {
	return jspromise.Async(func() (any, error) { return work() })
}

// await waits for p on the calling goroutine. It must never run inside a QuickJS
// import callback; tool executions run on goroutines of their own, so it does not.
func await(p js.Value) (js.Value, error) { return jspromise.Await(p) }
