// Package wasmbin supplies quickjs.wasm, the QuickJS-NG build that the npm
// package quickjs-wasi ships, and checks every copy against the pinned sha256.
//
// In this repository ./build.sh deps copies the binary into blob/ and the build
// embeds it. A module fetched with go get has no build outputs (the binary is not
// in git), so its users hand the runtime the bytes or a path instead; Select
// takes either and falls back to the embedded copy. The directory is embedded
// whole (it always holds README.md), so a missing binary is a clear run-time error
// naming the fix rather than a cryptic compile error.
package wasmbin

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sync"
)

// Package, Version and SHA256 pin the binary; build.sh checks the same values.
const (
	Package = "quickjs-wasi"
	Version = Package + "@3.7.0"
	SHA256  = "c0bd8f296e18cf074969f6401b9ecb72609a1323818ec2b9bf7a8f8d740d1363"
	// NPMPath is where `npm i quickjs-wasi@3.7.0` puts the binary, relative to
	// the directory npm ran in.
	NPMPath = "node_modules/quickjs-wasi/quickjs.wasm"
)

// ErrMissing is wrapped by the error Select returns when no binary was handed
// in and none is embedded.
var ErrMissing = errors.New("quickjs.wasm is missing")

// missingHelp tells a Go user exactly what to do; it names the Options fields of
// package core, the only place a user meets this error.
const missingHelp = "quickjs.wasm is missing: this build does not embed it (a module fetched with go get has no build outputs). " +
	"Install the pinned engine with `npm i " + Version + "` and pass its path, " +
	"core.Options{Engine: core.EngineConfig{QuickJSWasmPath: \"" + NPMPath + "\"}}, or its bytes as core.Options.Engine.QuickJSWasm " +
	"(inside the codemode repository, ./build.sh deps embeds it instead)"

var (
	once     sync.Once
	embedded []byte
	embedErr error
)

// Embedded returns the verified quickjs.wasm built into this binary, or an error
// (wrapping ErrMissing) saying how to supply one.
func Embedded() ([]byte, error) {
	once.Do(func() {
		b, err := blob.ReadFile("blob/quickjs.wasm")
		if errors.Is(err, fs.ErrNotExist) {
			embedErr = errMissing{}
			return
		}
		if err != nil {
			embedErr = err
			return
		}
		if err := Verify(b); err != nil {
			embedErr = fmt.Errorf("embedded %w: run rm -rf node_modules && ./build.sh deps, then rebuild", err)
			return
		}
		embedded = b
	})
	return embedded, embedErr
}

// Bytes returns the embedded binary; see Embedded.
func Bytes() ([]byte, error) { return Embedded() }

// Select returns the binary to run: b when non-nil, else the file at path when
// path is not empty, else the embedded copy. Whatever it returns has passed
// Verify; a path that cannot be read is an error naming it.
func Select(b []byte, path string) ([]byte, error) {
	switch {
	case b != nil:
		if err := Verify(b); err != nil {
			return nil, fmt.Errorf("QuickJSWasm: %w", err)
		}
		return b, nil
	case path != "":
		f, err := os.ReadFile(path)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("QuickJSWasmPath %q does not exist: install the pinned engine with `npm i %s` (it writes %s) and pass that path", path, Version, NPMPath)
		}
		if err != nil {
			return nil, fmt.Errorf("QuickJSWasmPath %q: %w", path, err)
		}
		if err := Verify(f); err != nil {
			return nil, fmt.Errorf("QuickJSWasmPath %q: %w", path, err)
		}
		return f, nil
	}
	return Embedded()
}

// errMissing prints missingHelp and matches ErrMissing with errors.Is.
type errMissing struct{}

func (errMissing) Error() string        { return missingHelp }
func (errMissing) Is(target error) bool { return target == ErrMissing }
