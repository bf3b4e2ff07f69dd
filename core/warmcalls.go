package core

import (
	"context"
	"errors"
	"strconv"

	"github.com/codemode-go/codemode/internal/catalog"
	"github.com/codemode-go/codemode/internal/config"
	"github.com/codemode-go/codemode/internal/hostopts"
)

// warmUpCallsCell calls the warm-up tool n times in sequence, as a cell
// calls a tool: tools.call with an object input, each answer awaited.
func warmUpCallsCell(id string, n int) string {
	return "const id = " + strconv.Quote(id) + "; for (let i = 0; i < " + strconv.Itoa(n) +
		"; i++) await tools.call(id, { n: i }); return " + strconv.Itoa(n)
}

// maxWarmUpCalls bounds one warm-up run.
const maxWarmUpCalls = 1000

// warmUpCalls is hostopts.WarmUpCalls: a cell of n sequential tool calls of
// tool through the call path (the prelude's call, the bridge request and
// answer, the catalog's call with its input check, the pool, the promise
// settled in the guest) in a run whose catalog holds that tool alone: no host
// tool, MCP server or hook runs, and neither the transcript nor the telemetry
// of other runs sees it. On V8 the page's call path runs as baseline code
// until V8 has seen it run for some hundred calls and compiled its hot
// functions in the background, on the cores the page and its worker share: a
// page's worker runs this while idle, so that the page's own first calls find
// that done (tests/bench/RESULTS.md, calls-3).
func warmUpCalls(ctx context.Context, v any, sc any, t any, n int) (any, error) {
	rt := v.(*Runtime)
	scope, _ := sc.(Scope)
	tool, ok := t.(catalog.Tool)
	if !ok || n < 1 || n > maxWarmUpCalls {
		return nil, errors.New("code mode warm-up: a tool and 1 to " + strconv.Itoa(maxWarmUpCalls) + " calls are needed")
	}
	if rt.qjs == nil {
		return nil, errors.New(errRelayOnly)
	}
	if !rt.enter() {
		return nil, errors.New(msgClosed)
	}
	defer rt.leave()
	in := ExecInput{Code: warmUpCallsCell(catalog.ToolID(tool.Spec()), n), Language: config.LanguageJavaScript}
	res, _, _ := rt.exec(ctx, CallInfo{Scope: scope, warmTool: tool}, in, nil, false)
	if res.Status != StatusCompleted {
		return res, errors.New("code mode warm-up: the calls did not complete: " + res.Error)
	}
	return res, nil
}

func init() { hostopts.WarmUpCalls = warmUpCalls }
