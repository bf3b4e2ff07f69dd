package core

import (
	"context"
	"github.com/codemode-go/codemode/internal/catalog"
	"runtime"
	"strconv"
	"time"
)

// admission bounds the cells of a Runtime whose guest code runs at once. A
// busy guest holds an OS thread until its next poll (compiled WebAssembly is
// not preemptible), so more busy cells than cores starve each other and every
// other goroutine of the process: measured, 24 busy cells of timeoutMs 1000
// on two cores ran 2.0-2.5 s and /healthz took 1.2 s. A cell holds a slot
// while it runs guest code and gives it back while it waits for its tool
// calls, so cells that mostly wait never crowd out each other.
type admission struct {
	slots chan struct{}
}

// admissionWait is how long a new exec or wait queues for a slot before it is
// refused at capacity: short, so an admitted cell still ends within about
// timeoutMs of its request.
const admissionWait = 100 * time.Millisecond

// defaultMaxRunningCells is Options.MaxRunningCells' default natively: one
// running cell per core but one (GOMAXPROCS - 1, at least 1), so a core stays
// free for the process's own work (HTTP, tools, the collector). Measured on
// two cores under a 24-cell flood (tests/bench/RESULTS.md, "Admission
// control"): /healthz p50 0.9 ms with one running cell, 20-27 ms with two.
// Under GOOS=js and wasip1 (GOARCH=wasm) it is 0, unbounded: the one thread
// is the host's, and the host's own limits (a Web Worker's termination, an
// isolate's CPU limit) bound it.
func defaultMaxRunningCells() int {
	if runtime.GOARCH == "wasm" {
		return 0
	}
	return max(runtime.GOMAXPROCS(0)-1, 1)
}

func newAdmission(n int) *admission {
	if n <= 0 {
		return nil
	}
	return &admission{slots: make(chan struct{}, n)}
}

// enter takes a slot for a new exec or wait, queueing at most admissionWait;
// false means the runtime is at capacity (or ctx ended first).
func (a *admission) enter(ctx context.Context) bool {
	if a == nil {
		return true
	}
	select {
	case a.slots <- struct{}{}:
		return true
	default:
	}
	t := time.NewTimer(admissionWait)
	defer t.Stop()
	select {
	case a.slots <- struct{}{}:
		return true
	case <-t.C:
	case <-ctx.Done():
	}
	return false
}

// reenter takes a slot back for a run whose tool calls settled; it waits as
// long as it must, until the run's deadline (timeout) or its end (ctx).
func (a *admission) reenter(ctx context.Context, timeout <-chan time.Time) (ok, timedOut bool) {
	if a == nil {
		return true, false
	}
	select {
	case a.slots <- struct{}{}:
		return true, false
	case <-timeout:
		return false, true
	case <-ctx.Done():
		return false, false
	}
}

func (a *admission) leave() {
	if a != nil {
		<-a.slots
	}
}

// busy is the answer of an exec or wait refused at capacity: a failed result
// with code runtime_unavailable (the spec's code for a QuickJS worker that
// cannot be started) and RetryAfter set, which HTTP hosts answer as 429 with
// Retry-After. A refused wait leaves its run suspended.
func (rt *Runtime) busy(what string, tel catalog.Telemetry) Result {
	n := cap(rt.admit.slots)
	after := time.Duration(rt.cfg.TimeoutMs) * time.Millisecond
	msg := "code mode is at capacity: " + strconv.Itoa(n) + " cells are already running in this process (maxRunningCells); "
	if what != "" {
		msg += what + " "
	}
	msg += "retry in about " + strconv.Itoa(int((after+time.Second-1)/time.Second)) + " s."
	res := failed(CodeRuntimeUnavailable, msg, tel)
	res.RetryAfter = after
	return res
}
