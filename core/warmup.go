package core

import (
	"context"
	"errors"

	"github.com/codemode-go/codemode/internal/hostopts"
)

// warmUpCell is the cell a warm-up runs: no tool call, so it never suspends.
const warmUpCell = "return 1"

// warmUp is hostopts.WarmUp: one cell through Exec's whole path (catalog,
// run set-up, VM restore and reset, result) with the catalog of scope, which
// neither the transcript, the hooks nor the run store sees. A page's core
// calls it while idle before its first cell: on V8 the first exec of a
// program pays for compiling every Go function it touches (lazily, on first
// call), which a warm-up moves out of the first cell a person runs.
func warmUp(ctx context.Context, v any, sc any) (any, error) {
	rt := v.(*Runtime)
	scope, _ := sc.(Scope)
	if rt.qjs == nil {
		return nil, errors.New(errRelayOnly)
	}
	if !rt.enter() {
		return nil, errors.New(msgClosed)
	}
	defer rt.leave()
	in := ExecInput{Code: warmUpCell}
	res, _, _ := rt.exec(ctx, CallInfo{Scope: scope}, in, nil, false)
	if res.Status != StatusCompleted {
		return res, errors.New("code mode warm-up: the cell " + warmUpCell + " did not complete: " + res.Error)
	}
	return res, nil
}

func init() { hostopts.WarmUp = warmUp }
