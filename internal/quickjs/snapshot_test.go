package quickjs_test

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/codemode-go/codemode/internal/quickjs"
)

func sprint(v any) string { return fmt.Sprint(v) }

// pendingRun evaluates code that awaits a host promise and returns the VM, the
// promise resolvers and the program's result promise.
func pendingRun(t *testing.T, rt *quickjs.Runtime) (*quickjs.VM, quickjs.Resolvers, quickjs.Value) {
	t.Helper()
	vm, err := rt.NewVM(context.Background(), quickjs.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	register(vm)
	var res quickjs.Resolvers
	vm.Handle("later", func(vm *quickjs.VM, _ quickjs.Value, _ []quickjs.Value) (quickjs.Value, error) {
		p, r, err := vm.NewPromise()
		res = r
		return p, err
	})
	out, err := vm.Eval(`(async () => { const before = "kept"; const v = await hostLater(); return before + ":" + v + ":" + hostEcho("after"); })()`, "cell.js")
	if err != nil {
		t.Fatal(err)
	}
	if err := vm.RunJobs(); err != nil {
		t.Fatal(err)
	}
	if vm.State(out) != quickjs.Pending {
		t.Fatalf("state = %v", vm.State(out))
	}
	return vm, res, out
}

func finish(t *testing.T, vm *quickjs.VM, res quickjs.Resolvers, out quickjs.Value) string {
	t.Helper()
	v, _ := vm.NewString("delivered")
	if err := vm.Settle(res, true, v); err != nil {
		t.Fatal(err)
	}
	vm.Free(v)
	if err := vm.RunJobs(); err != nil {
		t.Fatal(err)
	}
	if vm.State(out) != quickjs.Fulfilled {
		t.Fatalf("state = %v", vm.State(out))
	}
	r, _ := vm.PromiseResult(out)
	s, err := vm.GoString(r)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestPendingHostPromiseSurvivesSnapshotRestore(t *testing.T) {
	rt, _ := runtimes(t)
	vm, res, out := pendingRun(t, rt)
	snap, err := vm.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	vm.Close()
	// Make sure the restore lands in a different instance than the original.
	other, _ := rt.NewVM(context.Background(), quickjs.Limits{})
	defer other.Close()
	vm2, err := rt.Restore(context.Background(), snap, quickjs.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	defer vm2.Close()
	register(vm2)
	if got := finish(t, vm2, res, out); got != "kept:delivered:echo:after" {
		t.Fatalf("got %q", got)
	}
}

func TestSnapshotRestoresAcrossEngines(t *testing.T) {
	comp, intr := runtimes(t)
	for _, dir := range []struct {
		name     string
		from, to *quickjs.Runtime
	}{{"compiler->interpreter", comp, intr}, {"interpreter->compiler", intr, comp}} {
		t.Run(dir.name, func(t *testing.T) {
			vm, res, out := pendingRun(t, dir.from)
			snap, err := vm.Snapshot()
			if err != nil {
				t.Fatal(err)
			}
			vm.Close()
			vm2, err := dir.to.Restore(context.Background(), snap, quickjs.Limits{})
			if err != nil {
				t.Fatal(err)
			}
			defer vm2.Close()
			register(vm2)
			if got := finish(t, vm2, res, out); got != "kept:delivered:echo:after" {
				t.Fatalf("got %q", got)
			}
		})
	}
}

func TestSuspendedRunSnapshotIsSmall(t *testing.T) {
	rt, _ := runtimes(t)
	vm, _, _ := pendingRun(t, rt)
	defer vm.Close()
	snap, err := vm.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	if snap.Bytes() > 64<<10 {
		t.Fatalf("suspended trivial run costs %d bytes (template %d), want <= 64 KiB", snap.Bytes(), rt.TemplateBytes())
	}
	t.Logf("snapshot %d bytes of %d", snap.Bytes(), snap.MemoryBytes())
}

func TestSnapshotRefusedDuringCall(t *testing.T) {
	vm := newVM(t, quickjs.Limits{})
	var got error
	vm.Handle("echo", func(vm *quickjs.VM, _ quickjs.Value, _ []quickjs.Value) (quickjs.Value, error) {
		_, got = vm.Snapshot()
		return 0, nil
	})
	if _, err := vm.Eval(`hostEcho("x")`, "cell.js"); err != nil {
		t.Fatal(err)
	}
	if got != quickjs.ErrBusy {
		t.Fatalf("snapshot inside a call: %v", got)
	}
}

// TestLargeSnapshotRoundTrips covers the deflated form: megabytes of new guest
// state survive snapshot and restore byte for byte.
func TestLargeSnapshotRoundTrips(t *testing.T) {
	rt, _ := runtimes(t)
	vm, err := rt.NewVM(context.Background(), quickjs.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	register(vm)
	sum := `(() => { let h = 0; for (const s of globalThis.big) for (let i = 0; i < s.length; i++) h = (h * 31 + s.charCodeAt(i)) | 0; return [big.length, h]; })()`
	if _, err := vm.Eval(`globalThis.big = Array.from({length: 20000}, (_, i) => "row-" + i + "-" + Math.random())`, "cell.js"); err != nil {
		t.Fatal(err)
	}
	want, _ := vm.EvalJSON(sum)
	snap, err := vm.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	vm.Close()
	if snap.Bytes() < 64<<10 || snap.Bytes() > snap.MemoryBytes()/2 {
		t.Fatalf("snapshot %d bytes of %d memory", snap.Bytes(), snap.MemoryBytes())
	}
	vm2, err := rt.Restore(context.Background(), snap, quickjs.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	defer vm2.Close()
	if got, _ := vm2.EvalJSON(sum); fmtAny(got) != fmtAny(want) {
		t.Fatalf("restored %v, want %v", got, want)
	}
}

// TestSnapshotBytesCountWhatTheHeapKeeps: the reported size of suspended
// snapshots matches the Go heap they keep alive (it used to be up to twice
// that): the heap is measured with the snapshots alive and after dropping them.
func TestSnapshotBytesCountWhatTheHeapKeeps(t *testing.T) {
	for _, tc := range []struct{ name, src string }{
		{"small runs", `globalThis.kept = Array.from({length: 2000}, (_, i) => ({i, s: "v" + i})); 1`},
		{"megabytes of varied data (deflated)", `globalThis.kept = Array.from({length: 1 << 17}, (_, i) => (i * 2654435761) >>> 0); 1`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			snaps := make([]*quickjs.Snapshot, 0, 8)
			reported := 0
			for range 8 {
				vm := newVM(t, quickjs.Limits{})
				v, err := vm.Eval(tc.src, "x.js")
				if err != nil {
					t.Fatal(err)
				}
				vm.Free(v)
				s, err := vm.Snapshot()
				if err != nil {
					t.Fatal(err)
				}
				vm.Close()
				snaps = append(snaps, s)
				reported += s.Bytes()
			}
			heap := func() int {
				var m runtime.MemStats
				// Two collections empty the sync.Pool of scratch buffers
				// snapshots are built in: that buffer is shared, not kept
				// by any snapshot.
				runtime.GC()
				runtime.GC()
				runtime.ReadMemStats(&m)
				return int(m.HeapAlloc)
			}
			alive := heap()
			runtime.KeepAlive(snaps)
			clear(snaps)
			held := alive - heap()
			if r := float64(held) / float64(reported); r > 1.15 || r < 0.85 {
				t.Fatalf("snapshots report %d bytes but keep %d on the heap (%.2fx)", reported, held, r)
			}
		})
	}
}

// TestDescribeAllowanceIsOnePerRunAcrossRestores: the allowance for
// host-initiated guest code (describing thrown values) is one per run. A
// hostile getter spends it; a snapshot carries what is left, so after any
// number of restores (one per wait call) even a plain error is no longer run
// through guest code, while a fresh VM gets the whole allowance again (issue 8:
// "one bounded allowance for all post-deadline work of a run").
func TestDescribeAllowanceIsOnePerRunAcrossRestores(t *testing.T) {
	rt, _ := runtimes(t)
	lim := func() quickjs.Limits { return quickjs.Limits{Deadline: time.Now().Add(20 * time.Second)} }
	described := func(vm *quickjs.VM) bool {
		_, err := vm.Eval(`throw new TypeError("plain")`, "cell.js")
		var je *quickjs.JSError
		if !errors.As(err, &je) {
			t.Fatalf("err = %v", err)
		}
		return je.Message == "plain"
	}
	vm, err := rt.NewVM(context.Background(), lim())
	if err != nil {
		t.Fatal(err)
	}
	if !described(vm) {
		t.Fatal("a fresh VM did not describe a plain error")
	}
	start := time.Now()
	if _, err := vm.Eval(`throw {get name() { for (;;) {} }, get message() { for (;;) {} }}`, "cell.js"); err == nil {
		t.Fatal("no error")
	}
	spent := time.Since(start)
	for i := range 3 { // three wait calls: snapshot, restore, describe
		snap, err := vm.Snapshot()
		if err != nil {
			t.Fatal(err)
		}
		vm.Close()
		if vm, err = rt.Restore(context.Background(), snap, lim()); err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		if described(vm) {
			t.Fatalf("restore %d: the spent allowance was granted again", i+1)
		}
		spent += time.Since(start)
	}
	vm.Close()
	if bound := quickjs.GraceTime + quickjs.HardStopSlack + 200*time.Millisecond; spent > bound {
		t.Fatalf("describing took %v in all, more than one allowance (%v)", spent, bound)
	}
	fresh := newVM(t, lim())
	if !described(fresh) {
		t.Fatal("a fresh VM (a new run) did not get its own allowance")
	}
}
