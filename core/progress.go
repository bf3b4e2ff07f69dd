package core

import (
	"context"
	"time"
)

// Progress is what an exec or wait under WithProgress reports while it blocks
// on its run's pending nested calls (slow tools, timers).
type Progress struct {
	// RunID is the run being driven.
	RunID string
	// Pending are the nested calls still outstanding, as a waiting result
	// would list them.
	Pending []PendingToolCall
	// Elapsed is the time since this exec or wait started the run's cell (or
	// resumed it).
	Elapsed time.Duration
	// Timeout is timeoutMs: at Elapsed == Timeout the call answers waiting.
	Timeout time.Duration
}

type progressKey struct{}

type progressReporter struct {
	every time.Duration
	fn    func(Progress)
}

// WithProgress returns ctx carrying fn: an Exec or Wait called with it calls
// fn every interval for as long as its run blocks on pending nested calls, so
// a host can tell its caller the call is alive (the MCP server sends
// notifications/progress). fn runs on the calling goroutine between pump
// steps, so it must return quickly. Calls that settle within the first
// interval report nothing.
func WithProgress(ctx context.Context, every time.Duration, fn func(Progress)) context.Context {
	if every <= 0 || fn == nil {
		return ctx
	}
	return context.WithValue(ctx, progressKey{}, &progressReporter{every: every, fn: fn})
}

// progressTicker is the pump's reporter for the call driving r now: its
// ticks (nil without a reporter) and the report to make on each.
func (r *run) progressTicker(deadline time.Time) (<-chan time.Time, func(), func()) {
	var rep *progressReporter
	if r.callCtx != nil {
		rep, _ = r.callCtx.Value(progressKey{}).(*progressReporter)
	}
	if rep == nil {
		return nil, func() {}, func() {}
	}
	timeout := time.Duration(r.rt.cfg.TimeoutMs) * time.Millisecond
	start := deadline.Add(-timeout)
	t := time.NewTicker(rep.every)
	report := func() {
		p := Progress{RunID: r.id, Elapsed: time.Since(start), Timeout: timeout}
		for _, pc := range r.calls {
			p.Pending = append(p.Pending, PendingToolCall{ID: pc.id, ToolID: pc.toolID, Kind: pc.kind})
		}
		sortPending(p.Pending)
		rep.fn(p)
	}
	return t.C, report, t.Stop
}
