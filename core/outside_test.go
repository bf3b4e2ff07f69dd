package core_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/codemode-go/codemode/core"
	"github.com/codemode-go/codemode/internal/catalog"
	"github.com/codemode-go/codemode/internal/config"
	"github.com/codemode-go/codemode/internal/hostopts"
)

// hostTool waits for its answer from outside the program, as a WebAssembly
// host's tool does: it marks itself with hostopts.WaitOutside and blocks on a channel
// that the test (the "host") feeds.
type hostTool struct {
	started chan func(catalog.Result) // hands the host a settle function
}

func (hostTool) Spec() catalog.Spec {
	return catalog.Spec{Name: "host_lookup", Description: "Answered by the host.", Source: catalog.SourceClient, Owner: "host",
		Parameters: json.RawMessage(`{"type":"object"}`)}
}

func (h hostTool) Execute(ctx context.Context, call catalog.Call) (catalog.Result, error) {
	release := hostopts.WaitOutside(ctx)
	defer release()
	answer := make(chan catalog.Result, 1)
	h.started <- func(r catalog.Result) { release(); answer <- r }
	select {
	case r := <-answer:
		return r, nil
	case <-ctx.Done():
		return catalog.Result{}, ctx.Err()
	}
}

// A run whose only pending call waits for the host suspends at once (not at
// timeoutMs); after the host answers, wait continues it to completion. A run
// with another pending call besides keeps pumping that one.
func TestWaitOutsideSuspendsAtOnceAndWaitContinues(t *testing.T) {
	h := hostTool{started: make(chan func(catalog.Result), 4)}
	rt := newRuntime(t, func(c *config.Config) { c.TimeoutMs = 5000 }, h)
	t0 := time.Now()
	res := exec(t, rt, `const v = await tools.callValue("client:host:host_lookup", {}); return v.n + 1;`)
	if res.Status != core.StatusWaiting || res.Reason != "pending_tools" || len(res.PendingToolCalls) != 1 {
		t.Fatalf("exec: %+v", res)
	}
	if d := time.Since(t0); d > 2*time.Second {
		t.Fatalf("exec took %v: it waited for the deadline instead of suspending", d)
	}
	again := wait(t, rt, res.RunID) // not yet settled: suspends again at once
	if again.Status != core.StatusWaiting {
		t.Fatalf("wait before settle: %+v", again)
	}
	settle := <-h.started
	settle(catalog.Result{Details: json.RawMessage(`{"n":41}`)})
	if got := value(t, wait(t, rt, res.RunID)); got != float64(42) {
		t.Fatalf("value %v, want 42", got)
	}

	// With a Go tool pending too, the pump waits for it and then suspends for the host.
	res = exec(t, rt, `const a = tools.callValue("openclaw:core:sleep_ms", {ms: 20}); const b = tools.callValue("client:host:host_lookup", {}); await a; return (await b).n;`)
	if res.Status != core.StatusWaiting || len(res.PendingToolCalls) != 1 {
		t.Fatalf("exec with a Go tool: %+v", res)
	}
	(<-h.started)(catalog.Result{Details: json.RawMessage(`{"n":7}`)})
	if got := value(t, wait(t, rt, res.RunID)); got != float64(7) {
		t.Fatalf("value %v, want 7", got)
	}
}
