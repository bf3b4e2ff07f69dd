package loopguard_test

import (
	"context"
	"errors"
	"runtime"
	"testing"

	"github.com/codemode-go/codemode/internal/engine/internal/loopguard"
	"github.com/codemode-go/codemode/internal/quickjs/wasmbin"
	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
)

// spin is a module whose export "spin" loops forever without calling anything,
// and whose export "copy" runs memory.copy of n bytes k times:
//
//	(func (export "spin") (loop br 0))
//	(func (export "copy") (param i32 i32) (loop (memory.copy (i32.const 0) (i32.const 0) (local.get 0)) ... br_if))
var spin = []byte{
	0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
	// type: () -> (), (i32, i32) -> ()
	0x01, 0x09, 0x02, 0x60, 0x00, 0x00, 0x60, 0x02, 0x7f, 0x7f, 0x00,
	// import: env.nop () -> ()
	0x02, 0x0b, 0x01, 0x03, 'e', 'n', 'v', 0x03, 'n', 'o', 'p', 0x00, 0x00,
	// function: two functions
	0x03, 0x03, 0x02, 0x00, 0x01,
	// memory: 1 page min, 64 max
	0x05, 0x04, 0x01, 0x01, 0x01, 0x40,
	// export: spin = func 1, copy = func 2
	0x07, 0x0f, 0x02, 0x04, 's', 'p', 'i', 'n', 0x00, 0x01, 0x04, 'c', 'o', 'p', 'y', 0x00, 0x02,
	// code
	0x0a, 0x24, 0x02,
	// spin: loop (call nop) (br 0) end end
	0x09, 0x00, 0x03, 0x40, 0x10, 0x00, 0x0c, 0x00, 0x0b, 0x0b,
	// copy: loop: memory.copy(0, 0, local0); local1 -= 1; br_if local1 != 0
	0x18, 0x00,
	0x03, 0x40,
	0x41, 0x00, 0x41, 0x00, 0x20, 0x00, 0xfc, 0x0a, 0x00, 0x00,
	0x20, 0x01, 0x41, 0x01, 0x6b, 0x22, 0x01, 0x0d, 0x00,
	0x0b, 0x0b,
}

var errStop = errors.New("stopped by the host")

// instantiate returns the guarded spin module and a counter of polls; after
// stopAfter polls, poll panics, which is how a host stops the guest.
func instantiate(t *testing.T, interp bool, stopAfter int) (api.Module, *int) {
	t.Helper()
	return instantiateModule(t, spin, interp, stopAfter)
}

func instantiateModule(t *testing.T, wasm []byte, interp bool, stopAfter int) (api.Module, *int) {
	t.Helper()
	ctx := context.Background()
	g, err := loopguard.Rewrite(wasm)
	if err != nil {
		t.Fatal(err)
	}
	cfg := wazero.NewRuntimeConfigCompiler()
	if interp {
		cfg = wazero.NewRuntimeConfigInterpreter()
	}
	rt := wazero.NewRuntimeWithConfig(ctx, cfg)
	t.Cleanup(func() { rt.Close(ctx) })
	polls := new(int)
	if _, err := rt.NewHostModuleBuilder("env").NewFunctionBuilder().WithFunc(func() {}).Export("nop").Instantiate(ctx); err != nil {
		t.Fatal(err)
	}
	_, err = rt.NewHostModuleBuilder(loopguard.PollModule).NewFunctionBuilder().WithFunc(func() int32 {
		*polls++
		if *polls >= stopAfter {
			panic(errStop)
		}
		return 1000
	}).Export(loopguard.PollName).Instantiate(ctx)
	if err != nil {
		t.Fatal(err)
	}
	mod, err := rt.InstantiateWithConfig(ctx, g, wazero.NewModuleConfig().WithName(""))
	if err != nil {
		t.Fatal(err)
	}
	return mod, polls
}

func TestGuardedLoopsReachTheHostAndCanBeStopped(t *testing.T) {
	for _, interp := range []bool{false, true} {
		mod, polls := instantiate(t, interp, 5)
		_, err := mod.ExportedFunction("spin").Call(context.Background())
		if !errors.Is(err, errStop) {
			t.Fatalf("interpreter=%v: spin returned %v, want the host's stop", interp, err)
		}
		if *polls != 5 {
			t.Fatalf("interpreter=%v: %d polls, want 5", interp, *polls)
		}
	}
}

func TestBulkMemoryIsChargedBySize(t *testing.T) {
	// Every copy of n bytes costs n >> BulkShift counts plus one for its loop
	// iteration; the first countdown is InitialCountdown, later ones 1000.
	for _, tc := range []struct {
		name     string
		n, k     uint64
		min, max int
	}{
		{"small copies stay under the first countdown", 16, 16, 0, 0},
		// 400 * (256 + 1) counts: the first poll after InitialCountdown, then
		// one per 1000 counts, each overshooting by at most one copy's 257.
		{"large copies poll by size", 65536, 400, 1 + (400*257-loopguard.InitialCountdown)/1257, 1 + (400*257-loopguard.InitialCountdown)/1000},
	} {
		mod, polls := instantiate(t, false, 1<<30)
		if _, err := mod.ExportedFunction("copy").Call(context.Background(), tc.n, tc.k); err != nil {
			t.Fatal(err)
		}
		if *polls < tc.min || *polls > tc.max {
			t.Errorf("%s: %d polls, want %d..%d", tc.name, *polls, tc.min, tc.max)
		}
	}
}

