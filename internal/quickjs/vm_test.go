package quickjs_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/codemode-go/codemode/internal/engine"
	"github.com/codemode-go/codemode/internal/engine/wazeroengine"
	"github.com/codemode-go/codemode/internal/quickjs"
)

var (
	rtOnce           sync.Once
	compiled, interp *quickjs.Runtime
	rtErr            error
)

const prelude = `(function (host) {
  globalThis.hostEcho = host.echo;
  globalThis.hostFail = host.fail;
  globalThis.hostLater = host.later;
  globalThis.hostCallback = host.callback;
  return { marker: 42 };
})`

func newRuntime(t testing.TB, interpreter bool) *quickjs.Runtime {
	t.Helper()
	return newRuntimeOn(t, pickEngine(t, interpreter))
}

// pickEngine is wazero (compiler natively, interpreter on request) or, for the
// non-interpreter runtime under GOOS=js, the host's own engine.
func pickEngine(t testing.TB, interpreter bool) engine.Engine {
	t.Helper()
	if h := quickjs.HostEngineForTests(); h != nil && !interpreter {
		return h
	}
	eng, err := wazeroengine.New(context.Background(), wazeroengine.Options{Interpreter: interpreter, MaxMemoryPages: 4096})
	if err != nil {
		t.Fatal(err)
	}
	return eng
}

func newRuntimeOn(t testing.TB, eng engine.Engine) *quickjs.Runtime {
	t.Helper()
	rt, err := quickjs.New(context.Background(), quickjs.Config{
		Engine:        eng,
		HostFunctions: []string{"echo", "fail", "later", "callback"},
		Prelude:       prelude,
	})
	if err != nil {
		t.Fatal(err)
	}
	return rt
}

func runtimes(t testing.TB) (*quickjs.Runtime, *quickjs.Runtime) {
	rtOnce.Do(func() {
		compiled = newRuntime(t, false)
		interp = newRuntime(t, true)
	})
	return compiled, interp
}

func newVM(t testing.TB, lim quickjs.Limits) *quickjs.VM {
	t.Helper()
	rt, _ := runtimes(t)
	vm, err := rt.NewVM(context.Background(), lim)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(vm.Close)
	register(vm)
	return vm
}

// register installs the test host functions; also used after a restore.
func register(vm *quickjs.VM) {
	vm.Handle("echo", func(vm *quickjs.VM, _ quickjs.Value, args []quickjs.Value) (quickjs.Value, error) {
		s, err := vm.GoString(args[0])
		if err != nil {
			return 0, err
		}
		return vm.NewString("echo:" + s)
	})
	vm.Handle("fail", func(vm *quickjs.VM, _ quickjs.Value, args []quickjs.Value) (quickjs.Value, error) {
		return 0, &quickjs.Throw{Name: "TypeError", Message: "host says no"}
	})
	vm.Handle("callback", func(vm *quickjs.VM, _ quickjs.Value, args []quickjs.Value) (quickjs.Value, error) {
		// host -> guest -> host: call the guest function, which calls echo.
		return vm.Call(args[0], vm.Undefined())
	})
}

func TestEvalValues(t *testing.T) {
	vm := newVM(t, quickjs.Limits{})
	tests := []struct{ src, want string }{
		{`1 + 2`, `3`},
		{`({a: [1, "x", null, true]})`, `map[a:[1 x <nil> true]]`},
		{`"héllo ☃"`, `héllo ☃`},
		{`undefined`, `<nil>`},
	}
	for _, tc := range tests {
		got, err := vm.EvalJSON(tc.src)
		if err != nil {
			t.Fatalf("%s: %v", tc.src, err)
		}
		if s := fmtAny(got); s != tc.want {
			t.Errorf("%s = %s, want %s", tc.src, s, tc.want)
		}
	}
}

func TestGuestErrorHasNameMessageAndGuestStack(t *testing.T) {
	vm := newVM(t, quickjs.Limits{})
	_, err := vm.Eval("function boom() { throw new TypeError('bad thing'); }\nboom();", "cell.js")
	var je *quickjs.JSError
	if !errors.As(err, &je) {
		t.Fatalf("err = %v", err)
	}
	if je.Error() != "TypeError: bad thing" || !strings.Contains(je.Stack, "boom (cell.js:1") {
		t.Fatalf("got %q stack %q", je.Error(), je.Stack)
	}
}

