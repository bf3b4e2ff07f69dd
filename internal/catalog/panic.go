package catalog

import (
	"context"
	"runtime/debug"
)

// PanicError is a tool's panic, recovered by Call. Its message is the only part
// a model may see; Value and Stack are for the host's log (core logs them to
// Options.Logger), since a panic value can hold anything the tool had.
type PanicError struct {
	// ToolID is the catalog id of the tool that panicked.
	ToolID string
	// Value is what the tool passed to panic.
	Value any
	// Stack is the goroutine's stack at the panic.
	Stack []byte
}

// Error names the tool only: the panic value and stack are for the host's
// logger, never for the model.
func (e *PanicError) Error() string { return "tool " + e.ToolID + " failed unexpectedly" }

// execute runs one tool, turning a panic into a *PanicError so a broken tool
// never takes the host down.
func execute(ctx context.Context, id string, t Tool, call Call) (res Result, err error) {
	defer func() {
		if p := recover(); p != nil {
			res, err = Result{}, &PanicError{ToolID: id, Value: p, Stack: debug.Stack()}
		}
	}()
	return t.Execute(ctx, call)
}