// dispatch is a module whose export "run" (param i32) loops that many times
// around a br_table of n targets, like an interpreter's dispatch loop:
//
//	(loop (block (br_table 0 ... 0 (i32.const 0))) (br_if 0 (local.tee 0 (i32.sub (local.get 0) (i32.const 1)))))
func dispatch(n int) []byte {
	sec := func(id byte, body ...byte) []byte { return append([]byte{id, byte(len(body))}, body...) }
	body := []byte{0x00, 0x03, 0x40, 0x02, 0x40, 0x41, 0x00, 0x0e, byte(n&0x7f | 0x80), byte(n >> 7)}
	body = append(body, make([]byte, n+1)...) // n targets and the default, all label 0
	body = append(body, 0x0b, 0x20, 0x00, 0x41, 0x01, 0x6b, 0x22, 0x00, 0x0d, 0x00, 0x0b, 0x0b)
	entry := append(append([]byte{0x01}, leb(len(body))...), body...)
	code := append(append([]byte{0x0a}, leb(len(entry))...), entry...)
	m := []byte{0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00}
	m = append(m, sec(0x01, 0x02, 0x60, 0x00, 0x00, 0x60, 0x01, 0x7f, 0x00)...)
	m = append(m, sec(0x02, 0x01, 0x03, 'e', 'n', 'v', 0x03, 'n', 'o', 'p', 0x00, 0x00)...)
	m = append(m, sec(0x03, 0x01, 0x01)...)
	m = append(m, sec(0x07, 0x01, 0x03, 'r', 'u', 'n', 0x00, 0x01)...)
	return append(m, code...)
}

func leb(n int) []byte {
	var b []byte
	for {
		c := byte(n & 0x7f)
		n >>= 7
		if n == 0 {
			return append(b, c)
		}
		b = append(b, c|0x80)
	}
}

// TestDispatchLoopHasNoCountdown: a loop around a br_table of DispatchTargets
// targets (QuickJS's bytecode dispatch, whose jumps and calls QuickJS counts
// itself) is left unguarded; one with a smaller br_table keeps its countdown.
func TestDispatchLoopHasNoCountdown(t *testing.T) {
	const iterations = 3 * loopguard.InitialCountdown
	for _, tc := range []struct {
		targets int
		polls   bool
	}{{loopguard.DispatchTargets - 1, true}, {loopguard.DispatchTargets, false}, {300, false}} {
		for _, interp := range []bool{false, true} {
			mod, polls := instantiateModule(t, dispatch(tc.targets), interp, 1<<30)
			if _, err := mod.ExportedFunction("run").Call(context.Background(), iterations); err != nil {
				t.Fatalf("%d targets: %v", tc.targets, err)
			}
			if got := *polls > 0; got != tc.polls {
				t.Errorf("%d targets, interpreter=%v: %d polls, want polls=%v", tc.targets, interp, *polls, tc.polls)
			}
		}
	}
}

// backEdges is a module with three exports: "once" enters a loop and leaves
// it without repeating, "untaken" passes a branch back to its loop's header
// that is not taken, and "table" (n) repeats its loop n-1 times through the
// default target of a br_table:
//
//	(func (export "once") (loop (nop)))
//	(func (export "untaken") (loop (br_if 0 (i32.const 0))))
//	(func (export "table") (param i32) (block (loop (br_table 1 0 (local.tee 0 (i32.sub (local.get 0) (i32.const 1)))))))
func backEdges() []byte {
	sec := func(id byte, body ...byte) []byte { return append([]byte{id, byte(len(body))}, body...) }
	once := []byte{0x00, 0x03, 0x40, 0x01, 0x0b, 0x0b}
	table := []byte{0x00, 0x02, 0x40, 0x03, 0x40, 0x20, 0x00, 0x41, 0x01, 0x6b, 0x22, 0x00, 0x0e, 0x01, 0x01, 0x00, 0x0b, 0x0b, 0x0b}
	untaken := []byte{0x00, 0x03, 0x40, 0x41, 0x00, 0x0d, 0x00, 0x0b, 0x0b}
	code := []byte{0x03, byte(len(once))}
	code = append(code, once...)
	code = append(append(code, byte(len(untaken))), untaken...)
	code = append(append(code, byte(len(table))), table...)
	m := []byte{0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00}
	m = append(m, sec(0x01, 0x02, 0x60, 0x00, 0x00, 0x60, 0x01, 0x7f, 0x00)...)
	m = append(m, sec(0x02, 0x01, 0x03, 'e', 'n', 'v', 0x03, 'n', 'o', 'p', 0x00, 0x00)...)
	m = append(m, sec(0x03, 0x03, 0x00, 0x00, 0x01)...)
	m = append(m, sec(0x07, 0x03, 0x04, 'o', 'n', 'c', 'e', 0x00, 0x01, 0x07, 'u', 'n', 't', 'a', 'k', 'e', 'n', 0x00, 0x02, 0x05, 't', 'a', 'b', 'l', 'e', 0x00, 0x03)...)
	return append(m, sec(0x0a, code...)...)
}

