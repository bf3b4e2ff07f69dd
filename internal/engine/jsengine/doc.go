// Package jsengine implements engine.Engine on the host's own WebAssembly engine
// (V8 in Chromium, Node.js and workerd) for a GOOS=js build of the core.
//
// The host hands in a compiled WebAssembly.Module of quickjs.wasm: nothing is
// compiled inside the core, because workerd refuses code generation from bytes.
// Every crossing avoids syscall/js on the hot path, which costs 12-25 us per call
// (see shared/notes/wasm-hosts.md):
//
//   - Go calls QuickJS exports and copies guest memory through //go:wasmimport
//     functions of the "codemode_host" module (about 25 ns a call), which the
//     JavaScript glue (hostjs/hostengine.js) installs into the Go instance's
//     import object before it starts.
//   - QuickJS's own imports are bound to //go:wasmexport functions of the same Go
//     binary, never to js.FuncOf callbacks.
//
// Each level of guest -> host -> guest re-entry uses the JavaScript engine's
// native stack, and running out of it kills the Go runtime without a
// recoverable error. The engine therefore reports a nesting bound
// (engine.NestingLimiter) that the QuickJS driver enforces with a catchable
// RangeError.
//
// An import callback must never wait for the JavaScript event loop (a Promise,
// fetch, postMessage): that is a fatal deadlock of the Go runtime. Hosts run
// such work on goroutines and settle it between QuickJS calls, as the core does
// for every asynchronous tool.
//
// The package builds only for GOOS=js GOARCH=wasm.
package jsengine
