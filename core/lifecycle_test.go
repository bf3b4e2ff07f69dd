package core_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/codemode-go/codemode/core"
	"github.com/codemode-go/codemode/internal/catalog"
	"github.com/codemode-go/codemode/internal/config"
)

// heldTool blocks until release is closed or its context ends; canceled is
// closed when a call ended through its context.
type heldTool struct {
	release, started, canceled chan struct{}
	once                       *sync.Once
}

func newHeld() heldTool {
	return heldTool{release: make(chan struct{}), started: make(chan struct{}, 64), canceled: make(chan struct{}), once: &sync.Once{}}
}

func (h heldTool) tool() catalog.Tool {
	return coreTool("held", func(ctx context.Context, _ catalog.Call) (catalog.Result, error) {
		h.started <- struct{}{}
		select {
		case <-h.release:
			return catalog.Result{Details: []byte(`"released"`)}, nil
		case <-ctx.Done():
			h.once.Do(func() { close(h.canceled) })
			return catalog.Result{}, ctx.Err()
		}
	}, nil)
}

// suspendOnHeld runs a cell that yields and then waits on the held tool; the
// tool starts only once a wait resumes the run.
func suspendOnHeld(t *testing.T, rt *core.Runtime) core.Result {
	t.Helper()
	r := exec(t, rt, `await yield_control(); return await tools.callValue("openclaw:core:held", {})`)
	if r.Status != core.StatusWaiting {
		t.Fatalf("exec: %+v", r)
	}
	return r
}

// resuming starts a wait and returns its result channel once that wait is
// pumping the held tool call.
func resuming(t *testing.T, rt *core.Runtime, h heldTool, runID string) <-chan core.Result {
	t.Helper()
	done := make(chan core.Result, 1)
	go func() { done <- wait(t, rt, runID) }()
	select {
	case <-h.started:
	case r := <-done:
		t.Fatalf("wait returned before its tool started: %+v", r)
	}
	return done
}

// Spec "Lebenszyklus von Lauf und Snapshot" / "Sicherheitsgrenze" (snapshots are
// discarded on abort and session end): a run being resumed is aborted too, and
// nothing of it comes back into the store afterwards.
func TestSpecLebenszyklus_AbortAndEndSessionReachARunBeingResumed(t *testing.T) {
	for _, how := range []string{"Abort", "EndSession"} {
		t.Run(how, func(t *testing.T) {
			h := newHeld()
			rt := newRuntime(t, func(c *config.Config) { c.TimeoutMs = 2000 }, h.tool())
			r := suspendOnHeld(t, rt)
			done := resuming(t, rt, h, r.RunID)
			switch how {
			case "Abort":
				if !rt.Abort(testScope, r.RunID) {
					t.Fatal("Abort did not find the run being resumed")
				}
			default:
				if n := rt.EndSession(testScope); n != 1 {
					t.Fatalf("EndSession ended %d runs", n)
				}
			}
			select {
			case <-h.canceled:
			case <-time.After(5 * time.Second):
				t.Fatal("the pending tool call of the aborted run was not canceled")
			}
			got := <-done
			mustFail(t, got, "", "code mode run was aborted.")
			if st := core.StatsOf(rt); st.Suspended != 0 {
				t.Fatalf("the aborted run came back: %+v", st)
			}
			mustFail(t, wait(t, rt, r.RunID), core.CodeInvalidInput, "code mode run is unavailable or expired.")
		})
	}
}

