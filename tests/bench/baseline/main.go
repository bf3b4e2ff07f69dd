// Command baseline measures end-to-end workloads through the public
// core.Runtime Exec/Wait API only, so that the same file builds against an
// older tree of this repository too: ./build.sh bench-baseline [REV] copies it
// into a temporary worktree of REV (default b2c6de6, the core before the host
// wave), runs both trees' builds in alternating rounds on this machine and
// prints new/old ratios of CPU per op ("no workload worse than today", issue 8
// section 4). CPU time (user+system of the process) is the figure to trust on
// a loaded machine; wall medians are printed beside it.
//
//	baseline -cells tests/bench/e2e.json -out old.json   # one tree, one round
//	baseline -compare old.json,old2.json new.json,new2.json
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"runtime/pprof"
	"slices"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/codemode-go/codemode/core"
	"github.com/codemode-go/codemode/internal/catalog"
	"github.com/codemode-go/codemode/internal/config"
)

// cell is one workload: a cell and the value it must return; Sessions > 0 runs
// that many concurrent execs (one session each) as one op.
type cell struct {
	Src      string `json:"src"`
	Want     string `json:"want"`
	Sessions int    `json:"sessions"`
}

// compute are the driver workloads of tests/bench/workloads.json as cells (the
// loop guard is part of their cost), plus 1,000 synchronous bridge calls.
var compute = map[string]cell{
	"loop1e6":       {Src: "let s=0; for (let i=0;i<1e6;i++) s+=i; return s", Want: "499999500000"},
	"fib25":         {Src: "function fib(n){return n<2?n:fib(n-1)+fib(n-2)} return fib(25)", Want: "75025"},
	"search1k":      {Src: `let n = 0; for (let i = 0; i < 1000; i++) n += (await tools.search("echo", 1)).length; return n`, Want: "1000"},
	"jsonRoundTrip": {Src: `const o = {a: Array.from({length: 2000}, (_, i) => ({i, s: "x" + i}))}; let n = 0; for (let k = 0; k < 20; k++) n += JSON.parse(JSON.stringify(o)).a.length; return n`, Want: "40000"},
}

// iterations per workload and round.
var iters = map[string]int{"loop1e6": 5, "fib25": 5, "search1k": 10, "jsonRoundTrip": 10, "sessions100": 3}

const defaultIters = 100

// figure is one workload's result in one round.
type figure struct {
	CPUMs  float64 `json:"cpu_ms"`  // process CPU per op
	WallMs float64 `json:"wall_ms"` // median wall time per op
	N      int     `json:"n"`
}

type tool struct {
	name string
	run  func(json.RawMessage) json.RawMessage
}

func (t tool) Spec() catalog.Spec {
	return catalog.Spec{Name: t.name, Description: "bench tool " + t.name, Source: catalog.SourceOpenClaw, Owner: "core", Origin: catalog.OriginCore}
}

func (t tool) Execute(_ context.Context, call catalog.Call) (catalog.Result, error) {
	return catalog.Result{Details: t.run(call.Input)}, nil
}

func newRuntime(ctx context.Context) (*core.Runtime, error) {
	rows := make([]map[string]any, 50)
	for i := range rows {
		rows[i] = map[string]any{"id": fmt.Sprintf("SH-%d", 1000+i), "paid": i%2 == 0, "tons": float64(i%25) + 0.5, "note": "row number " + fmt.Sprint(i)}
	}
	rowsJSON, _ := json.Marshal(rows)
	tools := []catalog.Tool{
		tool{"rows", func(json.RawMessage) json.RawMessage { return rowsJSON }},
		tool{"echo", func(in json.RawMessage) json.RawMessage { return in }},
	}
	cfg := config.Default()
	cfg.Enabled = true
	return core.New(ctx, core.Options{
		Config: cfg,
		Tools:  func(context.Context, catalog.Scope) ([]catalog.Tool, error) { return tools, nil },
	})
}

func once(ctx context.Context, rt *core.Runtime, c cell) error {
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
		wg.Go(func() {
			if err := one(fmt.Sprint("s", i)); err != nil {
				errs <- err
			}
		})
	}
	wg.Wait()
	close(errs)
	return <-errs
}

