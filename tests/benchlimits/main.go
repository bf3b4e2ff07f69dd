// Command benchlimits prints what enforcing the time limit from outside the
// guest costs and how well it holds (./build.sh bench-limits):
//
//  1. the overshoot past timeoutMs of every long built-in in
//     internal/longbuiltins, on the wazero compiler and interpreter,
//     through core.Runtime (the stopped VM is discarded; the next exec runs);
//  2. the compute cost of three ways to make wasm stoppable, on the same
//     workloads: no guard (cannot be stopped inside a built-in), the loop
//     guard (the default), and wazero's WithCloseOnContextDone.
//
// It is a report: it exits 0 whenever it could measure.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"slices"
	"time"

	"github.com/codemode-go/codemode/core"
	"github.com/codemode-go/codemode/internal/catalog"
	"github.com/codemode-go/codemode/internal/config"
	"github.com/codemode-go/codemode/internal/engine/wazeroengine"
	"github.com/codemode-go/codemode/internal/longbuiltins"
	"github.com/codemode-go/codemode/internal/quickjs"
)

func main() {
	timeout := flag.Int("timeout", 1000, "timeoutMs for the overshoot runs")
	runs := flag.Int("n", 5, "runs per compute workload and mode")
	only := flag.String("only", "", `"overshoot" or "cost" runs only that part`)
	flag.Parse()
	ctx := context.Background()
	if *only == "cost" {
		*timeout = 0
	}
	if err := overshoot(ctx, *timeout); err != nil {
		fmt.Fprintln(os.Stderr, "bench-limits:", err)
		os.Exit(1)
	}
	if *only == "overshoot" {
		return
	}
	if err := guardCost(ctx, *runs); err != nil {
		fmt.Fprintln(os.Stderr, "bench-limits:", err)
		os.Exit(1)
	}
}

func overshoot(ctx context.Context, timeoutMs int) error {
	if timeoutMs == 0 {
		return nil
	}
	fmt.Printf("## Overshoot past timeoutMs = %d ms (ms; each ends failed/timeout)\n\n| case | compiler | interpreter |\n|---|---|---|\n", timeoutMs)
	rts := map[bool]*core.Runtime{}
	for _, interp := range []bool{false, true} {
		cfg := config.Default()
		cfg.Enabled, cfg.TimeoutMs = true, timeoutMs
		rt, err := core.New(ctx, core.Options{Config: cfg, Engine: core.EngineConfig{Interpreter: interp},
			Tools: func(context.Context, core.Scope) ([]catalog.Tool, error) { return nil, nil }})
		if err != nil {
			return err
		}
		defer rt.Close(ctx)
		rts[interp] = rt
	}
	scope := core.Scope{AgentID: "bench", SessionID: "s", SessionKey: "s"}
	one := func(rt *core.Runtime, code string) string {
		start := time.Now()
		r := rt.Exec(ctx, core.CallInfo{Scope: scope, CallID: "exec"}, core.ExecInput{Code: code})
		over := time.Since(start) - time.Duration(timeoutMs)*time.Millisecond
		if r.Status != core.StatusFailed || r.Code != core.CodeTimeout {
			return fmt.Sprintf("NOT A TIMEOUT (%s %s)", r.Status, r.Code)
		}
		if n := rt.Exec(ctx, core.CallInfo{Scope: scope, CallID: "exec"}, core.ExecInput{Code: "return 1"}); n.Status != core.StatusCompleted {
			return "next exec failed"
		}
		return fmt.Sprintf("%.0f", float64(over.Microseconds())/1000)
	}
	for _, c := range longbuiltins.Cases {
		fmt.Printf("| %s | %s | %s |\n", c.Name, one(rts[false], c.Code), one(rts[true], c.Code))
	}
	fmt.Println()
	return nil
}

var workloads = []struct{ name, src string }{
	{"loop 1e6", `let s=0; for (let i=0;i<1e6;i++) s+=i; s`},
	{"fib(25)", `function fib(n){return n<2?n:fib(n-1)+fib(n-2)} fib(25)`},
	{"JSON round trip 1 MiB", `const o = Array.from({length: 2e4}, (_, i) => ({i, s: "x" + i})); let n = 0; for (let k = 0; k < 5; k++) n += JSON.parse(JSON.stringify(o)).length; n`},
	{"string building", `let s = ""; for (let i = 0; i < 2e5; i++) s += i; s.length`},
}

func guardCost(ctx context.Context, n int) error {
	modes := []struct {
		name string
		opts wazeroengine.Options
	}{
		{"no guard", wazeroengine.Options{NoLoopGuard: true}},
		{"loop guard (default)", wazeroengine.Options{}},
		{"WithCloseOnContextDone", wazeroengine.Options{NoLoopGuard: true, CloseOnContextDone: true}},
	}
	fmt.Printf("## Compute cost of stopping guests from outside (wazero compiler, median of %d, ms; ratio vs no guard)\n\n| workload |", n)
	for _, m := range modes {
		fmt.Printf(" %s |", m.name)
	}
	fmt.Print("\n|---|---|---|---|\n")
	rts := make([]*quickjs.Runtime, len(modes))
	for i, m := range modes {
		m.opts.MaxMemoryPages = 4096
		eng, err := wazeroengine.New(ctx, m.opts)
		if err != nil {
			return err
		}
		rt, err := quickjs.New(ctx, quickjs.Config{Engine: eng})
		if err != nil {
			return err
		}
		defer rt.Close(ctx)
		rts[i] = rt
	}
	for _, w := range workloads {
		med := make([]float64, len(modes))
		// Interleave the modes run by run, so machine noise hits all alike.
		samples := make([][]float64, len(modes))
		for k := 0; k < n+1; k++ {
			for i, rt := range rts {
				vm, err := rt.NewVM(ctx, quickjs.Limits{})
				if err != nil {
					return err
				}
				start := time.Now()
				v, err := vm.Eval(w.src, "bench.js")
				d := time.Since(start)
				if err != nil {
					return fmt.Errorf("%s: %w", w.name, err)
				}
				vm.Free(v)
				vm.Close()
				if k > 0 { // the first run warms up
					samples[i] = append(samples[i], float64(d.Microseconds())/1000)
				}
			}
		}
		fmt.Printf("| %s |", w.name)
		for i := range modes {
			slices.Sort(samples[i])
			med[i] = samples[i][len(samples[i])/2]
			if i == 0 {
				fmt.Printf(" %.1f |", med[i])
			} else {
				fmt.Printf(" %.1f (%.2fx) |", med[i], med[i]/med[0])
			}
		}
		fmt.Println()
	}
	return nil
}
