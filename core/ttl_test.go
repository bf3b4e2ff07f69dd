package core_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/codemode-go/codemode/core"
	"github.com/codemode-go/codemode/internal/catalog"
	"github.com/codemode-go/codemode/internal/config"
	"github.com/codemode-go/codemode/internal/hostopts"
)

// frozenClock is a Durable Object's clock: it reads what set last put there
// and stands still in between (during CPU work), as Date.now does on
// Cloudflare until the next I/O.
type frozenClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *frozenClock) read() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }

func (c *frozenClock) set(t time.Time) { c.mu.Lock(); c.now = t; c.mu.Unlock() }

// TestRestartTTLGivesTheFullTTLFromTheTouch is the frozen-clock defect: an
// exec that arrives at t0 and suspends after X of CPU is stamped t0 + TTL, so
// without a restart the run expires X early; restarted at the first I/O after
// the suspension (t0 + X), it lives a full TTL from there, and no longer.
func TestRestartTTLGivesTheFullTTLFromTheTouch(t *testing.T) {
	const ttl, burn = 900 * time.Second, 600 * time.Second
	t0 := time.Date(2026, 12, 3, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name    string
		touch   bool
		waitAt  time.Duration // after t0
		resumes bool
	}{
		{"touched, a second before its TTL from the touch", true, burn + ttl - time.Second, true},
		{"touched, a second after its TTL from the touch", true, burn + ttl + time.Second, false},
		{"not touched, the burn is lost", false, burn + ttl - time.Second, false},
		{"not touched, still there before the stale stamp", false, ttl - time.Second, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			clock := &frozenClock{now: t0}
			rt := newRuntimeWith(t, func(c *config.Config) { c.SnapshotTtlSeconds = int(ttl / time.Second) },
				func(o *core.Options) { hostopts.Of(o).Now = clock.read })
			r := exec(t, rt, `await yield_control(); return "resumed"`)
			if r.Status != core.StatusWaiting {
				t.Fatalf("exec: %+v", r)
			}
			clock.set(t0.Add(burn)) // the I/O after the answer: the clock catches up
			if tc.touch {
				exp, err := rt.RestartTTL(core.CallInfo{Scope: testScope}, r.RunID)
				if err != nil || !exp.Equal(t0.Add(burn+ttl)) {
					t.Fatalf("RestartTTL = %v, %v; want %v", exp, err, t0.Add(burn+ttl))
				}
			}
			clock.set(t0.Add(tc.waitAt))
			got := wait(t, rt, r.RunID)
			if tc.resumes {
				if value(t, got) != "resumed" {
					t.Fatalf("wait: %+v", got)
				}
				return
			}
			mustFail(t, got, core.CodeInvalidInput, "code mode run is unavailable or expired.")
		})
	}
}

// TestRestartTTLReArmsTheExpiryTimer: the timer, not only the stamp, moves.
// With a 2 s TTL restarted 1.2 s after the suspension, the run outlives its
// first timer and is freed by the second one, without any wait sweeping it.
func TestRestartTTLReArmsTheExpiryTimer(t *testing.T) {
	t.Parallel()
	rt := newRuntime(t, func(c *config.Config) { c.SnapshotTtlSeconds = 2 })
	r := exec(t, rt, `await yield_control(); return 1`)
	if r.Status != core.StatusWaiting {
		t.Fatalf("exec: %+v", r)
	}
	suspended := time.Now()
	time.Sleep(1200 * time.Millisecond)
	if _, err := rt.RestartTTL(core.CallInfo{Scope: testScope}, r.RunID); err != nil {
		t.Fatal(err)
	}
	touched := time.Now()
	time.Sleep(time.Until(suspended.Add(2400 * time.Millisecond)))
	if time.Since(touched) < 2*time.Second && rt.Suspended() != 1 {
		t.Fatal("the run expired at its first TTL although it was restarted")
	}
	for time.Since(touched) < 5*time.Second && rt.Suspended() != 0 {
		time.Sleep(50 * time.Millisecond)
	}
	if rt.Suspended() != 0 {
		t.Fatal("the restarted run never expired")
	}
}