// TestOnlyBackEdgesCount: entering and leaving a loop costs nothing, and so
// does a branch back to its header that is not taken (so a lookup loop that
// ends at its first step, or a frame set-up over no variables, runs as in the
// plain module); repeating it counts, also through a br_table.
func TestOnlyBackEdgesCount(t *testing.T) {
	ctx := context.Background()
	for _, interp := range []bool{false, true} {
		mod, polls := instantiateModule(t, backEdges(), interp, 1<<30)
		for _, name := range []string{"once", "untaken"} {
			fn := mod.ExportedFunction(name)
			for range 2 * loopguard.InitialCountdown {
				if _, err := fn.Call(ctx); err != nil {
					t.Fatal(err)
				}
			}
			if *polls != 0 {
				t.Errorf("interpreter=%v: %s: a loop entered %d times without repeating polled %d times", interp, name, 2*loopguard.InitialCountdown, *polls)
			}
		}
		if _, err := mod.ExportedFunction("table").Call(ctx, 3*loopguard.InitialCountdown); err != nil {
			t.Fatal(err)
		}
		if *polls == 0 {
			t.Errorf("interpreter=%v: %d repeats through a br_table never polled", interp, 3*loopguard.InitialCountdown)
		}
	}
}

func TestQuickJSRewritesAndValidates(t *testing.T) {
	wasm, err := wasmbin.Bytes()
	if err != nil {
		t.Skip(err)
	}
	g, err := loopguard.Rewrite(wasm)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	rt := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfigInterpreter())
	defer rt.Close(ctx)
	cm, err := rt.CompileModule(ctx, g)
	if err != nil {
		t.Fatalf("rewritten quickjs.wasm does not validate: %v", err)
	}
	found := false
	for _, f := range cm.ImportedFunctions() {
		if m, n, _ := f.Import(); m == loopguard.PollModule && n == loopguard.PollName {
			found = true
		}
	}
	if !found {
		t.Fatal("rewritten module does not import the poll function")
	}
	if len(cm.ExportedFunctions()) == 0 || cm.ExportedFunctions()["qjs_eval"] == nil {
		t.Fatal("exports lost")
	}
}

func TestRewriteRefusesWhatItCannotRewrite(t *testing.T) {
	for _, tc := range []struct {
		name string
		wasm []byte
	}{
		{"not wasm", []byte("hello")},
		{"truncated", spin[:len(spin)-5]},
		{"no imports", []byte{0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00}},
	} {
		if _, err := loopguard.Rewrite(tc.wasm); err == nil {
			t.Errorf("%s: rewritten without error", tc.name)
		}
	}
}

func FuzzRewrite(f *testing.F) {
	f.Add(spin)
	f.Add(backEdges())
	f.Add(dispatch(3))
	f.Fuzz(func(t *testing.T, b []byte) {
		g, err := loopguard.Rewrite(b)
		if err != nil {
			return
		}
		// What compiled before must compile after.
		ctx := context.Background()
		rt := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfigInterpreter())
		defer rt.Close(ctx)
		if _, err := rt.CompileModule(ctx, b); err != nil {
			return
		}
		if _, err := rt.CompileModule(ctx, g); err != nil {
			t.Fatalf("valid module no longer validates after the rewrite: %v", err)
		}
	})
}

// TestHugeLocalCountIsRefusedWithoutAllocating: a body that declares more
// local groups than it has bytes for is malformed; Rewrite refuses it before
// sizing anything by the count (the fuzzer's 97a461a2161f7ccf: ~234M groups
// declared in a 9-byte body made a 1.9 GB slice and killed the fuzz worker).
func TestHugeLocalCountIsRefusedWithoutAllocating(t *testing.T) {
	mod := []byte("\x00asm\x01\x00\x00\x00" +
		"\x01\x04\x01\x60\x00\x00" + // type 0: () -> ()
		"\x03\x02\x01\x00" + // one function of type 0
		"\x0a\x09\x01\x07\xef\xef\xef\xef\x30\x00\x0b") // its body: 234M local groups, then nothing
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := loopguard.Rewrite(mod)
	runtime.ReadMemStats(&after)
	if err == nil {
		t.Fatal("Rewrite accepted a body with 234M local groups in 7 bytes")
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 1<<20 {
		t.Fatalf("Rewrite allocated %d bytes for a 30-byte module", grew)
	}
}