// Close racing Wait: no data race (run under -race), the wait ends, and the
// runtime refuses everything afterwards with a message that says it is closed.
func TestSpecLebenszyklus_CloseRacingWaitAndCallsAfterClose(t *testing.T) {
	h := newHeld()
	rt := newRuntime(t, func(c *config.Config) { c.TimeoutMs = 2000 }, h.tool())
	r := suspendOnHeld(t, rt)
	parked := suspendOnHeld(t, rt)
	done := resuming(t, rt, h, r.RunID)
	if err := rt.Close(context.Background()); err != nil {
		t.Fatalf("Close: %v", err)
	}
	select {
	case got := <-done:
		if got.Status != core.StatusFailed {
			t.Fatalf("wait during Close: %+v", got)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Close returned while a wait was still running")
	}
	const closed = "code mode runtime is closed."
	start := time.Now()
	mustFail(t, exec(t, rt, `return 1`), core.CodeRuntimeUnavailable, closed)
	mustFail(t, wait(t, rt, parked.RunID), core.CodeRuntimeUnavailable, closed)
	if _, err := rt.Surface(context.Background(), testScope, false); err == nil || err.Error() != closed {
		t.Fatalf("Surface after Close: %v", err)
	}
	if rt.Abort(testScope, parked.RunID) || rt.EndSession(testScope) != 0 {
		t.Fatal("a closed runtime still held runs")
	}
	if d := time.Since(start); d > time.Second {
		t.Fatalf("calls after Close took %v", d)
	}
	if err := rt.Close(context.Background()); err != nil {
		t.Fatalf("second Close: %v", err)
	}
}

// Spec "Lebenszyklus von Lauf und Snapshot": expiry (snapshotTtlSeconds) ends a
// suspended run at its TTL, not at the next store access: its pending tool
// calls are canceled then.
func TestSpecLebenszyklus_ExpiryIsEagerAtTheTTL(t *testing.T) {
	h := newHeld()
	rt := newRuntime(t, func(c *config.Config) { c.TimeoutMs = 100; c.SnapshotTtlSeconds = 1 }, h.tool())
	start := time.Now()
	if r := exec(t, rt, `return await tools.callValue("openclaw:core:held", {})`); r.Status != core.StatusWaiting {
		t.Fatalf("exec: %+v", r)
	}
	select {
	case <-h.canceled:
		if d := time.Since(start); d < 900*time.Millisecond {
			t.Fatalf("canceled after %v, before the TTL", d)
		}
	case <-time.After(2500 * time.Millisecond):
		t.Fatal("2.5 s after a 1 s TTL the expired run's pending call is still alive")
	}
}

// Spec "Lebenszyklus von Lauf und Snapshot": at most 64 suspended runs per
// process, counted across the runtimes that share one SuspendLimits, refused
// with the spec's message; a runtime with its own limits is not affected
// (nothing is process-wide by accident).
func TestSpecLebenszyklus_64SuspendedRunsPerProcessAcrossRuntimes(t *testing.T) {
	shared := core.NewSuspendLimits(0, 0)
	share := func(o *core.Options) { o.SuspendLimits = shared }
	a, b := newRuntimeWith(t, nil, share), newRuntimeWith(t, nil, share)
	var ids [2][]string
	for i := 0; i < 64; i++ {
		rt := []*core.Runtime{a, b}[i%2]
		r := exec(t, rt, `await yield_control(); return 7`)
		if r.Status != core.StatusWaiting {
			t.Fatalf("run %d: %+v", i, r)
		}
		ids[i%2] = append(ids[i%2], r.RunID)
	}
	for _, rt := range []*core.Runtime{a, b} {
		mustFail(t, exec(t, rt, `await yield_control(); return 7`), core.CodeInvalidInput, "too many suspended code mode runs.")
	}
	if shared.Runs() != 64 {
		t.Fatalf("shared limits count %d runs", shared.Runs())
	}
	own := newRuntime(t, nil)
	if r := exec(t, own, `await yield_control(); return 7`); r.Status != core.StatusWaiting {
		t.Fatalf("a runtime with its own limits was refused: %+v", r)
	} else {
		own.Abort(testScope, r.RunID)
	}
	// A run that is resumed and suspends again keeps its place.
	r := exec(t, a, `await yield_control(); await yield_control(); return 8`)
	mustFail(t, r, core.CodeInvalidInput, "too many suspended code mode runs.")
	if value(t, wait(t, a, ids[0][0])) != 7.0 {
		t.Fatal("suspended run lost")
	}
	r = exec(t, b, `await yield_control(); await yield_control(); return 8`)
	if r.Status != core.StatusWaiting {
		t.Fatalf("the freed place was not reusable: %+v", r)
	}
	if r = wait(t, b, r.RunID); r.Status != core.StatusWaiting {
		t.Fatalf("re-suspension refused: %+v", r)
	}
	// Closing a runtime gives its places back.
	b.Close(context.Background())
	for i := 0; i < 32; i++ {
		if r := exec(t, a, `await yield_control(); return 7`); r.Status != core.StatusWaiting {
			t.Fatalf("after Close, run %d: %+v", i, r)
		}
	}
}

type ctxKey struct{}

// Spec "Verschachtelte Tool-Ausführung": nested calls keep the caller's context
// (its values: auth, tracing) but not its cancellation, so a tool keeps running
// while the run is suspended after the exec call returned.
func TestSpecVerschachtelt_NestedCallsGetTheExecContextWithoutCancel(t *testing.T) {
	got := make(chan any, 2)
	alive := make(chan error, 1)
	release := make(chan struct{})
	probe := coreTool("probe", func(ctx context.Context, _ catalog.Call) (catalog.Result, error) {
		got <- ctx.Value(ctxKey{})
		<-release
		alive <- ctx.Err()
		return catalog.Result{Details: []byte(`1`)}, nil
	}, nil)
	rt := newRuntime(t, func(c *config.Config) { c.TimeoutMs = 100 }, probe)
	ctx, cancel := context.WithCancel(context.WithValue(context.Background(), ctxKey{}, "principal-7"))
	r := rt.Exec(ctx, core.CallInfo{Scope: testScope, CallID: "exec_1"}, core.ExecInput{Code: `return await tools.probe({})`})
	if r.Status != core.StatusWaiting {
		t.Fatalf("exec: %+v", r)
	}
	cancel() // the exec call is over; its context ends
	if v := <-got; v != "principal-7" {
		t.Fatalf("tool saw context value %v", v)
	}
	close(release)
	if err := <-alive; err != nil {
		t.Fatalf("the nested call was canceled with the exec call: %v", err)
	}
	if value(t, waitUntilDone(t, rt, r)) != 1.0 {
		t.Fatal("run did not finish")
	}
}

// An exec or wait whose context is already canceled does nothing: no tool
// runs, no run is started or consumed.
func TestAlreadyCanceledContextIsHonouredUpFront(t *testing.T) {
	ran := make(chan struct{}, 1)
	probe := coreTool("probe", func(ctx context.Context, _ catalog.Call) (catalog.Result, error) {
		ran <- struct{}{}
		return catalog.Result{Details: []byte(`1`)}, nil
	}, nil)
	rt := newRuntime(t, nil, probe)
	parked := exec(t, rt, `await yield_control(); return 5`)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r := rt.Exec(ctx, core.CallInfo{Scope: testScope}, core.ExecInput{Code: `tools.probe({}); for (;;) {}`})
	mustFail(t, r, "", "code mode run was aborted.")
	mustFail(t, rt.Wait(ctx, core.CallInfo{Scope: testScope}, core.WaitInput{RunID: parked.RunID}), "", "code mode run was aborted.")
	select {
	case <-ran:
		t.Fatal("a tool ran for a canceled exec")
	default:
	}
	if value(t, wait(t, rt, parked.RunID)) != 5.0 {
		t.Fatal("a canceled wait consumed the run")
	}
}
