//go:build js && wasm

// Command driver is the "ours" side of ./build.sh bench-hostjs at the driver
// level: the same workload sources as tests/bench/workloads.json, run by the
// QuickJS driver on the host's own WebAssembly engine (internal/engine/jsengine) and
// on wazero's interpreter, in the same worker as quickjs-wasi's own host.
//
// Boot as codemode.wasm: globalThis.__codemodeBoot.ready(api) receives
// {run(planJSON) -> Promise<resultsJSON>}.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"syscall/js"
	"time"

	"github.com/codemode-go/codemode/internal/engine"
	"github.com/codemode-go/codemode/internal/engine/jsengine"
	"github.com/codemode-go/codemode/internal/engine/wazeroengine"
	"github.com/codemode-go/codemode/internal/quickjs"
)

type workload struct {
	Src  string `json:"src"`
	Want string `json:"want"`
}

type plan struct {
	Workloads map[string]workload `json:"workloads"`
	// Steps: name -> [warm, n]; engine "host" or "wazero".
	Steps  map[string][2]int `json:"steps"`
	Engine string            `json:"engine"`
}

type stat struct {
	MedianMs float64 `json:"median_ms"`
	MinMs    float64 `json:"min_ms"`
	N        int     `json:"n"`
	// Samples are the timed runs in order, for pooling rounds in the page.
	Samples []float64 `json:"samples"`
}

func main() {
	done := make(chan struct{})
	run := js.FuncOf(func(_ js.Value, args []js.Value) any {
		text := args[0].String()
		return js.Global().Get("Promise").New(js.FuncOf(func(_ js.Value, pa []js.Value) any {
			resolve, reject := pa[0], pa[1]
			go func() {
				out, err := runPlan(text)
				if err != nil {
					reject.Invoke(js.Global().Get("Error").New(err.Error()))
					return
				}
				resolve.Invoke(out)
			}()
			return nil
		}))
	})
	api := js.Global().Get("Object").New()
	api.Set("run", run)
	// exit ends this Go instance (the page boots one per round, each with a
	// freshly compiled quickjs.wasm).
	api.Set("exit", js.FuncOf(func(js.Value, []js.Value) any { close(done); return nil }))
	js.Global().Get("__codemodeBoot").Call("ready", api)
	<-done
}

func runPlan(text string) (string, error) {
	var p plan
	if err := json.Unmarshal([]byte(text), &p); err != nil {
		return "", err
	}
	ctx := context.Background()
	var eng engine.Engine
	var err error
	if p.Engine == "wazero" {
		eng, err = wazeroengine.New(ctx, wazeroengine.Options{Interpreter: true})
	} else {
		eng, err = jsengine.New(jsengine.Options{})
	}
	if err != nil {
		return "", err
	}
	t0 := time.Now()
	rt, err := quickjs.New(ctx, quickjs.Config{Engine: eng, HostFunctions: []string{"echo"},
		Prelude: `(function (host) { globalThis.echo = host.echo; return {}; })`})
	if err != nil {
		return "", err
	}
	defer rt.Close(ctx)
	setup := ms(time.Since(t0))
	results := map[string]stat{"setup": {MedianMs: setup, MinMs: setup, N: 1, Samples: []float64{setup}}}
	names := make([]string, 0, len(p.Steps))
	for n := range p.Steps {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		step := p.Steps[name]
		var f func() (time.Duration, error)
		if name == "freshVM" {
			f = func() (time.Duration, error) {
				start := time.Now()
				vm, err := rt.NewVM(ctx, quickjs.Limits{})
				if err != nil {
					return 0, err
				}
				vm.Close()
				return time.Since(start), nil
			}
		} else {
			w, ok := p.Workloads[name]
			if !ok {
				return "", fmt.Errorf("no workload %q", name)
			}
			f = func() (time.Duration, error) { return evalOnce(ctx, rt, w) }
		}
		s, err := measure(step, f)
		if err != nil {
			return "", fmt.Errorf("%s: %v", name, err)
		}
		results[name] = s
	}
	b, err := json.Marshal(results)
	return string(b), err
}

// evalOnce times one eval plus reading the result, in a VM created (untimed)
// for the run, as tests/bench/reference.mjs does.
func evalOnce(ctx context.Context, rt *quickjs.Runtime, w workload) (time.Duration, error) {
	vm, err := rt.NewVM(ctx, quickjs.Limits{})
	if err != nil {
		return 0, err
	}
	defer vm.Close()
	vm.Handle("echo", func(vm *quickjs.VM, _ quickjs.Value, args []quickjs.Value) (quickjs.Value, error) {
		s, err := vm.GoString(args[0])
		if err != nil {
			return 0, err
		}
		return vm.NewString(s)
	})
	start := time.Now()
	v, err := vm.Eval(w.Src, "bench.js")
	if err != nil {
		return 0, err
	}
	got, err := vm.ToJSON(v)
	vm.Free(v)
	d := time.Since(start)
	if err != nil {
		return 0, err
	}
	if got != w.Want {
		return 0, fmt.Errorf("got %s, want %s", got, w.Want)
	}
	return d, nil
}

func measure(step [2]int, f func() (time.Duration, error)) (stat, error) {
	for i := 0; i < step[0]; i++ {
		if _, err := f(); err != nil {
			return stat{}, err
		}
	}
	var xs []float64
	for i := 0; i < step[1]; i++ {
		d, err := f()
		if err != nil {
			return stat{}, err
		}
		xs = append(xs, ms(d))
	}
	samples := append([]float64(nil), xs...)
	sort.Float64s(xs)
	n := len(xs)
	med := xs[n/2]
	if n%2 == 0 {
		med = (xs[n/2-1] + xs[n/2]) / 2
	}
	return stat{MedianMs: med, MinMs: xs[0], N: n, Samples: samples}, nil
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
