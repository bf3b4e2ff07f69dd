package core_test

import (
	"context"
	"fmt"
	"time"

	"github.com/codemode-go/codemode/core"
	"github.com/codemode-go/codemode/internal/config"
)

// A host whose clock stood still while the exec ran (a Cloudflare Durable
// Object) restarts the suspended run's TTL at its next I/O, when the clock has
// caught up: the run then lives snapshotTtlSeconds from there.
func ExampleRuntime_RestartTTL() {
	ctx := context.Background()
	now := time.Date(2026, 12, 3, 12, 0, 0, 0, time.UTC) // when the exec arrived
	cfg := config.Default()
	cfg.Enabled = true
	cfg.SnapshotTtlSeconds = 60
	rt, err := core.New(ctx, core.Options{Config: cfg, Now: func() time.Time { return now }})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer rt.Close(ctx)

	call := core.CallInfo{Scope: core.Scope{AgentID: "agent-1", SessionID: "session-1"}}
	res := rt.Exec(ctx, call, core.ExecInput{Code: `await yield_control(); return "later"`})
	fmt.Println(res.Status)

	now = now.Add(20 * time.Second) // the exec's CPU time, seen at the next I/O
	expires, err := rt.RestartTTL(call, res.RunID)
	fmt.Println(expires.Format(time.TimeOnly), err)

	_, err = rt.RestartTTL(call, "cm_unknown")
	fmt.Println(err)
	// Output:
	// waiting
	// 12:01:20 <nil>
	// code mode run is unavailable or expired.
}
