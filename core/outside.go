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

// waitOutside is hostopts.WaitOutside (set in init).
func waitOutside(ctx context.Context) (release func()) {
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
