package core

import "time"

// RunError is why an operation on a run by its runId, other than exec and
// wait (which answer with a failed Result), could not act: a spec error code
// and the message wait would give for the same runId.
type RunError struct {
	// Code is invalid_input for an unknown, expired, foreign or busy run, and
	// runtime_unavailable for a closed or relay-only runtime.
	Code ErrorCode `json:"code"`
	// Message is the spec's message, e.g. "code mode run is unavailable or expired.".
	Message string `json:"message"`
}

// Error is the message.
func (e *RunError) Error() string { return e.Message }

// RestartTTL restarts a suspended run's snapshot TTL from now: the run then
// expires snapshotTtlSeconds after this call (by hostopts.Options.Now, and its expiry
// timer is set anew), no longer after its suspension. It returns the new
// expiry.
//
// It exists for hosts whose clock stands still during CPU work. A Cloudflare
// Durable Object's Date.now (and so Go's time.Now there) moves only at I/O,
// so the suspension at the end of an exec or wait is stamped with the time
// that request arrived, and the run loses that request's CPU time of its TTL.
// Such a host calls RestartTTL on its next I/O after the waiting answer (the
// Worker's front sends the object a touch request; see edge/worker), when its
// clock is right again. Elsewhere the suspension's stamp is already right and
// a call only extends the TTL by the time since the suspension.
//
// The run is found as wait finds it: the principal and scope must be the
// run's. The error is a *RunError with wait's code and message: invalid_input
// with "code mode run is unavailable or expired." for an unknown, ended,
// expired or other principal's runId, "code mode run belongs to a different
// session." for another scope, and "code mode run is already being resumed."
// while a wait drives it (that wait stamps a new TTL when it suspends again);
// runtime_unavailable once the runtime is closed or when it only relays.
func (rt *Runtime) RestartTTL(call CallInfo, runID string) (time.Time, error) {
	if rt.qjs == nil {
		return time.Time{}, &RunError{Code: CodeRuntimeUnavailable, Message: errRelayOnly}
	}
	if !rt.enter() {
		return time.Time{}, &RunError{Code: CodeRuntimeUnavailable, Message: msgClosed}
	}
	defer rt.leave()
	expires, msg := rt.store.restart(runID, call.Principal, call.Scope)
	if msg != "" {
		return time.Time{}, &RunError{Code: CodeInvalidInput, Message: msg}
	}
	return expires, nil
}

// restart re-stamps a suspended run's expiry from now and re-arms its timer;
// the message is the failure, as take's.
func (s *store) restart(id, principal string, scope Scope) (time.Time, string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sweepLocked()
	r, ok := s.runs[id]
	if !ok || r.principal != principal {
		return time.Time{}, msgUnavailable
	}
	if r.scope != scope {
		return time.Time{}, msgOtherSession
	}
	if r.state != stateSuspended {
		return time.Time{}, msgBusy
	}
	s.armLocked(r)
	return r.expires, ""
}
