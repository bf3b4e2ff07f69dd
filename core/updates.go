package core

import "sync"

// pendingKey carries a nested call's pending id (as pendingToolCalls shows
// it) into its job, so its streamed updates name it.
type pendingKey struct{}

// updateSink forwards nested calls' partial results to the exec or wait
// driving the run. set(nil) waits for an update being delivered, so the
// host's callback is never called after its Exec or Wait returned.
type updateSink struct {
	mu     sync.RWMutex
	fn     func(ToolUpdate)
	parent string
}

func (u *updateSink) set(fn func(ToolUpdate), parent string) {
	u.mu.Lock()
	u.fn, u.parent = fn, parent
	u.mu.Unlock()
}

// send delivers one update, or drops it when no call drives the run.
func (u *updateSink) send(up ToolUpdate) {
	u.mu.RLock()
	defer u.mu.RUnlock()
	if u.fn != nil {
		up.ParentCallID = u.parent
		u.fn(up)
	}
}
