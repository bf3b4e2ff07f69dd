// Package measure times the core's own costs the same way natively and inside
// the GOOS=wasip1 module (wasm/wasip1/bench/inner), so the bench can print
// their ratio: runtime setup (compile + cold template), a fresh VM from the
// template, a trivial exec and a compute cell.
package measure

import (
	"context"
	"slices"
	"time"

	"github.com/codemode-go/codemode/core"
	"github.com/codemode-go/codemode/internal/config"
	"github.com/codemode-go/codemode/internal/engine/wazeroengine"
	"github.com/codemode-go/codemode/internal/quickjs"
)

// Figures are milliseconds (medians over the rounds, setup once).
type Figures struct {
	// Setup is compiling quickjs.wasm and building the cold template, once.
	Setup float64 `json:"setupMs"`
	// FreshVM is one VM from the template.
	FreshVM float64 `json:"freshVmMs"`
	// TrivialExec is a whole exec of "return 1".
	TrivialExec float64 `json:"trivialExecMs"`
	// Fib20 is a whole exec of the Fib20 cell.
	Fib20 float64 `json:"fib20Ms"`
}

// Fib20 is the compute cell.
const Fib20 = `function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); } return fib(20);`

// Run measures with wazero's interpreter or compiler; n rounds each.
func Run(ctx context.Context, interpreter bool, n int) (Figures, error) {
	var f Figures
	eng, err := wazeroengine.New(ctx, wazeroengine.Options{Interpreter: interpreter})
	if err != nil {
		return f, err
	}
	q, err := quickjs.New(ctx, quickjs.Config{Engine: eng})
	if err != nil {
		return f, err
	}
	defer q.Close(ctx)
	f.FreshVM, err = median(n, func() error {
		vm, err := q.NewVM(ctx, quickjs.Limits{})
		if err == nil {
			vm.Close()
		}
		return err
	})
	if err != nil {
		return f, err
	}
	cfg := config.Default()
	cfg.Enabled, cfg.TimeoutMs = true, 60000
	t0 := time.Now()
	rt, err := core.New(ctx, core.Options{Config: cfg, Engine: core.EngineConfig{Interpreter: interpreter}})
	if err != nil {
		return f, err
	}
	defer rt.Close(ctx)
	f.Setup = ms(time.Since(t0))
	call := core.CallInfo{Scope: core.Scope{AgentID: "bench"}, CallID: "exec_1"}
	exec := func(code string) func() error {
		return func() error {
			if res := rt.Exec(ctx, call, core.ExecInput{Code: code}); res.Status != core.StatusCompleted {
				return &failed{res.Error}
			}
			return nil
		}
	}
	if f.TrivialExec, err = median(n, exec("return 1")); err != nil {
		return f, err
	}
	f.Fib20, err = median(max(n/4, 3), exec(Fib20))
	return f, err
}

type failed struct{ msg string }

func (e *failed) Error() string { return "cell failed: " + e.msg }

func median(n int, do func() error) (float64, error) {
	var s []float64
	for range n {
		t0 := time.Now()
		if err := do(); err != nil {
			return 0, err
		}
		s = append(s, ms(time.Since(t0)))
	}
	return Median(s), nil
}

// Median of samples (0 for none).
func Median(s []float64) float64 {
	if len(s) == 0 {
		return 0
	}
	s = slices.Clone(s)
	slices.Sort(s)
	return s[len(s)/2]
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
