package core

import (
	"sync"
	"time"
)

// maxSuspended is the spec's per-process cap on suspended runs.
const maxSuspended = 64

// Messages of the spec for runs wait cannot resume.
const (
	msgUnavailable  = "code mode run is unavailable or expired."
	msgOtherSession = "code mode run belongs to a different session."
	msgBusy         = "code mode run is already being resumed."
	msgTooMany      = "too many suspended code mode runs."
)

// store is the in-process map of suspended runs (never written to disk). An
// entry leaves it as soon as its run completes or fails, or when it expires;
// a 65th suspension is refused and nothing already suspended is evicted.
type store struct {
	mu   sync.Mutex
	runs map[string]*run
}

func newStore() *store { return &store{runs: map[string]*run{}} }

// put stores a suspended run; false when the store is full.
func (s *store) put(r *run, now time.Time) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sweepLocked(now)
	if _, ok := s.runs[r.id]; !ok && len(s.runs) >= maxSuspended {
		return false
	}
	s.runs[r.id] = r
	return true
}

// take claims a run for a wait; the returned message is the failure, if any.
func (s *store) take(id, principal string, scope Scope, now time.Time) (*run, string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sweepLocked(now)
	r, ok := s.runs[id]
	if !ok || r.principal != principal {
		return nil, msgUnavailable
	}
	if r.scope != scope {
		return nil, msgOtherSession
	}
	if r.busy {
		return nil, msgBusy
	}
	r.busy = true
	return r, ""
}

// release hands a run back after a wait that suspended it again.
func (s *store) release(r *run) {
	s.mu.Lock()
	r.busy = false
	s.mu.Unlock()
}

// drop forgets a run and frees its snapshot.
func (s *store) drop(r *run) {
	s.mu.Lock()
	if s.runs[r.id] == r {
		delete(s.runs, r.id)
	}
	s.mu.Unlock()
	r.discard()
}

func (s *store) sweepLocked(now time.Time) {
	for id, r := range s.runs {
		if !r.busy && now.After(r.expires) {
			delete(s.runs, id)
			r.discard()
		}
	}
}

// Suspended returns how many runs are suspended now.
func (rt *Runtime) Suspended() int {
	rt.store.mu.Lock()
	defer rt.store.mu.Unlock()
	rt.store.sweepLocked(rt.now())
	return len(rt.store.runs)
}

func (s *store) clear() {
	s.mu.Lock()
	runs := s.runs
	s.runs = map[string]*run{}
	s.mu.Unlock()
	for _, r := range runs {
		r.discard()
	}
}

// Abort discards a suspended run of scope: its snapshot is freed, its pending
// tool calls are canceled, and a later wait fails as unavailable. It reports
// whether such a run existed. A run being resumed right now is aborted through
// the context of that wait instead.
func (rt *Runtime) Abort(scope Scope, runID string) bool {
	s := rt.store
	s.mu.Lock()
	r, ok := s.runs[runID]
	if !ok || r.scope != scope || r.busy {
		s.mu.Unlock()
		return false
	}
	delete(s.runs, runID)
	s.mu.Unlock()
	r.discard()
	return true
}

// EndSession discards every suspended run of the session (same agent, session
// id and session key): snapshots do not outlive the session that made them.
// It returns how many runs were discarded.
func (rt *Runtime) EndSession(scope Scope) int {
	s := rt.store
	s.mu.Lock()
	var gone []*run
	for id, r := range s.runs {
		if !r.busy && r.scope.AgentID == scope.AgentID && r.scope.SessionID == scope.SessionID && r.scope.SessionKey == scope.SessionKey {
			delete(s.runs, id)
			gone = append(gone, r)
		}
	}
	s.mu.Unlock()
	for _, r := range gone {
		r.discard()
	}
	return len(gone)
}
