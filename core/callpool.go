package core

// callPool runs a driven run's nested calls, each on a goroutine of its own,
// reusing the goroutines of calls that finished. A call's goroutine grows its
// stack deep (catalog, hooks, the input schema check, the tool, a JavaScript
// promise on GOOS=js) and a new goroutine grows and copies it again each time:
// on V8 that was 6% of a client-tool call's CPU (runtime.morestack). Idle
// goroutines wait for the next call only while the exec or wait that drives
// the run lasts (close, from undrive), so a run that ends or suspends leaves
// none behind; a call still running then ends its goroutine when it is done.
// nil runs each call on a new goroutine.
type callPool struct {
	work chan func()
	quit chan struct{}
}

func newCallPool() *callPool {
	return &callPool{work: make(chan func()), quit: make(chan struct{})}
}

// run starts f on an idle goroutine of the pool, or on a new one.
func (p *callPool) run(f func()) {
	if p == nil {
		go f()
		return
	}
	select {
	case p.work <- f:
	default:
		go p.loop(f)
	}
}

// loop runs f, then whatever call comes next, until the pool closes.
func (p *callPool) loop(f func()) {
	for {
		f()
		select {
		case f = <-p.work:
		case <-p.quit:
			return
		}
	}
}

// close lets the idle goroutines end; calls still running finish first.
func (p *callPool) close() { close(p.quit) }
