package core_test

import (
	"context"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/codemode-go/codemode/core"
	"github.com/codemode-go/codemode/internal/config"
	"github.com/codemode-go/codemode/internal/longbuiltins"
)

// livenessBound is how long past timeoutMs a stopped cell may take to return
// in these tests: generous (the race detector and a loaded machine slow
// everything), and still far below the minutes these cells ran before the
// engine could stop a guest from outside.
const livenessBound = 15 * time.Second

// execWithin runs a cell and fails the test if it does not return in time,
// without waiting for it (on the old code these cells never returned).
func execWithin(t *testing.T, rt *core.Runtime, ctx context.Context, code string, bound time.Duration) core.Result {
	t.Helper()
	done := make(chan core.Result, 1)
	go func() {
		done <- rt.Exec(ctx, core.CallInfo{Scope: testScope, CallID: "exec_1"}, core.ExecInput{Code: code})
	}()
	select {
	case r := <-done:
		return r
	case <-time.After(bound):
		t.Fatalf("cell still running after %v: %s", bound, code)
		return core.Result{}
	}
}

func TestLongBuiltinsEndAsTimeoutOnBothEngines(t *testing.T) {
	if testing.Short() {
		t.Skip("long built-ins take a few seconds each")
	}
	for _, engine := range []struct {
		name   string
		interp bool
	}{{"compiler", false}, {"interpreter", true}} {
		rt := newRuntimeWith(t, func(c *config.Config) { c.TimeoutMs = 300 }, func(o *core.Options) { o.Engine.Interpreter = engine.interp })
		for _, tc := range longbuiltins.Cases {
			t.Run(engine.name+"/"+tc.Name, func(t *testing.T) {
				r := execWithin(t, rt, context.Background(), tc.Code, livenessBound)
				mustFail(t, r, core.CodeTimeout, "timeoutMs")
				// The stopped VM was discarded; the runtime serves the next cell.
				if got := value(t, exec(t, rt, `return 6 * 7`)); got != 42.0 {
					t.Fatalf("next exec answered %v", got)
				}
			})
		}
	}
}

func TestCancellingTheContextStopsALongBuiltin(t *testing.T) {
	rt := newRuntime(t, nil) // the default 10 s limit: only the cancel can end it in time
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	start := time.Now()
	r := execWithin(t, rt, ctx, `const s = "x".repeat(1 << 24); for (;;) JSON.stringify(s);`, livenessBound)
	mustFail(t, r, "", "aborted")
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("cancel took %v to stop the cell", d)
	}
	if value(t, exec(t, rt, `return "alive"`)) != "alive" {
		t.Fatal("runtime unusable after a cancelled cell")
	}
}

// TestOtherGoroutinesRunWhileAGuestIsInsideABuiltin: the engine hands control
// back to Go at every poll, so a garbage collection (which must stop every
// goroutine) completes, a heartbeat keeps ticking and a second cell runs to
// completion while the first is still inside one long built-in.
func TestOtherGoroutinesRunWhileAGuestIsInsideABuiltin(t *testing.T) {
	// The long cell must outlive every check below even on a loaded machine;
	// it is ended by cancelling its context once they are done.
	rt := newRuntime(t, func(c *config.Config) { c.TimeoutMs = 60000 })
	var beats atomic.Int64
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		tick := time.NewTicker(5 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
				beats.Add(1)
			}
		}
	}()
	long := make(chan core.Result, 1)
	longCtx, cancelLong := context.WithCancel(context.Background())
	defer cancelLong()
	go func() {
		long <- rt.Exec(longCtx, core.CallInfo{Scope: testScope, CallID: "exec_long"},
			core.ExecInput{Code: `const s = "x".repeat(1 << 24); for (;;) JSON.stringify(s);`})
	}()
	time.Sleep(300 * time.Millisecond) // the guest is inside stringify now
	gcDone := make(chan struct{})
	go func() { runtime.GC(); close(gcDone) }()
	select {
	case <-gcDone:
	case <-time.After(10 * time.Second): // without the guard it waits forever
		t.Fatal("a garbage collection waited for the guest")
	}
	before := beats.Load()
	if got := value(t, execWithin(t, rt, context.Background(), `return "served"`, 10*time.Second)); got != "served" {
		t.Fatalf("second cell answered %v", got)
	}
	time.Sleep(200 * time.Millisecond)
	if beats.Load()-before < 5 {
		t.Fatalf("heartbeat stalled: %d beats in 200+ ms", beats.Load()-before)
	}
	select {
	case r := <-long:
		t.Fatalf("the long cell ended before the checks: %+v", r)
	default:
	}
	cancelLong()
	select {
	case r := <-long:
		mustFail(t, r, "", "aborted")
	case <-time.After(livenessBound):
		t.Fatal("the long cell never ended")
	}
}

// TestPollBudgetEndsALongBuiltinAsTimeout: with Options.Engine.PollsPerSecond (set
// where the clock stands still during CPU work, a deployed Worker) the loop
// guard's polls are a budget of their own, which ends a long built-in as
// timeout long before this cell's 60 s wall-clock deadline.
func TestPollBudgetEndsALongBuiltinAsTimeout(t *testing.T) {
	rt := newRuntimeWith(t, func(c *config.Config) { c.TimeoutMs = 60000 }, func(o *core.Options) { o.Engine.PollsPerSecond = 10 })
	r := execWithin(t, rt, context.Background(), `const s = "a".repeat(1 << 22); for (;;) s.indexOf("b");`, livenessBound)
	mustFail(t, r, core.CodeTimeout, "timeoutMs")
	if got := value(t, exec(t, rt, `return 6 * 7`)); got != 42.0 {
		t.Fatalf("next exec answered %v", got)
	}
}

// TestInterruptBudgetSaysWhatStoppedTheCell: a busy cell stopped by the
// interrupt budget before the clock reached timeoutMs says so, instead of
// claiming the deadline passed (a page's first `while (true) {}` once ended at
// 8-9 s of a 10 s timeoutMs with "exceeded timeoutMs (10000 ms)").
func TestInterruptBudgetSaysWhatStoppedTheCell(t *testing.T) {
	rt := newRuntimeWith(t, func(c *config.Config) { c.TimeoutMs = 60000 }, func(o *core.Options) { o.Engine.InterruptsPerSecond = 10 })
	r := execWithin(t, rt, context.Background(), `while (true) {}`, livenessBound)
	mustFail(t, r, core.CodeTimeout, "CPU budget")
	if strings.Contains(r.Error, "exceeded timeoutMs") {
		t.Fatalf("the budget's message claims the deadline passed: %q", r.Error)
	}
}