func TestHostFunctionErrorIsCatchable(t *testing.T) {
	vm := newVM(t, quickjs.Limits{})
	got, err := vm.EvalJSON(`(() => { try { hostFail(); return "no"; } catch (e) { return [e instanceof TypeError, e.name, e.message]; } })()`)
	if err != nil {
		t.Fatal(err)
	}
	if fmtAny(got) != "[true TypeError host says no]" {
		t.Fatalf("got %v", got)
	}
}

func TestReentrantHostGuestHost(t *testing.T) {
	vm := newVM(t, quickjs.Limits{})
	got, err := vm.EvalJSON(`hostCallback(() => hostCallback(() => hostEcho("deep")))`)
	if err != nil || got != "echo:deep" {
		t.Fatalf("got %v, %v", got, err)
	}
}

func TestDeepRecursionIsCatchableRangeError(t *testing.T) {
	vm := newVM(t, quickjs.Limits{})
	got, err := vm.EvalJSON(`(() => { function f() { f(); } try { f(); } catch (e) { return e.name; } })()`)
	if err != nil || got != "RangeError" {
		t.Fatalf("got %v, %v", got, err)
	}
	// Uncaught, it is an ordinary error and the VM lives on.
	_, err = vm.Eval(`function g() { g(); } g();`, "cell.js")
	var je *quickjs.JSError
	if !errors.As(err, &je) || je.Name != "RangeError" {
		t.Fatalf("err = %v", err)
	}
	if got, _ := vm.EvalJSON(`1`); got != 1.0 {
		t.Fatal("VM not usable after stack overflow")
	}
}

func TestInfiniteLoopStoppedByDeadline(t *testing.T) {
	vm := newVM(t, quickjs.Limits{Deadline: time.Now().Add(100 * time.Millisecond)})
	_, err := vm.Eval(`while (true) {}`, "cell.js")
	var ie *quickjs.InterruptError
	if !errors.As(err, &ie) || ie.Reason != "deadline" {
		t.Fatalf("err = %v", err)
	}
	vm.SetLimits(context.Background(), quickjs.Limits{})
	if got, err := vm.EvalJSON(`"alive"`); err != nil || got != "alive" {
		t.Fatalf("VM not usable: %v %v", got, err)
	}
}

func TestInfiniteLoopStoppedByBudget(t *testing.T) {
	vm := newVM(t, quickjs.Limits{InterruptBudget: 50})
	_, err := vm.Eval(`for (;;) { try { while (true) {} } catch (e) {} }`, "cell.js")
	var ie *quickjs.InterruptError
	if !errors.As(err, &ie) || ie.Reason != "budget" {
		t.Fatalf("err = %v", err)
	}
	if vm.Ticks() < 50 {
		t.Fatalf("ticks = %d", vm.Ticks())
	}
	vm.SetLimits(context.Background(), quickjs.Limits{})
	if got, err := vm.EvalJSON(`2`); err != nil || got != 2.0 {
		t.Fatalf("VM not usable: %v %v", got, err)
	}
}

func TestCanceledContextInterrupts(t *testing.T) {
	vm := newVM(t, quickjs.Limits{})
	ctx, cancel := context.WithCancel(context.Background())
	vm.SetLimits(ctx, quickjs.Limits{})
	time.AfterFunc(50*time.Millisecond, cancel)
	_, err := vm.Eval(`while (true) {}`, "cell.js")
	var ie *quickjs.InterruptError
	if !errors.As(err, &ie) || ie.Reason != "canceled" {
		t.Fatalf("err = %v", err)
	}
}

func TestMemoryBombIsOutOfMemory(t *testing.T) {
	vm := newVM(t, quickjs.Limits{MemoryLimit: 8 << 20, Deadline: time.Now().Add(20 * time.Second)})
	_, err := vm.Eval(`const a = []; while (true) a.push("x".repeat(1024) + a.length);`, "cell.js")
	var je *quickjs.JSError
	if !errors.As(err, &je) || !je.IsOutOfMemory() {
		t.Fatalf("err = %v", err)
	}
	// Usable afterwards, or cleanly discarded.
	if vm.Err() == nil {
		vm.Eval(`a.length = 0`, "x.js")
		vm.RunGC()
		if got, err := vm.EvalJSON(`"ok"`); err != nil || got != "ok" {
			t.Fatalf("after OOM: %v %v", got, err)
		}
	}
}

