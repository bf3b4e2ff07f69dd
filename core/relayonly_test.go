package core_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/codemode-go/codemode/core"
	"github.com/codemode-go/codemode/internal/config"
	"github.com/codemode-go/codemode/internal/hostopts"
)

// An interrupt budget alone stops a busy cell: with the wall-clock deadline 60 s
// away, a rate of 10 checks per second gives a budget of 600 checks, which the
// loop spends in well under a second. Without the option the default budget is
// 1,200,000 checks, over 12 s natively (fewer than 100,000 checks a second), so
// the 10 s bound fails. This is the situation of a deployed Worker, whose clock
// stands still during CPU work.
func TestInterruptBudgetStopsABusyCellWhenTheClockWouldNot(t *testing.T) {
	rt := newRuntimeWith(t, func(c *config.Config) { c.TimeoutMs = 60000 }, func(o *core.Options) { o.Engine.InterruptsPerSecond = 10 })
	for _, code := range []string{`while (true) {}`, `let i = 0; for (;;) { i++ }`} {
		start := time.Now()
		mustFail(t, exec(t, rt, code), core.CodeTimeout, "timeoutMs")
		if d := time.Since(start); d > 10*time.Second {
			t.Fatalf("%s ran %v: the budget did not stop it", code, d)
		}
	}
	if value(t, exec(t, rt, `return 1 + 1`)) != float64(2) {
		t.Fatal("a short cell must still complete under a small budget")
	}
}

func TestNegativeInterruptRateIsRefused(t *testing.T) {
	cfg := config.Default()
	cfg.Enabled = true
	if _, err := core.New(context.Background(), core.Options{Config: cfg, Engine: core.EngineConfig{InterruptsPerSecond: -1}}); err == nil {
		t.Fatal("a negative InterruptsPerSecond must be an error")
	}
}

// A RelayOnly runtime answers the relay routes from its tools and refuses cells
// with runtime_unavailable, without ever loading QuickJS (its engine is never
// asked for: a nil-engine wazero default would cost a compile per process).
func TestRelayOnlyServesCatalogAndToolCallsButNoCells(t *testing.T) {
	rt := newRuntimeWith(t, nil, func(o *core.Options) { hostopts.Of(o).RelayOnly = true })
	cat, err := rt.Catalog(context.Background(), testScope)
	if err != nil || len(cat.Entries) == 0 {
		t.Fatalf("catalog: %v, %d entries", err, len(cat.Entries))
	}
	var id string
	for _, e := range cat.Entries {
		if e.Name == "echo" {
			id = e.ID
		}
	}
	res, terr := rt.CallTool(context.Background(), core.CallInfo{Scope: testScope, CallID: "relay_1"}, id, json.RawMessage(`{"message":"hi"}`))
	if terr != nil || !json.Valid(res.Details) {
		t.Fatalf("call %q: %+v %v", id, res, terr)
	}
	mustFail(t, exec(t, rt, `return 1`), core.CodeRuntimeUnavailable, "relays tool calls")
	mustFail(t, wait(t, rt, "run_x"), core.CodeRuntimeUnavailable, "relays tool calls")
	if err := rt.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
}
