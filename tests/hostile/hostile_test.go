package hostile_test

import (
	"context"
	"encoding/json"
	"regexp"
	"runtime"
	"testing"
	"time"

	"github.com/codemode-go/codemode/core"
	"github.com/codemode-go/codemode/internal/catalog"
	"github.com/codemode-go/codemode/internal/config"
	"github.com/codemode-go/codemode/internal/hostopts"
	"github.com/codemode-go/codemode/internal/toolset"
	"github.com/codemode-go/codemode/tests/hostile"
)

var scope = core.Scope{AgentID: "hostile", SessionID: "s", SessionKey: "k", AgentRunID: "r"}

// leak matches what must never reach a model: Go stacks, source paths, Go
// type names, host paths.
var leak = regexp.MustCompile(`goroutine \d|\.go:\d|github\.com/|/root/|/work/|/usr/local/go|\*core\.|runtime\.|panic\(|Go value of type`)

func newRuntime(t *testing.T, timeoutMs int) *core.Runtime {
	t.Helper()
	tools, err := toolset.Tools()
	if err != nil {
		t.Fatal(err)
	}
	cfg := config.Default()
	cfg.Enabled = true
	cfg.TimeoutMs = timeoutMs
	cfg.MemoryLimitBytes = 64 << 20
	ns, err := toolset.Namespaces()
	if err != nil {
		t.Fatal(err)
	}
	rt, err := core.New(context.Background(), core.Options{
		Config:     cfg,
		Tools:      func(context.Context, core.Scope) ([]catalog.Tool, error) { return tools, nil },
		Namespaces: ns,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rt.Close(context.Background()) })
	return rt
}

func run(rt *core.Runtime, c hostile.Case, callID string) core.Result {
	return rt.Exec(context.Background(), core.CallInfo{Scope: scope, CallID: callID}, core.ExecInput{Code: c.Code, Language: c.Language})
}

// TestHostile runs every case of the battery and, after each, checks that the
// host is healthy: the next exec works, goroutines return to their count and
// the Go heap to near its baseline.
func TestHostile(t *testing.T) {
	rt := newRuntime(t, 2000)
	slow := map[int]*core.Runtime{}
	if r := run(rt, hostile.Case{Code: "return 1"}, "warm"); r.Status != core.StatusCompleted {
		t.Fatalf("warm-up: %+v", r)
	}
	baseG := settledGoroutines(0)
	baseHeap := heap()
	outer := t
	for i, c := range hostile.Cases {
		t.Run(c.Name, func(t *testing.T) {
			rt := rt
			if c.TimeoutMs != 0 {
				if slow[c.TimeoutMs] == nil {
					slow[c.TimeoutMs] = newRuntime(outer, c.TimeoutMs)
				}
				rt = slow[c.TimeoutMs]
			}
			r := run(rt, c, "exec_"+c.Name)
			if r.Status == core.StatusWaiting {
				rt.Abort(scope, r.RunID)
			}
			check(t, c, r)
			if next := run(rt, hostile.Case{Code: "return 20 + 22"}, "next"); next.Status != core.StatusCompleted || string(next.Value) != "42" {
				t.Fatalf("the next exec after %q: %s", c.Name, text(next))
			}
			if n := rt.Suspended(); n != 0 {
				t.Errorf("%d runs still suspended", n)
			}
			if g := settledGoroutines(baseG); g > baseG+4 {
				t.Errorf("goroutines %d, baseline %d (case %d)", g, baseG, i)
			}
			if h := heap(); h > baseHeap+128<<20 {
				t.Errorf("Go heap %d MiB, baseline %d MiB", h>>20, baseHeap>>20)
			}
		})
	}
}

func check(t *testing.T, c hostile.Case, r core.Result) {
	t.Helper()
	all := text(r)
	if leak.MatchString(r.Error) || leak.MatchString(string(r.Value)) {
		t.Errorf("host internals leak into the result: %s", all)
	}
	if m := c.Mismatch(string(r.Status), string(r.Code), r.Error, r.Value); m != "" {
		t.Fatalf("%s: %s", m, all)
	}
}

// settledGoroutines waits briefly for goroutines of the last run to end.
func settledGoroutines(base int) int {
	n := runtime.NumGoroutine()
	for i := 0; i < 40 && n > base+4; i++ {
		time.Sleep(50 * time.Millisecond)
		n = runtime.NumGoroutine()
	}
	return n
}

func heap() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapInuse
}

func text(r core.Result) string {
	b, _ := json.Marshal(r)
	if len(b) > 600 {
		b = append(b[:600], "..."...)
	}
	return string(b)
}

// TestOrdinaryCellsAreDeterministic: each cell of the differential corpus gives
// its exact value in deterministic mode, natively and (the same test under
// GOOS=js) on the host engine; internal/wasmtest checks the same values
// through the wasip1 module.
func TestOrdinaryCellsAreDeterministic(t *testing.T) {
	rt := newDeterministicRuntime(t)
	for _, c := range hostile.Ordinary {
		t.Run(c.Name, func(t *testing.T) {
			r := run(rt, c, "exec_"+c.Name)
			c.Status = "completed"
			if m := c.Mismatch(string(r.Status), string(r.Code), r.Error, r.Value); m != "" {
				t.Errorf("%s: %s", m, text(r))
			}
		})
	}
}

func newDeterministicRuntime(t *testing.T) *core.Runtime {
	t.Helper()
	tools, err := toolset.Tools()
	if err != nil {
		t.Fatal(err)
	}
	cfg := config.Default()
	cfg.Enabled = true
	cfg.TimeoutMs = 2000
	cfg.MemoryLimitBytes = 64 << 20
	ns, err := toolset.Namespaces()
	if err != nil {
		t.Fatal(err)
	}
	opts := core.Options{Config: cfg, Namespaces: ns,
		Tools: func(context.Context, core.Scope) ([]catalog.Tool, error) { return tools, nil }}
	hostopts.Of(&opts).Deterministic = true
	rt, err := core.New(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rt.Close(context.Background()) })
	return rt
}
