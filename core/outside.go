package core

import (
	"context"
	"sync"
)

// outside counts a run's nested calls that wait for something only the host
// outside this Go program can deliver (a WebAssembly host settling a call
// through an export). When every pending call of a run is such a call, waiting
// inside the pump cannot make progress: the host gets control back only when
// the export returns. So the run suspends at once instead of sleeping until
// its deadline, and nothing ever blocks the Go runtime on the host.
type outside struct {
	mu     sync.Mutex
	n      int
	notify chan struct{} // wakes a pump blocked while a call becomes outside
}

func newOutside() *outside { return &outside{notify: make(chan struct{}, 1)} }

func (o *outside) count() int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.n
}

type outsideKey struct{}

// WaitOutside marks the nested tool call running under ctx (as passed to a
// catalog.Tool's Execute) as waiting for the host outside the module. Call the
// returned release, once or more, as soon as the answer is known to be on its
// way (synchronously, in the code that hands the answer over), and before
// blocking on anything else. While every pending call of a run is marked, the
// run suspends at once with a waiting result (reason pending_tools) instead of
// blocking; a later wait continues it. Outside a run (a direct tool call) it
// does nothing.
func WaitOutside(ctx context.Context) (release func()) {
	o, _ := ctx.Value(outsideKey{}).(*outside)
	if o == nil {
		return func() {}
	}
	o.mu.Lock()
	o.n++
	o.mu.Unlock()
	select {
	case o.notify <- struct{}{}:
	default:
	}
	var once sync.Once
	return func() {
		once.Do(func() {
			o.mu.Lock()
			o.n--
			o.mu.Unlock()
		})
	}
}
