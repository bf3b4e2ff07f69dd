//go:build js && wasm

package jsengine

import "unsafe"

// The host functions of hostjs/hostengine.js. Instance ids and export indexes are
// small integers the glue hands out; every memory transfer is one copy between
// the Go instance's memory and the QuickJS instance's memory.

//go:wasmimport codemode_host instantiate
func hostInstantiate(module int32) int32

//go:wasmimport codemode_host drop
func hostDrop(inst int32)

//go:wasmimport codemode_host export_index
func hostExportIndex(module int32, name unsafe.Pointer, n int32) int32

// hostCall calls an export whose parameters and result are all i32 (or absent).
// It answers the unsigned result, or -1 when the call threw (a trap, or the
// JavaScript engine's own stack overflow).
//
//go:wasmimport codemode_host call
func hostCall(inst, fn, a0, a1, a2, a3, a4, a5 int32) float64

// hostCallF is hostCall for an export taking one f64 (qjs_new_number).
//
//go:wasmimport codemode_host call_f
func hostCallF(inst, fn int32, x float64) float64

//go:wasmimport codemode_host error_message
func hostErrorMessage(inst int32, dst unsafe.Pointer, n int32) int32

//go:wasmimport codemode_host mem_pages
func hostMemPages(inst int32) int32

//go:wasmimport codemode_host mem_grow
func hostMemGrow(inst, delta int32) int32

//go:wasmimport codemode_host mem_read
func hostMemRead(inst int32, dst unsafe.Pointer, off, n int32) int32

//go:wasmimport codemode_host mem_write
func hostMemWrite(inst int32, src unsafe.Pointer, off, n int32) int32

// hostMemZero clears [off, off+n) of the instance's memory in place (a
// template reset clears the C stack's 1 MiB instead of copying zeros there).
//
//go:wasmimport codemode_host mem_zero
func hostMemZero(inst, off, n int32) int32

//go:wasmimport codemode_host sp_get
func hostSPGet(inst int32) int32

//go:wasmimport codemode_host sp_set
func hostSPSet(inst, v int32)
