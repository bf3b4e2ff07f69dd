package core_test

import (
	"context"
	"runtime"
	"strings"
	"testing"

	"github.com/codemode-go/codemode/core"
	"github.com/codemode-go/codemode/internal/catalog"
	"github.com/codemode-go/codemode/internal/config"
)

// TestAdmissionRefusesPastMaxRunningCells: with one running cell allowed, a
// busy cell holds the slot, so another exec queues briefly and is refused at
// capacity (runtime_unavailable with RetryAfter), and a wait is refused the
// same way with its run left suspended; a cell waiting for its tool calls
// holds no slot, and once the busy cell ends everything runs again.
func TestAdmissionRefusesPastMaxRunningCells(t *testing.T) {
	if runtime.GOOS == "js" {
		// The busy cell must run beside this goroutine: the host engine's poll
		// does not yield under GOOS=js (see build.sh test_hostjs_go's skips).
		t.Skip("needs another goroutine to run while a guest is busy")
	}
	rt := newRuntimeWith(t, func(c *config.Config) { c.TimeoutMs = 3000 }, func(o *core.Options) { o.MaxRunningCells = 1 })
	// A run suspended on yield: it holds no slot while suspended.
	y := exec(t, rt, `await yield_control(); return "resumed"`)
	if y.Status != core.StatusWaiting {
		t.Fatalf("yield: %+v", y)
	}
	busy := make(chan core.Result)
	go func() {
		busy <- rt.Exec(context.Background(), core.CallInfo{Scope: testScope}, core.ExecInput{Code: `while (true) {}`})
	}()
	var refused, refusedWait core.Result
	for i := 0; refused.RetryAfter == 0; i++ {
		select {
		case r := <-busy:
			t.Fatalf("the busy cell ended before another was refused: %+v", r)
		default:
		}
		refused = exec(t, rt, `return 1`)
		if refused.RetryAfter == 0 && (refused.Status != core.StatusCompleted || i > 1000) {
			t.Fatalf("exec beside the busy cell: %+v", refused)
		}
	}
	refusedWait = wait(t, rt, y.RunID)
	mustFail(t, refused, core.CodeRuntimeUnavailable, "at capacity")
	mustFail(t, refusedWait, core.CodeRuntimeUnavailable, "the run stays suspended")
	if refusedWait.RetryAfter == 0 || !strings.Contains(jsonText(refused), `"runtime_unavailable"`) || strings.Contains(jsonText(refused), "etryAfter") {
		t.Fatalf("refusals: %+v / %s", refusedWait, jsonText(refused))
	}
	mustFail(t, <-busy, core.CodeTimeout, "timeoutMs")
	if v := value(t, wait(t, rt, y.RunID)); v != "resumed" {
		t.Fatalf("the refused wait's run: %v", v)
	}
	if v := value(t, exec(t, rt, `return 1`)); v != 1.0 {
		t.Fatalf("after the busy cell: %v", v)
	}
}

// A cell waiting for its tool calls gives its slot back: under a bound of
// one, another cell runs while the first waits on a tool.
func TestWaitingCellsHoldNoSlot(t *testing.T) {
	tool := streamTool{next: make(chan string), scope: make(chan catalog.Scope, 1)}
	rt := newRuntimeWith(t, nil, func(o *core.Options) { o.MaxRunningCells = 1 }, tool)
	done := make(chan core.Result, 1)
	go func() { done <- exec(t, rt, `return await tools.callValue("openclaw:core:stream", {})`) }()
	<-tool.scope // the first cell now waits on its tool
	if v := value(t, exec(t, rt, `return 1`)); v != 1.0 {
		t.Fatalf("cell beside a waiting one: %v", v)
	}
	tool.next <- "done"
	if v := value(t, <-done); v != "finished" {
		t.Fatalf("waiting cell: %v", v)
	}
}
