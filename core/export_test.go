package core

// SetSuspendedBudget lowers the process budget of suspended runs for a test
// and returns a function that restores it.
func SetSuspendedBudget(n int64) (restore func()) {
	old := suspendedBudget.Swap(n)
	return func() { suspendedBudget.Store(old) }
}
