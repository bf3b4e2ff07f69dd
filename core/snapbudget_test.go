package core_test

import (
	"testing"

	"github.com/codemode-go/codemode/core"
)

// TestSuspendedRunsShareOneBudget: the snapshots of suspended runs of the
// runtimes sharing one SuspendLimits stay within its byte budget; past it a
// suspension is refused with snapshot_limit_exceeded and frees nothing else,
// and what a finished run held is returned.
func TestSuspendedRunsShareOneBudget(t *testing.T) {
	limits := core.NewSuspendLimits(0, 1<<20)
	share := func(o *core.Options) { o.SuspendLimits = limits }
	a, b := newRuntimeWith(t, nil, share), newRuntimeWith(t, nil, share)
	const base = 0
	// Each run keeps ~300 KB of varied data across its suspension.
	const heavy = `globalThis.kept = Array.from({length: 1 << 15}, (_, i) => "v" + ((i * 2654435761) >>> 0)); await yield_control(); return kept.length`
	var waiting []string
	var refused core.Result
	for i := 0; i < 12 && refused.Status == ""; i++ {
		rt := a
		if i%2 == 1 {
			rt = b
		}
		r := exec(t, rt, heavy)
		switch r.Status {
		case core.StatusWaiting:
			waiting = append(waiting, r.RunID)
		default:
			refused = r
		}
	}
	if len(waiting) == 0 || refused.Status == "" {
		t.Fatalf("%d runs suspended and none refused", len(waiting))
	}
	mustFail(t, refused, core.CodeSnapshotLimitExceeded, "memory budget of all suspended runs (1048576 bytes)")
	if got := limits.Bytes() - base; got > 1<<20 {
		t.Fatalf("suspended runs hold %d bytes past the budget", got)
	}
	for i, id := range waiting {
		rt := a
		if i%2 == 1 {
			rt = b
		}
		if got := value(t, wait(t, rt, id)); got != float64(1<<15) {
			t.Fatalf("wait answered %v", got)
		}
	}
	if got := limits.Bytes(); got != base {
		t.Fatalf("finished runs still charge %d bytes", got-base)
	}
	if r := exec(t, a, heavy); r.Status != core.StatusWaiting {
		t.Fatalf("budget not returned: %s %s", r.Status, r.Error)
	} else {
		a.Abort(testScope, r.RunID)
	}
	if got := limits.Bytes(); got != base {
		t.Fatalf("an aborted run still charges %d bytes", got-base)
	}
}
