package core

import "sync"

// settleQueue carries finished bridge calls (and timer ticks) from the
// goroutines that ran them to the goroutine driving the run. A put never
// blocks, and the queue holds only what is outstanding: a run with no nested
// call allocates nothing but the wake channel. (It used to be a channel sized
// for maxPendingToolCalls plus every possible timer, some 90 KB zeroed per
// exec, most of a fresh exec's Go-side cost.) What can be outstanding is
// bounded as before: one settlement per pending call or timer, plus one tick.
type settleQueue struct {
	mu   sync.Mutex
	q    []settlement
	wake chan struct{} // holds a token while q may be non-empty
}

func newSettleQueue() *settleQueue { return &settleQueue{wake: make(chan struct{}, 1)} }

// put queues s and wakes the driver.
func (s *settleQueue) put(x settlement) {
	s.mu.Lock()
	s.q = append(s.q, x)
	s.mu.Unlock()
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// take returns the oldest queued settlement, if any.
func (s *settleQueue) take() (settlement, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.q) == 0 {
		return settlement{}, false
	}
	x := s.q[0]
	s.q[0] = settlement{}
	s.q = s.q[1:]
	if len(s.q) == 0 {
		s.q = nil
	}
	return x, true
}
