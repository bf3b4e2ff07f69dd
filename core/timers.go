package core

import (
	"context"
	"slices"
	"strconv"
	"time"

	"github.com/codemode-go/codemode/internal/quickjs"
)

// Timers are not tool calls: the spec bounds parallel nested tool calls with
// maxPendingToolCalls, and a cell's setTimeout is neither nested nor a tool.
// They get their own bound, and a setTimeout past it throws a catchable
// RangeError at once (it used to return an id that never fired).
//
// A run's timers share one runtime timer (time.AfterFunc) armed for the
// earliest one: no goroutine per timer, also while the run is suspended, and
// timers fire in the order of their due time, then of creation, as in a
// browser.
const maxPendingTimers = 1000

// maxTimerMs bounds one setTimeout delay (a day); longer waits belong in tools.
const maxTimerMs = 24 * 60 * 60 * 1000

// timerTick is the settlement id that says "timers are due".
const timerTick = "timers"

// pendingTimer is a started setTimeout: its bridge call id, due time and order.
type pendingTimer struct {
	id  string
	due time.Time
	seq int64
}

// runTimers is a run's timer state; only the goroutine holding the run uses it.
type runTimers struct {
	byToken map[int64]*pendingTimer
	calls   int // bridge calls of kind "timer" not yet delivered (cleared ones too)
	arm     *time.Timer
	armedAt time.Time
}

// startTimer creates the promise a setTimeout waits on; it settles after ms,
// at once when the guest clears the timer, and never after the run ended.
func (r *run) startTimer(vm *quickjs.VM, token int64, ms float64) (quickjs.Value, error) {
	ts := &r.timers
	if len(ts.byToken) >= maxPendingTimers {
		return 0, &quickjs.Throw{Name: "RangeError", Message: "too many pending timers (at most " + strconv.Itoa(maxPendingTimers) + "); clear or await some before starting more"}
	}
	if _, dup := ts.byToken[token]; dup {
		return 0, &quickjs.Throw{Name: "Error", Message: "setTimeout: timer token in use"}
	}
	p, res, err := vm.NewPromise()
	if err != nil {
		return 0, err
	}
	id := r.nextID("call")
	r.calls[id] = &pendingCall{id: id, kind: "timer", res: res}
	if ts.byToken == nil {
		ts.byToken = map[int64]*pendingTimer{}
	}
	d := time.Duration(min(max(ms, 0), maxTimerMs) * float64(time.Millisecond))
	ts.byToken[token] = &pendingTimer{id: id, due: time.Now().Add(d), seq: token}
	ts.calls++
	r.armTimers()
	return p, nil
}

// armTimers points the run's one runtime timer at the earliest pending timer.
func (r *run) armTimers() {
	ts := &r.timers
	var next time.Time
	for _, pt := range ts.byToken {
		if next.IsZero() || pt.due.Before(next) {
			next = pt.due
		}
	}
	if next.IsZero() || (ts.arm != nil && ts.armedAt.Equal(next)) {
		return
	}
	if ts.arm == nil {
		settled, ctx := r.settled, r.ctx
		ts.arm = time.AfterFunc(time.Until(next), func() {
			if ctx.Err() == nil {
				settled.put(settlement{id: timerTick})
			}
		})
		context.AfterFunc(ctx, func() { ts.arm.Stop() })
	} else {
		ts.arm.Reset(time.Until(next))
	}
	ts.armedAt = next
}

// fireTimers settles every due timer, earliest first, and re-arms.
func (r *run) fireTimers() error {
	ts := &r.timers
	now := time.Now()
	var due []*pendingTimer
	for tok, pt := range ts.byToken {
		if !pt.due.After(now) {
			due = append(due, pt)
			delete(ts.byToken, tok)
		}
	}
	slices.SortFunc(due, func(a, b *pendingTimer) int {
		if c := a.due.Compare(b.due); c != 0 {
			return c
		}
		return int(a.seq - b.seq)
	})
	ts.armedAt = time.Time{}
	r.armTimers()
	for _, pt := range due {
		if err := r.deliver(settlement{id: pt.id, ok: true, json: "null"}); err != nil {
			return err
		}
	}
	return nil
}

// cancelTimer settles a cleared timer's promise at once, so it never holds
// the run open; the guest side has already forgotten its callback.
func (r *run) cancelTimer(token int64) {
	pt, ok := r.timers.byToken[token]
	if !ok {
		return
	}
	delete(r.timers.byToken, token)
	r.settled.put(settlement{id: pt.id, ok: true, json: "null"})
}

// pendingToolCalls counts the pending bridge calls that are not timers: what
// maxPendingToolCalls bounds.
func (r *run) pendingToolCalls() int { return len(r.calls) - r.timers.calls }
