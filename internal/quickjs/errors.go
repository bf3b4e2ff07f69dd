package quickjs

import (
	"errors"
	"fmt"
)

// JSError is an exception thrown in the guest: its name, message and the guest
// stack (QuickJS backtrace lines, never a host path).
type JSError struct {
	Name    string `json:"name"`
	Message string `json:"message"`
	Stack   string `json:"stack,omitempty"`
}

func (e *JSError) Error() string {
	if e.Message == "" {
		return e.Name
	}
	return e.Name + ": " + e.Message
}

// IsOutOfMemory reports whether the guest ran out of its memory limit.
func (e *JSError) IsOutOfMemory() bool {
	return e.Name == "InternalError" && e.Message == "out of memory"
}

// InterruptError means the interrupt handler stopped the guest: the wall-clock
// deadline passed, the interrupt budget ran out, or the context was canceled.
// QuickJS raises it uncatchably; the VM stays usable. Stopped marks the hard
// stop from outside the guest (engine.Poller): the guest did not reach an
// interrupt check in time, the instance was stopped, and the VM is discarded.
type InterruptError struct {
	Reason  string // "deadline", "budget" or "canceled"
	Stopped bool
}

func (e *InterruptError) Error() string { return "interrupted: " + e.Reason }

// TrapError means the WebAssembly instance trapped. The VM is discarded.
type TrapError struct{ Err error }

func (e *TrapError) Error() string { return fmt.Sprintf("quickjs trapped: %v", e.Err) }
func (e *TrapError) Unwrap() error { return e.Err }

// ErrClosed is returned by any call on a closed or discarded VM.
var ErrClosed = errors.New("quickjs: VM is closed")

// Throw lets a host function throw a guest error with a chosen name
// ("TypeError", "RangeError", ...). Any other error a host function returns
// becomes a plain guest Error with err.Error() as message.
type Throw struct {
	Name, Message string
}

func (t *Throw) Error() string { return t.Name + ": " + t.Message }
