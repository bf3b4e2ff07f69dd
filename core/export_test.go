package core

// SnapshotStats lets the external tests see the suspended-run store: how many
// runs are suspended and what their snapshots hold.
func SnapshotStats(rt *Runtime) (suspended, snapshotBytes int) {
	st := rt.stats()
	return st.Suspended, st.SnapshotBytes
}

// StatsOf is rt's suspended-run store figures, for the external tests.
func StatsOf(rt *Runtime) stats { return rt.stats() }
