package core_test

import (
	"context"
	"testing"
	"time"

	"github.com/codemode-go/codemode/core"
	"github.com/codemode-go/codemode/internal/hostopts"
)

// A host whose clock stood still while the exec ran (a Cloudflare Durable
// Object) restarts the suspended run's TTL at its next I/O, when the clock has
// caught up: the run then lives snapshotTtlSeconds from there. (It was an
// Example until the test clock left the public Options.)
func TestRestartTTLOnAStillClock(t *testing.T) {
	ctx := context.Background()
	now := time.Date(2026, 12, 3, 12, 0, 0, 0, time.UTC) // when the exec arrived
	cfg := core.DefaultConfig()
	cfg.Enabled = true
	cfg.SnapshotTtlSeconds = 60
	opts := core.Options{Config: cfg}
	hostopts.Of(&opts).Now = func() time.Time { return now }
	rt, err := core.New(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close(ctx)

	call := core.CallInfo{Scope: core.Scope{AgentID: "agent-1", SessionID: "session-1"}}
	res := rt.Exec(ctx, call, core.ExecInput{Code: `await yield_control(); return "later"`})
	if res.Status != core.StatusWaiting {
		t.Fatalf("status %s, want waiting", res.Status)
	}
	now = now.Add(20 * time.Second) // the exec's CPU time, seen at the next I/O
	expires, err := rt.RestartTTL(call, res.RunID)
	if got := expires.Format(time.TimeOnly); err != nil || got != "12:01:20" {
		t.Fatalf("RestartTTL = %s, %v; want 12:01:20, <nil>", got, err)
	}
	if _, err = rt.RestartTTL(call, "cm_unknown"); err == nil || err.Error() != "code mode run is unavailable or expired." {
		t.Fatalf("unknown run: %v", err)
	}
}
