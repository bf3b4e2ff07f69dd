package main

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"sync"
	"syscall"
	"time"

	"github.com/codemode-go/codemode/core"
	"github.com/codemode-go/codemode/internal/catalog"
	"github.com/codemode-go/codemode/internal/config"
)

// e2e.json holds the end-to-end cells (issue 8, section 4): whole exec/wait
// calls through core.Runtime here, through an OpenClaw-style host on Node.js
// in e2e.mjs (a VM from the compiled module per exec, one bridge callback,
// drain, settle, dispose), with the same cells and the same tool results.
//
//go:embed e2e.json
var e2eJSON []byte

type e2eCell struct {
	Src      string `json:"src"`
	Want     string `json:"want"`
	Sessions int    `json:"sessions"`
}

// e2eOrder is the print order.
var e2eOrder = []string{"freshExec", "oneCall50", "seq20", "par10", "yieldWait", "sessions100"}

// e2eStat is one workload's figures: wall time per op and CPU time per op.
type e2eStat struct {
	Wall stat    `json:"wall"`
	CPU  float64 `json:"cpu_ms"` // process CPU (user+system) per op, ms
}

// benchRows is the 50-row result of the rows tool, the same rows e2e.mjs makes.
func benchRows(n int) []map[string]any {
	rows := make([]map[string]any, n)
	for i := range rows {
		rows[i] = map[string]any{"id": fmt.Sprintf("SH-%d", 1000+i), "paid": i%2 == 0, "tons": float64(i%25) + 0.5, "note": "row number " + fmt.Sprint(i)}
	}
	return rows
}

type benchTool struct {
	name string
	run  func(json.RawMessage) (json.RawMessage, error)
}

func (t benchTool) Spec() catalog.Spec {
	return catalog.Spec{Name: t.name, Description: "bench tool " + t.name, Source: catalog.SourceOpenClaw, Owner: "core", Origin: catalog.OriginCore}
}

func (t benchTool) Execute(_ context.Context, call catalog.Call) (catalog.Result, error) {
	d, err := t.run(call.Input)
	return catalog.Result{Details: d}, err
}

func newE2ERuntime(ctx context.Context) (*core.Runtime, error) {
	rows, _ := json.Marshal(benchRows(50))
	tools := []catalog.Tool{
		benchTool{"rows", func(json.RawMessage) (json.RawMessage, error) { return rows, nil }},
		benchTool{"echo", func(in json.RawMessage) (json.RawMessage, error) { return in, nil }},
	}
	cfg := config.Default()
	cfg.Enabled = true
	return core.New(ctx, core.Options{
		Config: cfg,
		Tools:  func(context.Context, core.Scope) ([]catalog.Tool, error) { return tools, nil },
	})
}

func cpuNow() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// e2eOnce runs one op of a workload: one exec (and wait for yieldWait), or
// for sessions100 that many concurrent execs, each its own session.
func e2eOnce(ctx context.Context, rt *core.Runtime, c e2eCell) error {
	one := func(sess string) error {
		call := core.CallInfo{Scope: core.Scope{AgentID: "bench", SessionID: sess, SessionKey: sess}, CallID: "exec"}
		r := rt.Exec(ctx, call, core.ExecInput{Code: c.Src})
		if r.Status == core.StatusWaiting {
			r = rt.Wait(ctx, call, core.WaitInput{RunID: r.RunID})
		}
		if r.Status != core.StatusCompleted || string(r.Value) != c.Want {
			return fmt.Errorf("got %s %s %s, want %s", r.Status, r.Value, r.Error, c.Want)
		}
		return nil
	}
	if c.Sessions == 0 {
		return one("s")
	}
	var wg sync.WaitGroup
	errs := make(chan error, c.Sessions)
	for i := range c.Sessions {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := one(fmt.Sprint("s", i)); err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	return <-errs
}

func runE2EOurs(ctx context.Context, plan map[string]step, logf func(string, ...any)) (map[string]e2eStat, error) {
	var cells map[string]e2eCell
	if err := json.Unmarshal(e2eJSON, &cells); err != nil {
		return nil, err
	}
	rt, err := newE2ERuntime(ctx)
	if err != nil {
		return nil, err
	}
	defer rt.Close(ctx)
	// Warm up every path first, as the reference does.
	for range 30 {
		for _, name := range e2eOrder {
			if c := cells[name]; c.Sessions == 0 {
				if err := e2eOnce(ctx, rt, c); err != nil {
					return nil, fmt.Errorf("e2e %s: %w", name, err)
				}
			}
		}
	}
	out := map[string]e2eStat{}
	for _, name := range e2eOrder {
		c := cells[name]
		s := plan[name]
		var cpu time.Duration
		st, err := measure(s, func() (time.Duration, error) {
			c0, t0 := cpuNow(), time.Now()
			err := e2eOnce(ctx, rt, c)
			d := time.Since(t0)
			cpu += cpuNow() - c0
			return d, err
		})
		if err != nil {
			return nil, fmt.Errorf("e2e %s: %w", name, err)
		}
		// CPU of warm-up runs is included in cpu; count them in the divisor.
		e := e2eStat{Wall: st, CPU: ms(cpu) / float64(s.Warm+s.N)}
		out[name] = e
		logf("ours/e2e: %-11s wall median %s ms, cpu %s ms/op", name, fmtMs(st.Median), fmtMs(e.CPU))
	}
	return out, nil
}

func e2ePlan(quick bool) map[string]step {
	if quick {
		return map[string]step{"freshExec": {3, 20}, "oneCall50": {3, 20}, "seq20": {3, 20}, "par10": {3, 20}, "yieldWait": {3, 20}, "sessions100": {1, 3}}
	}
	return map[string]step{"freshExec": {20, 200}, "oneCall50": {20, 200}, "seq20": {20, 200}, "par10": {20, 200}, "yieldWait": {20, 200}, "sessions100": {2, 15}}
}
