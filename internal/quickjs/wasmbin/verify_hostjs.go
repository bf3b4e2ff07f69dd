//go:build codemode_hostjs

package wasmbin

import "errors"

// Verify refuses every binary in hostjs's core (the codemode_hostjs tag):
// its engine runs the module the shim compiled (internal/engine/jsengine
// ignores bytes), so there is nothing handed to Go worth checking, and
// crypto/sha256 would link Go's FIPS 140 module (about 160 KB) into every
// page for this one check. A program that hands the core quickjs.wasm
// (core.EngineConfig.QuickJSWasm or QuickJSWasmPath) needs the build with
// wazero.
func Verify([]byte) error { return errHostJSBytes }

var errHostJSBytes = errors.New(`this core was built for hostjs (codemode_hostjs): it runs the quickjs.wasm its host compiled and takes no quickjs.wasm bytes or path; leave Engine.QuickJSWasm and QuickJSWasmPath unset, or load the build with wazero (createCodeMode({engine: "wazero"}))`)
