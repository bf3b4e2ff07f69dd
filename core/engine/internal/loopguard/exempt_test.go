package loopguard

import (
	"bytes"
	"slices"
	"testing"

	"github.com/codemode-go/codemode/internal/quickjs/wasmbin"
)

// TestPinnedExemptionsAreTheNamedLoops checks pinnedExempt against the pinned
// quickjs.wasm: exactly the listed loops and the dispatch loop go without a
// countdown, and each listed loop has the shape its comment names.
func TestPinnedExemptionsAreTheNamedLoops(t *testing.T) {
	if pinnedSHA256 != wasmbin.SHA256 {
		t.Fatalf("pinnedSHA256 %s is not the pinned binary's %s: re-derive pinnedExempt for the new binary", pinnedSHA256, wasmbin.SHA256)
	}
	wasm, err := wasmbin.Bytes()
	if err != nil {
		t.Skip(err)
	}
	loops := map[uint32]map[int]loopSpan{}
	if _, err := rewrite(wasm, func(fn uint32, l loopSpan) {
		if loops[fn] == nil {
			loops[fn] = map[int]loopSpan{}
		}
		loops[fn][l.ord] = l
	}); err != nil {
		t.Fatal(err)
	}
	for fn, ords := range pinnedExempt {
		for _, o := range ords {
			if _, ok := loops[fn][o]; !ok {
				t.Errorf("function %d has no loop %d", fn, o)
			}
		}
	}
	dispatch := 0
	for fn, ls := range loops {
		for _, l := range ls {
			if l.dispatch {
				dispatch++
			}
			want := !l.dispatch && !slices.Contains(pinnedExempt[fn], l.ord)
			if l.countdown != want {
				t.Errorf("function %d loop %d: countdown %v, want %v", fn, l.ord, l.countdown, want)
			}
		}
	}

	bodies := codeBodies(t, wasm)
	span := func(fn uint32, ord int) []byte {
		l := loops[fn][ord]
		return bodies[fn][l.start:l.end]
	}
	// JS_CallInternal holds the module's one dispatch loop (its loop 6), and
	// loop 5 encloses it.
	call := loops[93]
	if dispatch != 1 || !call[6].dispatch {
		t.Errorf("want one dispatch loop, function 93's loop 6; have %d, loop 6 dispatch=%v", dispatch, call[6].dispatch)
	}
	if call[5].start >= call[6].start || call[5].end <= call[6].end {
		t.Errorf("function 93's loop 5 (%d-%d) does not enclose the dispatch loop (%d-%d)", call[5].start, call[5].end, call[6].start, call[6].end)
	}
	// Loop 3 stores JS_UNDEFINED (tag 3 in the high word) into each variable,
	// loop 4 zeroes each variable reference.
	undefined := []byte{0x42, 0x80, 0x80, 0x80, 0x80, 0x30} // i64.const 3<<32
	if !bytes.Contains(span(93, 3), undefined) {
		t.Error("function 93's loop 3 does not store JS_UNDEFINED")
	}
	if !bytes.Contains(span(93, 4), []byte{0x41, 0x00, 0x36}) { // i32.const 0; i32.store
		t.Error("function 93's loop 4 does not store zeros")
	}
	// Loops 27 and 31 call one function per value, the same one (JS_FreeValue).
	free := []byte{0x10, 40} // call 40
	for _, o := range []int{27, 31} {
		if bytes.Count(span(93, o), free) != 1 || bytes.Count(span(93, o), []byte{0x10}) != 1 {
			t.Errorf("function 93's loop %d is not a loop around one call of function 40", o)
		}
	}
	// find_own_property hashes the atom by the golden ratio and follows the
	// 26-bit hash_next links.
	for _, c := range []int32{0x61c88647, 0x3ffffff} {
		if !bytes.Contains(bodies[100], appendS32([]byte{0x41}, c)) {
			t.Errorf("function 100 lacks the constant %#x of find_own_property", c)
		}
	}
	if len(loops[100]) != 1 {
		t.Errorf("function 100 has %d loops, want the one chain walk", len(loops[100]))
	}
}

// codeBodies returns the code-section bodies of wasm by function index.
func codeBodies(t *testing.T, wasm []byte) map[uint32][]byte {
	t.Helper()
	r := &reader{b: wasm, pos: len(header)}
	imported := uint32(0)
	out := map[uint32][]byte{}
	for !r.done() && r.err == nil {
		id := r.byte()
		sec := &reader{b: r.bytes(int(r.u32()))}
		switch id {
		case secImport:
			for n, i := sec.u32(), uint32(0); i < n && sec.err == nil; i++ {
				sec.name()
				sec.name()
				if kind := sec.byte(); kind != 0x00 {
					t.Fatalf("import kind %d: the pinned module imports only functions", kind)
				}
				sec.u32()
				imported++
			}
		case secCode:
			for n, i := sec.u32(), uint32(0); i < n && sec.err == nil; i++ {
				out[imported+i] = sec.bytes(int(sec.u32()))
			}
		}
		if sec.err != nil {
			t.Fatal(sec.err)
		}
	}
	if r.err != nil {
		t.Fatal(r.err)
	}
	return out
}