// TestRestartTTLRefusals: wait's code and message for every runId it cannot
// restart.
func TestRestartTTLRefusals(t *testing.T) {
	entered, release := make(chan struct{}), make(chan struct{})
	held := coreTool("held", func(ctx context.Context, _ catalog.Call) (catalog.Result, error) {
		entered <- struct{}{}
		select {
		case <-release:
			return catalog.Result{Details: []byte(`"released"`)}, nil
		case <-ctx.Done():
			return catalog.Result{}, ctx.Err()
		}
	}, nil)
	clock := &frozenClock{now: time.Now()}
	rt := newRuntimeWith(t, func(c *config.Config) { c.SnapshotTtlSeconds, c.TimeoutMs = 60, 2000 },
		func(o *core.Options) { hostopts.Of(o).Now = clock.read }, held)
	suspend := func() string {
		r := exec(t, rt, `await yield_control(); return 1`)
		if r.Status != core.StatusWaiting {
			t.Fatalf("exec: %+v", r)
		}
		return r.RunID
	}
	owner := core.CallInfo{Scope: testScope}
	refused := func(t *testing.T, call core.CallInfo, id string, code core.ErrorCode, msg string) {
		t.Helper()
		refusedBy(t, rt, call, id, code, msg)
	}
	const unavailable = "code mode run is unavailable or expired."
	t.Run("unknown", func(t *testing.T) {
		refused(t, owner, "cm_nope", core.CodeInvalidInput, unavailable)
		refused(t, owner, "", core.CodeInvalidInput, unavailable)
	})
	t.Run("another principal", func(t *testing.T) {
		id := suspend()
		refused(t, core.CallInfo{Scope: testScope, Principal: "mallory"}, id, core.CodeInvalidInput, unavailable)
		value(t, wait(t, rt, id))
	})
	t.Run("another session", func(t *testing.T) {
		id := suspend()
		other := core.CallInfo{Scope: core.Scope{AgentID: "agent-1", SessionID: "s-2", SessionKey: "key-1", AgentRunID: "run-1"}}
		refused(t, other, id, core.CodeInvalidInput, "code mode run belongs to a different session.")
		value(t, wait(t, rt, id))
	})
	t.Run("completed", func(t *testing.T) {
		id := suspend()
		value(t, wait(t, rt, id))
		refused(t, owner, id, core.CodeInvalidInput, unavailable)
	})
	t.Run("expired", func(t *testing.T) {
		id := suspend()
		clock.set(clock.read().Add(61 * time.Second))
		refused(t, owner, id, core.CodeInvalidInput, unavailable)
		if rt.Suspended() != 0 {
			t.Fatal("the expired run is still stored")
		}
	})
	t.Run("being resumed", func(t *testing.T) {
		r := exec(t, rt, `await yield_control(); return await tools.callValue("openclaw:core:held", {})`)
		if r.Status != core.StatusWaiting {
			t.Fatalf("exec: %+v", r)
		}
		done := make(chan core.Result)
		go func() { done <- wait(t, rt, r.RunID) }()
		<-entered // the wait drives the run now
		refused(t, owner, r.RunID, core.CodeInvalidInput, "code mode run is already being resumed.")
		close(release)
		if got := value(t, waitUntilDone(t, rt, <-done)); got != "released" {
			t.Fatalf("got %v", got)
		}
	})
	t.Run("closed runtime", func(t *testing.T) {
		id := suspend()
		rt.Close(context.Background())
		refused(t, owner, id, core.CodeRuntimeUnavailable, "code mode runtime is closed.")
	})
	t.Run("relay only", func(t *testing.T) {
		relay := newRuntimeWith(t, nil, func(o *core.Options) { hostopts.Of(o).RelayOnly = true })
		refusedBy(t, relay, owner, "cm_any", core.CodeRuntimeUnavailable,
			"code mode runtime unavailable: this runtime only relays tool calls; cells run in another core.")
	})
}

func refusedBy(t *testing.T, rt *core.Runtime, call core.CallInfo, id string, code core.ErrorCode, msg string) {
	t.Helper()
	_, err := rt.RestartTTL(call, id)
	var re *core.RunError
	if !errors.As(err, &re) || re.Code != code || re.Message != msg {
		t.Fatalf("RestartTTL(%q) = %v; want %s %q", id, err, code, msg)
	}
}
