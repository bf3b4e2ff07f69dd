package quickjs

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"hash/fnv"

	"github.com/codemode-go/codemode/internal/engine"
)

// Precompiled scripts: the template's kit and a host's prelude are compiled
// to QuickJS bytecode at build time (bcgen), so a start reads bytecode instead
// of parsing them. In a browser that is most of the template's cost: V8
// compiles QuickJS's parser functions on their first call, and a small first
// cell needs few of them. Bytecode is only ever read from files embedded in
// the binary, never from a guest or a request, and only for the pinned
// quickjs.wasm (a wasm binary handed in is checked against the same sum).
//
// A sealed file is an 8-byte FNV-1a hash of the QuickJS version that compiled
// it and the source it was made from, then the bytecode: a source edited
// without `./build.sh gen` no longer matches, nor does a quickjs.wasm of
// another QuickJS handed in as a compiled module (hostjs's modules.quickjs,
// whose bytes the core cannot check; QuickJS itself checks no more than a
// version byte, and other bytecode can trap), and the template falls back to
// evaluating the source.

// sealSize is the length of a sealed file's header.
const sealSize = 8

func sourceHash(version, src string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(version))
	h.Write([]byte{0})
	h.Write([]byte(src))
	return h.Sum64()
}

// Seal is bytecode compiled from src by QuickJS version, prefixed with their
// hash (bcgen's output).
func Seal(version, src string, bytecode []byte) []byte {
	out := binary.LittleEndian.AppendUint64(make([]byte, 0, sealSize+len(bytecode)), sourceHash(version, src))
	return append(out, bytecode...)
}

// Unseal is the bytecode in sealed if QuickJS version made it from src, else nil.
func Unseal(version, src string, sealed []byte) []byte {
	if len(sealed) <= sealSize || binary.LittleEndian.Uint64(sealed) != sourceHash(version, src) {
		return nil
	}
	return sealed[sealSize:]
}

// maxVersionLen bounds the read of QuickJS's version string.
const maxVersionLen = 64

// QuickJSVersion is the version string of the QuickJS this VM runs ("" when
// the module has no such export or no NUL ends it within maxVersionLen bytes,
// which matches no seal).
func (vm *VM) QuickJSVersion() string {
	p, err := vm.call("qjs_get_quickjs_version")
	if err != nil || p == 0 {
		return ""
	}
	b, ok := vm.mem.View(uint32(p), maxVersionLen)
	if i := bytes.IndexByte(b, 0); ok && i >= 0 {
		return string(b[:i])
	}
	return ""
}

// Compile compiles src as a global script to bytecode (with its source and
// line numbers, so stacks and Function.prototype.toString read as from the
// source). It runs nothing. The bytecode is for this module's QuickJS only.
func (vm *VM) Compile(src, filename string) ([]byte, error) {
	s, err := vm.cstring(src)
	if err != nil {
		return nil, err
	}
	defer vm.freePtr(s)
	f, err := vm.cstring(filename)
	if err != nil {
		return nil, err
	}
	defer vm.freePtr(f)
	lenp, err := vm.malloc(4)
	if err != nil {
		return nil, err
	}
	defer vm.freePtr(lenp)
	p, err := vm.call("qjs_compile", uint64(s), uint64(len(src)), uint64(f), 0, 0, uint64(lenp))
	if err != nil {
		return nil, err
	}
	if p == 0 {
		return nil, vm.takeException()
	}
	defer vm.freePtr(uint32(p))
	lb, _ := vm.mem.View(lenp, 4)
	b, ok := engine.Copy(vm.mem, uint32(p), binary.LittleEndian.Uint32(lb))
	if !ok {
		return nil, errors.New("quickjs: bytecode out of bounds")
	}
	return b, nil
}

// evalBytecode runs bytecode made by Compile for this module (embedded only:
// QuickJS does not check bytecode beyond its version, so it must never come
// from untrusted input).
func (vm *VM) evalBytecode(bc []byte) (Value, error) {
	p, err := vm.malloc(uint32(len(bc)))
	if err != nil {
		return 0, err
	}
	defer vm.freePtr(p)
	if !vm.mem.Write(p, bc) {
		return 0, errors.New("quickjs: write out of bounds")
	}
	r, err := vm.call("qjs_eval_bytecode", uint64(p), uint64(len(bc)))
	if err != nil {
		return 0, err
	}
	return vm.result(Value(r))
}

// evalScript evaluates src, from its bytecode when bc is not nil.
func (vm *VM) evalScript(src, filename string, bc []byte) (Value, error) {
	if bc != nil {
		return vm.evalBytecode(bc)
	}
	return vm.Eval(src, filename)
}

// SealFor compiles src (named filename in stacks) with a runtime of its own on
// eng over the pinned quickjs.wasm and seals it: what bcgen writes and what the
// drift tests compare the committed files with.
func SealFor(ctx context.Context, eng engine.Engine, src, filename string) ([]byte, error) {
	rt, err := New(ctx, Config{Engine: eng})
	if err != nil {
		return nil, err
	}
	defer rt.Close(ctx)
	vm, err := rt.NewVM(ctx, Limits{})
	if err != nil {
		return nil, err
	}
	defer vm.Close()
	bc, err := vm.Compile(src, filename)
	if err != nil {
		return nil, err
	}
	return Seal(vm.QuickJSVersion(), src, bc), nil
}

// PinnedVersion is the QuickJS version of the pinned quickjs.wasm, the one
// the committed bytecode is sealed for (TestPinnedVersion checks it).
const PinnedVersion = "0.18.0"
