package core

import (
	"strconv"
	"sync"

	"github.com/codemode-go/codemode/internal/quickjs"
)

// maxSuspendedBytes is the default bound on the memory that suspended runs
// hold together (their snapshots, counted as the Go heap they keep: see
// quickjs.Snapshot.Bytes). maxSnapshotBytes bounds one run and the spec caps
// the number of suspended runs, but 64 runs of a large snapshot each could
// still hold gigabytes; past this budget a suspension is refused with
// snapshot_limit_exceeded and nothing already suspended is lost.
const maxSuspendedBytes = 256 << 20

// defaultMaxSuspendedRuns is the spec's cap on suspended runs (per process:
// `codemode serve` runs one Runtime).
const defaultMaxSuspendedRuns = 64

// SuspendLimits bounds what suspended runs hold together: how many there are
// and their snapshots' bytes. It is state, not configuration: every Runtime
// has its own unless Options.SuspendLimits names one that several runtimes of
// a process share on purpose (so that together they keep the spec's 64 runs
// and one memory budget). Safe for concurrent use.
type SuspendLimits struct {
	maxRuns  int
	maxBytes int64

	mu    sync.Mutex
	runs  int
	bytes int64
}

// NewSuspendLimits makes limits of maxRuns suspended runs and maxBytes of
// snapshots; 0 takes defaultMaxSuspendedRuns and maxSuspendedBytes.
func NewSuspendLimits(maxRuns int, maxBytes int64) *SuspendLimits {
	if maxRuns <= 0 {
		maxRuns = defaultMaxSuspendedRuns
	}
	if maxBytes <= 0 {
		maxBytes = maxSuspendedBytes
	}
	return &SuspendLimits{maxRuns: maxRuns, maxBytes: maxBytes}
}

// Runs reports how many suspended runs hold a place now.
func (l *SuspendLimits) Runs() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.runs
}

// Bytes reports the snapshot bytes suspended runs hold now.
func (l *SuspendLimits) Bytes() int64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.bytes
}

// takeRun gives a run one of the places; false when all are taken. A run
// holds its place from its first suspension until it ends, so a run that is
// resumed and suspends again is never refused.
func (l *SuspendLimits) takeRun() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.runs >= l.maxRuns {
		return false
	}
	l.runs++
	return true
}

func (l *SuspendLimits) giveRun() {
	l.mu.Lock()
	l.runs--
	l.mu.Unlock()
}

// charge adds n snapshot bytes if they fit the budget.
func (l *SuspendLimits) charge(n int64) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.bytes+n > l.maxBytes {
		return false
	}
	l.bytes += n
	return true
}

func (l *SuspendLimits) refund(n int64) {
	l.mu.Lock()
	l.bytes -= n
	l.mu.Unlock()
}

// holdSnap charges snap to the suspended-run budget and keeps it; it returns
// false (and keeps nothing) when the budget would be exceeded.
func (r *run) holdSnap(snap *quickjs.Snapshot) bool {
	n := int64(snap.Bytes())
	if !r.rt.suspended.charge(n) {
		return false
	}
	r.snap, r.snapCharged = snap, n
	return true
}

// freeSnap forgets the run's snapshot and returns its charge.
func (r *run) freeSnap() {
	if r.snapCharged != 0 {
		r.rt.suspended.refund(r.snapCharged)
		r.snapCharged = 0
	}
	r.snap = nil
}

func (rt *Runtime) msgSuspendedBudget(n int) string {
	return "code mode cannot suspend this run: its snapshot of " + strconv.Itoa(n) +
		" bytes would exceed the memory budget of all suspended runs (" +
		strconv.FormatInt(rt.suspended.maxBytes, 10) + " bytes); wait on or abort other runs first."
}