func TestMemoryBombCaughtInGuest(t *testing.T) {
	vm := newVM(t, quickjs.Limits{MemoryLimit: 4 << 20})
	got, err := vm.EvalJSON(`(() => { let s = "x"; try { while (true) s += s; } catch (e) { s = ""; return String(e); } })()`)
	if err != nil {
		// Out of memory may also surface uncaught; both are acceptable as long as
		// the process survives and the error says what happened.
		var je *quickjs.JSError
		if !errors.As(err, &je) || je.Name != "InternalError" {
			t.Fatalf("err = %v", err)
		}
		if got, err := vm.EvalJSON(`"usable"`); err != nil || got != "usable" {
			t.Fatalf("after OOM: %v %v", got, err)
		}
		return
	}
	if !strings.Contains(got.(string), "out of memory") && !strings.Contains(got.(string), "RangeError") {
		t.Fatalf("got %v", got)
	}
}

func TestModulesAreUnavailable(t *testing.T) {
	vm := newVM(t, quickjs.Limits{})
	v, err := vm.Eval(`import("fs")`, "cell.js")
	if err == nil {
		defer vm.Free(v)
		vm.RunJobs()
		if vm.State(v) != quickjs.Rejected {
			t.Fatalf("dynamic import state = %v", vm.State(v))
		}
	}
	for _, src := range []string{`require("fs")`, `process.env`, `Deno`, `fetch`} {
		if _, err := vm.Eval(src, "cell.js"); err == nil {
			t.Errorf("%s: no error", src)
		}
	}
}

func TestVMsDoNotShareState(t *testing.T) {
	a := newVM(t, quickjs.Limits{})
	if _, err := a.Eval(`globalThis.leak = 1; Object.prototype.polluted = 1;`, "a.js"); err != nil {
		t.Fatal(err)
	}
	a.Close()
	for i := 0; i < 3; i++ { // pooled instances are reset in place
		b := newVM(t, quickjs.Limits{})
		got, err := b.EvalJSON(`[typeof leak, ({}).polluted === undefined]`)
		if err != nil || fmtAny(got) != "[undefined true]" {
			t.Fatalf("state leaked: %v %v", got, err)
		}
		b.Close()
	}
}

func TestMathRandomDiffersPerVM(t *testing.T) {
	a, b := newVM(t, quickjs.Limits{}), newVM(t, quickjs.Limits{})
	x, _ := a.EvalJSON(`Math.random()`)
	y, _ := b.EvalJSON(`Math.random()`)
	if x == y {
		t.Fatalf("both VMs drew %v", x)
	}
	if f := x.(float64); f < 0 || f >= 1 {
		t.Fatalf("Math.random() = %v", f)
	}
}

func TestDeterministicMode(t *testing.T) {
	draw := func() any {
		eng, _ := wazeroengine.New(context.Background(), wazeroengine.Options{})
		rt, err := quickjs.New(context.Background(), quickjs.Config{Engine: eng, Deterministic: true, Seed: 7})
		if err != nil {
			t.Fatal(err)
		}
		defer rt.Close(context.Background())
		vm, _ := rt.NewVM(context.Background(), quickjs.Limits{})
		defer vm.Close()
		got, err := vm.EvalJSON(`[Math.random(), Date.now(), new Date().toISOString()]`)
		if err != nil {
			t.Fatal(err)
		}
		return fmtAny(got)
	}
	a, b := draw(), draw()
	if a != b || !strings.Contains(a.(string), "2024-01-01T00:00:00.000Z") {
		t.Fatalf("not deterministic: %v vs %v", a, b)
	}
}

func TestUnhandledRejectionsTracked(t *testing.T) {
	vm := newVM(t, quickjs.Limits{})
	v, err := vm.Eval(`Promise.reject(new Error("nobody listens")); const h = Promise.reject(new Error("handled")); h.catch(() => {}); 1`, "cell.js")
	if err != nil {
		t.Fatal(err)
	}
	vm.Free(v)
	if err := vm.RunJobs(); err != nil {
		t.Fatal(err)
	}
	got := vm.UnhandledRejections()
	if len(got) != 1 || got[0].Message != "nobody listens" {
		t.Fatalf("got %+v", got)
	}
}

func fmtAny(v any) string {
	return strings.TrimSpace(strings.ReplaceAll(sprint(v), "  ", " "))
}

