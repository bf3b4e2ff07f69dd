package core

import (
	"strconv"
	"sync/atomic"

	"github.com/codemode-go/codemode/internal/quickjs"
)

// MaxSuspendedBytes bounds the memory that all suspended runs of the process
// hold together (their snapshots, counted as the Go heap they keep: see
// quickjs.Snapshot.Bytes), across every Runtime. maxSnapshotBytes bounds one
// run and the spec caps the number of suspended runs, but 64 runs of a large
// snapshot each could still hold gigabytes; past this budget a suspension is
// refused with snapshot_limit_exceeded and nothing already suspended is lost.
const MaxSuspendedBytes = 256 << 20

var (
	suspendedBytes  atomic.Int64
	suspendedBudget atomic.Int64 // MaxSuspendedBytes; tests lower it
)

func init() { suspendedBudget.Store(MaxSuspendedBytes) }

// SuspendedBytes reports what suspended runs of the process hold now.
func SuspendedBytes() int64 { return suspendedBytes.Load() }

// holdSnap charges snap to the process budget and keeps it; it returns false
// (and keeps nothing) when the budget would be exceeded.
func (r *run) holdSnap(snap *quickjs.Snapshot) bool {
	n := int64(snap.Bytes())
	if suspendedBytes.Add(n) > suspendedBudget.Load() {
		suspendedBytes.Add(-n)
		return false
	}
	r.snap, r.snapCharged = snap, n
	return true
}

// freeSnap forgets the run's snapshot and returns its charge.
func (r *run) freeSnap() {
	if r.snapCharged != 0 {
		suspendedBytes.Add(-r.snapCharged)
		r.snapCharged = 0
	}
	r.snap = nil
}

func msgSuspendedBudget(n int) string {
	return "code mode cannot suspend this run: its snapshot of " + strconv.Itoa(n) +
		" bytes would exceed the memory budget of all suspended runs in this process (" +
		strconv.FormatInt(suspendedBudget.Load(), 10) + " bytes); wait on or abort other runs first."
}
