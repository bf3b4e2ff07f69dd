package core

import (
	"context"
	"sync"
)

// msgClosed answers every call on a closed Runtime.
const msgClosed = "code mode runtime is closed."

// errClosed is msgClosed for the calls that return errors.
var errClosed = closedError{}

type closedError struct{}

func (closedError) Error() string { return msgClosed }

// lifecycle counts the exec/wait calls in progress, so Close releases the VMs
// and the engine only after the last of them left, and refuses new ones.
type lifecycle struct {
	mu       sync.Mutex
	closed   bool
	active   int
	released chan struct{} // closed once the engine is released
}

// enter admits a call; false once Close began.
func (rt *Runtime) enter() bool {
	l := &rt.life
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return false
	}
	l.active++
	return true
}

// leave ends a call; the last call out of a closing runtime releases it.
func (rt *Runtime) leave() {
	l := &rt.life
	l.mu.Lock()
	l.active--
	last := l.closed && l.active == 0
	l.mu.Unlock()
	if last {
		rt.releaseOnce()
	}
}

// Close ends every run (suspended runs are freed, runs in progress are aborted
// and their exec or wait returns at once), refuses every later call with "code
// mode runtime is closed.", and, once the calls in progress returned, releases
// the QuickJS module and the engine if New created it. An engine passed in
// Options.Engine stays open: it is the host's. If ctx ends first, Close returns
// its error and the release happens when the last call returns.
func (rt *Runtime) Close(ctx context.Context) error {
	l := &rt.life
	l.mu.Lock()
	first := !l.closed
	l.closed = true
	idle := l.active == 0
	l.mu.Unlock()
	if first {
		rt.store.close()
		if idle {
			rt.releaseOnce()
		}
	}
	select {
	case <-l.released:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (rt *Runtime) releaseOnce() {
	rt.releaseMu.Do(func() {
		ctx := context.Background()
		if rt.qjs != nil {
			rt.qjs.Close(ctx)
		}
		if rt.ownEngine != nil {
			rt.ownEngine.Close(ctx)
		}
		close(rt.life.released)
	})
}