func cpuNow() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func measure(ctx context.Context, cellsPath string, scale float64, only string) (map[string]figure, error) {
	cells := map[string]cell{}
	b, err := os.ReadFile(cellsPath)
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(b, &cells); err != nil {
		return nil, err
	}
	for k, v := range compute {
		cells[k] = v
	}
	rt, err := newRuntime(ctx)
	if err != nil {
		return nil, err
	}
	defer rt.Close(ctx)
	names := make([]string, 0, len(cells))
	for k := range cells {
		if only == "" || slices.Contains(strings.Split(only, ","), k) {
			names = append(names, k)
		}
	}
	sort.Strings(names)
	for _, name := range names { // warm every path
		if c := cells[name]; c.Sessions == 0 {
			for range 3 {
				if err := once(ctx, rt, c); err != nil {
					return nil, fmt.Errorf("%s: %w", name, err)
				}
			}
		}
	}
	out := map[string]figure{}
	for _, name := range names {
		n, ok := iters[name]
		if !ok {
			n = defaultIters
		}
		n = max(1, int(float64(n)*scale))
		walls := make([]float64, 0, n)
		c0 := cpuNow()
		for range n {
			t0 := time.Now()
			if err := once(ctx, rt, cells[name]); err != nil {
				return nil, fmt.Errorf("%s: %w", name, err)
			}
			walls = append(walls, float64(time.Since(t0).Nanoseconds())/1e6)
		}
		slices.Sort(walls)
		out[name] = figure{CPUMs: float64((cpuNow() - c0).Nanoseconds()) / 1e6 / float64(n), WallMs: walls[len(walls)/2], N: n}
	}
	return out, nil
}

// pooled reads rounds of one tree and keeps, per workload, the lowest CPU per
// op and the lowest wall median over the rounds (the least disturbed round).
func pooled(paths string) (map[string]figure, error) {
	out := map[string]figure{}
	for _, p := range strings.Split(paths, ",") {
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		var r map[string]figure
		if err := json.Unmarshal(b, &r); err != nil {
			return nil, fmt.Errorf("%s: %w", p, err)
		}
		for k, f := range r {
			if o, ok := out[k]; ok {
				f.CPUMs, f.WallMs, f.N = min(o.CPUMs, f.CPUMs), min(o.WallMs, f.WallMs), o.N+f.N
			}
			out[k] = f
		}
	}
	return out, nil
}

func compare(oldPaths, newPaths string) error {
	old, err := pooled(oldPaths)
	if err != nil {
		return err
	}
	cur, err := pooled(newPaths)
	if err != nil {
		return err
	}
	var names []string
	for k := range cur {
		if _, ok := old[k]; ok {
			names = append(names, k)
		}
	}
	sort.Strings(names)
	fmt.Printf("| workload | old cpu ms/op | new cpu ms/op | new/old cpu | old wall ms | new wall ms | new/old wall |\n|---|---:|---:|---:|---:|---:|---:|\n")
	for _, k := range names {
		o, n := old[k], cur[k]
		fmt.Printf("| %s | %.3f | %.3f | %.2fx | %.3f | %.3f | %.2fx |\n", k, o.CPUMs, n.CPUMs, n.CPUMs/o.CPUMs, o.WallMs, n.WallMs, n.WallMs/o.WallMs)
	}
	return nil
}

func main() {
	cells := flag.String("cells", "tests/bench/e2e.json", "the end-to-end cells (JSON)")
	out := flag.String("out", "", "write this round's figures as JSON to FILE")
	scale := flag.Float64("scale", 1, "multiply every iteration count (0.2 for a smoke run)")
	cmp := flag.String("compare", "", "OLD[,OLD...]: print new/old ratios against the files given as arguments")
	only := flag.String("only", "", "comma-separated workloads to run (default all)")
	prof := flag.String("cpuprofile", "", "write a CPU profile of the measured runs to FILE")
	flag.Parse()
	if *cmp != "" {
		if err := compare(*cmp, strings.Join(flag.Args(), ",")); err != nil {
			fmt.Fprintln(os.Stderr, "baseline:", err)
			os.Exit(1)
		}
		return
	}
	if *prof != "" {
		f, err := os.Create(*prof)
		if err != nil {
			fmt.Fprintln(os.Stderr, "baseline:", err)
			os.Exit(1)
		}
		pprof.StartCPUProfile(f)
		defer pprof.StopCPUProfile()
	}
	res, err := measure(context.Background(), *cells, *scale, *only)
	if err != nil {
		fmt.Fprintln(os.Stderr, "baseline:", err)
		os.Exit(1)
	}
	b, _ := json.MarshalIndent(res, "", "  ")
	if *out == "" {
		fmt.Println(string(b))
	} else if err := os.WriteFile(*out, b, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "baseline:", err)
	}
}
