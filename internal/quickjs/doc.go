// Package quickjs drives QuickJS-NG compiled to WebAssembly (the quickjs.wasm of
// the npm package quickjs-wasi) through an engine.Engine. It owns the VM and
// nothing of Code Mode: create from a template snapshot, evaluate, values and
// host functions, promises the host settles later, job draining, limits
// (memory, stack, wall-clock deadline and interrupt budget), and snapshots that
// store only what differs from the template.
//
// Every JSValue crosses the ABI as an i32 pointer to an 8-byte box in linear
// memory (type Value). Boxes live in guest memory, so a box the host keeps (a
// promise's resolve function, say) survives snapshot and restore unchanged.
//
// A VM is not safe for concurrent use. A trap discards the VM; nothing a guest
// does can take the process down.
package quickjs

//go:generate go run ./bcgen kit.js kit.bc