func TestTrapDiscardsOnlyThatVM(t *testing.T) {
	rt, _ := runtimes(t)
	vm, err := rt.NewVM(context.Background(), quickjs.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	register(vm)
	// A host function that returns a box pointer far outside linear memory makes
	// the C side read out of bounds: a real WebAssembly trap.
	vm.Handle("echo", func(vm *quickjs.VM, _ quickjs.Value, _ []quickjs.Value) (quickjs.Value, error) {
		return quickjs.Value(0xFFFFFFF0), nil
	})
	_, err = vm.Eval(`hostEcho("x") + 1`, "cell.js")
	var te *quickjs.TrapError
	if !errors.As(err, &te) || vm.Err() == nil {
		t.Fatalf("err = %v, vm.Err = %v", err, vm.Err())
	}
	if _, err := vm.Eval(`1`, "cell.js"); err == nil {
		t.Fatal("a trapped VM kept running")
	}
	vm.Close()
	other := newVM(t, quickjs.Limits{})
	if got, err := other.EvalJSON(`"fine"`); err != nil || got != "fine" {
		t.Fatalf("runtime broken after a trap: %v %v", got, err)
	}
}

func TestPanickingHostFunctionIsAGuestError(t *testing.T) {
	vm := newVM(t, quickjs.Limits{})
	vm.Handle("echo", func(vm *quickjs.VM, _ quickjs.Value, _ []quickjs.Value) (quickjs.Value, error) {
		var m map[string]int
		m["boom"] = 1 // nil map write: a Go panic inside a host function
		return 0, nil
	})
	got, err := vm.EvalJSON(`(() => { try { hostEcho("x"); return "no"; } catch (e) { return e.message; } })()`)
	if err != nil || got != "internal error in a host function" {
		t.Fatalf("got %v, %v", got, err)
	}
}

func TestInstantiationFailureIsARuntimeError(t *testing.T) {
	// quickjs.wasm needs 18 pages; a cap of 4 makes instantiation fail for real.
	eng, _ := wazeroengine.New(context.Background(), wazeroengine.Options{MaxMemoryPages: 4})
	_, err := quickjs.New(context.Background(), quickjs.Config{Engine: eng})
	if err == nil {
		t.Fatal("instantiated under a 4-page cap")
	}
}

func TestGoValuesInAndOut(t *testing.T) {
	vm := newVM(t, quickjs.Limits{})
	in := map[string]any{"name": "x", "list": []any{1.0, true, nil, "☃"}, "nested": map[string]any{"n": 2.5}}
	v, err := vm.ValueOf(in)
	if err != nil {
		t.Fatal(err)
	}
	defer vm.Free(v)
	global, _ := vm.Global()
	defer vm.Free(global)
	if err := vm.SetProp(global, "input", v); err != nil {
		t.Fatal(err)
	}
	out, err := vm.EvalJSON(`({count: input.list.length, n: input.nested.n * 2, name: input.name + "!"})`)
	if err != nil || fmtAny(out) != "map[count:4 n:5 name:x!]" {
		t.Fatalf("got %v, %v", out, err)
	}
	if _, err := vm.ValueOf(func() {}); err == nil {
		t.Fatal("a Go func crossed into the guest")
	}
}

// TestHostCallsDoNotLeakGuestMemory: boxes the driver makes for arguments,
// results and undefined are all released, so guest memory stays flat however
// many host calls a program makes.
func TestHostCallsDoNotLeakGuestMemory(t *testing.T) {
	vm := newVM(t, quickjs.Limits{})
	run := func() {
		if _, err := vm.EvalJSON(`(() => { let n = 0; for (let i = 0; i < 100000; i++) { n += hostEcho("x").length; hostCallback(() => 1); } return n; })()`); err != nil {
			t.Fatal(err)
		}
		vm.RunGC()
	}
	// Boxes come from the C allocator, which QuickJS's own counter does not
	// see; a leak shows as linear memory growth.
	run()
	before := vm.MemoryBytes()
	run()
	if after := vm.MemoryBytes(); after > before {
		t.Fatalf("linear memory grew from %d to %d bytes over 200,000 host calls", before, after)
	}
}

// A long built-in never reaches QuickJS's interrupt check; where the clock
// stands still (a deployed Worker) the poll budget is what stops it, from
// outside, through the engine's loop guard.
func TestLongBuiltinStoppedByPollBudget(t *testing.T) {
	vm := newVM(t, quickjs.Limits{PollBudget: 20})
	_, err := vm.Eval(`const s = "a".repeat(1 << 22); for (;;) s.indexOf("b");`, "cell.js")
	var ie *quickjs.InterruptError
	if !errors.As(err, &ie) || ie.Reason != "budget" || !ie.Stopped {
		t.Fatalf("err = %v", err)
	}
}
