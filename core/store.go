package core

import (
	"sync"
	"time"
)

// Messages of the spec for runs wait cannot resume.
const (
	msgUnavailable  = "code mode run is unavailable or expired."
	msgOtherSession = "code mode run belongs to a different session."
	msgBusy         = "code mode run is already being resumed."
	msgTooMany      = "too many suspended code mode runs."
	msgAborted      = "code mode run was aborted."
)

// MsgRunUnavailable is wait's message for an unknown, expired or foreign
// runId: a host answering for a core that holds no runs yet (a new session
// object) says exactly this (internal/ops.UnknownRun).
const MsgRunUnavailable = msgUnavailable

// runState is where a run stands in its store. Every transition happens under
// the store's lock, so Abort, EndSession, expiry and Close see one answer.
type runState int

const (
	// stateActive: an exec or a wait is driving the run right now. Only that
	// goroutine touches the run's VM and snapshot.
	stateActive runState = iota
	// stateSuspended: the run is a snapshot in the store, claimable by wait.
	stateSuspended
	// stateEnded: the run completed, failed, was aborted, expired or its
	// runtime closed. Nothing of it comes back.
	stateEnded
)

// store is a Runtime's in-process map of its live runs (never written to
// disk): runs being driven by exec or wait and suspended runs. A suspended run
// expires at its TTL (a timer ends it then: its pending calls are canceled and
// its snapshot is freed); a suspension past SuspendLimits (the spec's 65th)
// is refused and nothing already suspended is evicted.
type store struct {
	mu     sync.Mutex
	runs   map[string]*run
	closed bool
	ttl    time.Duration
	now    func() time.Time
	limits *SuspendLimits // the places suspended runs take
}

func newStore(ttl time.Duration, now func() time.Time, limits *SuspendLimits) *store {
	return &store{runs: map[string]*run{}, ttl: ttl, now: now, limits: limits}
}

// register makes a new run reachable by Abort, EndSession and Close while its
// exec drives it; false once the runtime is closed.
func (s *store) register(r *run) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return false
	}
	r.state = stateActive
	s.runs[r.id] = r
	return true
}

// suspend parks an active run (its snapshot already taken). The message is the
// failure when it cannot: the run was aborted meanwhile, or the suspended
// runs already hold every place of the SuspendLimits (the spec's 64).
func (s *store) suspend(r *run) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if r.state != stateActive || s.runs[r.id] != r {
		return msgAborted
	}
	if !r.place {
		if !s.limits.takeRun() {
			return msgTooMany
		}
		r.place = true
	}
	r.state = stateSuspended
	s.armLocked(r)
	return ""
}

// armLocked stamps a suspended run's expiry a TTL from now (hostopts.Options.Now) and
// sets its timer, replacing an earlier one. The timer carries its generation:
// one that fired but lost the lock race to a re-arm finds itself stale.
func (s *store) armLocked(r *run) {
	if r.expiry != nil {
		r.expiry.Stop()
	}
	r.armed++
	gen := r.armed
	r.expires = s.now().Add(s.ttl)
	r.expiry = time.AfterFunc(s.ttl, func() { s.expire(r, gen) })
}

// take claims a suspended run for a wait; the message is the failure, if any.
func (s *store) take(id, principal string, scope Scope) (*run, string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sweepLocked()
	r, ok := s.runs[id]
	if !ok || r.principal != principal {
		return nil, msgUnavailable
	}
	if r.scope != scope {
		return nil, msgOtherSession
	}
	if r.state != stateSuspended {
		return nil, msgBusy
	}
	r.expiry.Stop()
	r.state = stateActive
	return r, ""
}

// finish ends a run whose exec or wait is done with it for good.
func (s *store) finish(r *run) {
	s.mu.Lock()
	s.endLocked(r)
	s.mu.Unlock()
	r.discard()
}

// abort ends a run from outside its driver: a suspended run is freed at once;
// an active one has its context canceled (its VM stops, its pending calls end)
// and its driver finds it ended at the next step. Either way it leaves the map,
// so a later wait answers unavailable.
func (s *store) abortLocked(r *run) {
	active := r.state == stateActive
	s.endLocked(r)
	if active {
		r.cancel() // the driver discards the rest
		return
	}
	r.discard()
}

func (s *store) endLocked(r *run) {
	if s.runs[r.id] == r {
		delete(s.runs, r.id)
	}
	if r.expiry != nil {
		r.expiry.Stop()
	}
	if r.place {
		r.place = false
		s.limits.giveRun()
	}
	r.state = stateEnded
}

// expire is the TTL timer of a suspended run, armed as generation gen.
func (s *store) expire(r *run, gen uint64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if r.state == stateSuspended && s.runs[r.id] == r && r.armed == gen {
		s.abortLocked(r)
	}
}

// sweepLocked ends suspended runs past their expiry by the runtime's clock
// (hostopts.Options.Now): the timers use the real clock, tests move the other one.
func (s *store) sweepLocked() {
	now := s.now()
	for _, r := range s.runs {
		if r.state == stateSuspended && now.After(r.expires) {
			s.abortLocked(r)
		}
	}
}

// close ends every run and refuses new ones.
func (s *store) close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	for _, r := range s.runs {
		s.abortLocked(r)
	}
}

// ended reports whether r was ended from outside while its driver ran.
func (s *store) ended(r *run) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return r.state == stateEnded
}

// Suspended returns how many runs of this runtime are suspended now.
func (rt *Runtime) Suspended() int {
	return rt.stats().Suspended
}

// Abort ends a run of scope, suspended or being resumed right now: its
// snapshot is freed, its pending tool calls are canceled, a wait in progress
// returns "code mode run was aborted.", and a later wait fails as unavailable.
// It reports whether such a run existed.
func (rt *Runtime) Abort(scope Scope, runID string) bool {
	s := rt.store
	s.mu.Lock()
	defer s.mu.Unlock()
	r, ok := s.runs[runID]
	if !ok || r.scope != scope {
		return false
	}
	s.abortLocked(r)
	return true
}

// EndSession ends every run of the session (same agent, session id and session
// key), suspended or in progress: snapshots do not outlive the session that
// made them. It returns how many runs were ended.
func (rt *Runtime) EndSession(scope Scope) int {
	s := rt.store
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, r := range s.runs {
		if r.scope.AgentID == scope.AgentID && r.scope.SessionID == scope.SessionID && r.scope.SessionKey == scope.SessionKey {
			s.abortLocked(r)
			n++
		}
	}
	return n
}
