package main

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"time"

	"github.com/codemode-go/codemode/internal/engine/wazeroengine"
	"github.com/codemode-go/codemode/internal/quickjs"
)

// workloads.json holds the JavaScript sources every mode runs, byte for byte:
// this program embeds it and reference.mjs reads the same file.
//
//go:embed workloads.json
var workloadsJSON []byte

// workload is one guest program and its expected completion value as JSON text.
type workload struct {
	Src  string `json:"src"`
	Want string `json:"want"`
}

func loadWorkloads() (map[string]workload, error) {
	var w map[string]workload
	if err := json.Unmarshal(workloadsJSON, &w); err != nil {
		return nil, fmt.Errorf("workloads.json: %w", err)
	}
	for _, k := range []string{"loop", "loopSmall", "fib", "fibSmall", "hostCalls", "suspended"} {
		if _, ok := w[k]; !ok {
			return nil, fmt.Errorf("workloads.json: missing %q", k)
		}
	}
	return w, nil
}

// prelude exposes the two host functions as globals, as the reference does with
// vm.setProp(vm.global, name, fn).
const prelude = `(function (host) { globalThis.echo = host.echo; globalThis.later = host.later; return {}; })`

// harness is our driver on one wazero engine.
type harness struct {
	name  string
	rt    *quickjs.Runtime
	setup time.Duration // engine + compile (cached for the compiler) + template
	w     map[string]workload
}

// newHarness builds a runtime. poolSize < 0 disables instance reuse (every VM
// is a new instance), to show the cold path.
func newHarness(ctx context.Context, interpreter bool, poolSize int, w map[string]workload) (*harness, error) {
	start := time.Now()
	eng, err := wazeroengine.New(ctx, wazeroengine.Options{Interpreter: interpreter, MaxMemoryPages: 4096})
	if err != nil {
		return nil, err
	}
	rt, err := quickjs.New(ctx, quickjs.Config{
		Engine:        eng,
		HostFunctions: []string{"echo", "later"},
		Prelude:       prelude,
		PoolSize:      poolSize,
	})
	if err != nil {
		return nil, err
	}
	name := "compiler"
	if interpreter {
		name = "interpreter"
	}
	return &harness{name: name, rt: rt, setup: time.Since(start), w: w}, nil
}

// pending holds the resolvers of the last promise handed out by later().
type pending struct{ res quickjs.Resolvers }

// register installs the host callbacks (also after a restore: callbacks are
// host-side, keyed by name).
func register(vm *quickjs.VM, p *pending) {
	vm.Handle("echo", func(vm *quickjs.VM, _ quickjs.Value, args []quickjs.Value) (quickjs.Value, error) {
		s, err := vm.GoString(args[0])
		if err != nil {
			return 0, err
		}
		return vm.NewString(s)
	})
	vm.Handle("later", func(vm *quickjs.VM, _ quickjs.Value, _ []quickjs.Value) (quickjs.Value, error) {
		pr, r, err := vm.NewPromise()
		if p != nil {
			p.res = r
		}
		return pr, err
	})
}

func (h *harness) newVM(ctx context.Context, p *pending) (*quickjs.VM, error) {
	vm, err := h.rt.NewVM(ctx, quickjs.Limits{})
	if err != nil {
		return nil, err
	}
	register(vm, p)
	return vm, nil
}

// evalIn evaluates w.Src in vm and checks the completion value.
func evalIn(vm *quickjs.VM, w workload) error {
	v, err := vm.Eval(w.Src, "bench.js")
	if err != nil {
		return err
	}
	defer vm.Free(v)
	got, err := vm.ToJSON(v)
	if err != nil {
		return err
	}
	if got != w.Want {
		return fmt.Errorf("got %s, want %s", got, w.Want)
	}
	return nil
}

// evalOnce times one evaluation of a workload in a fresh VM (the VM's creation
// is not timed: the sources declare top-level let bindings, so each run needs
// its own global scope, in the reference too).
func (h *harness) evalOnce(ctx context.Context, name string) (time.Duration, error) {
	vm, err := h.newVM(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer vm.Close()
	start := time.Now()
	err = evalIn(vm, h.w[name])
	d := time.Since(start)
	if err != nil {
		return 0, fmt.Errorf("%s (%s): %w", name, h.name, err)
	}
	return d, nil
}

// freshVM times NewVM + Close (Close resets the instance to the template and
// pools it; NewVM takes it from the pool).
func (h *harness) freshVM(ctx context.Context) (time.Duration, error) {
	start := time.Now()
	vm, err := h.rt.NewVM(ctx, quickjs.Limits{})
	if err != nil {
		return 0, err
	}
	vm.Close()
	return time.Since(start), nil
}

// suspended is a VM in the middle of a run: an async function awaiting a
// promise the host has not settled yet.
type suspended struct {
	vm  *quickjs.VM
	p   *pending
	out quickjs.Value
}

func (h *harness) suspend(ctx context.Context) (*suspended, error) {
	p := &pending{}
	vm, err := h.newVM(ctx, p)
	if err != nil {
		return nil, err
	}
	out, err := vm.Eval(h.w["suspended"].Src, "bench.js")
	if err == nil {
		err = vm.RunJobs()
	}
	if err == nil && vm.State(out) != quickjs.Pending {
		err = fmt.Errorf("suspended run is not pending (state %d)", vm.State(out))
	}
	if err != nil {
		vm.Close()
		return nil, err
	}
	return &suspended{vm: vm, p: p, out: out}, nil
}

// snapshotOnce times vm.Snapshot() of the suspended VM.
func (s *suspended) snapshotOnce() (time.Duration, *quickjs.Snapshot, error) {
	start := time.Now()
	snap, err := s.vm.Snapshot()
	return time.Since(start), snap, err
}

// restoreOnce times Restore + re-registering the callbacks + Close.
func (h *harness) restoreOnce(ctx context.Context, snap *quickjs.Snapshot) (time.Duration, error) {
	start := time.Now()
	vm, err := h.rt.Restore(ctx, snap, quickjs.Limits{})
	if err != nil {
		return 0, err
	}
	register(vm, nil)
	vm.Close()
	return time.Since(start), nil
}

// verifyRestore restores snap, delivers the host result and checks that the
// suspended run completes with the expected value.
func (h *harness) verifyRestore(ctx context.Context, snap *quickjs.Snapshot, s *suspended) error {
	vm, err := h.rt.Restore(ctx, snap, quickjs.Limits{})
	if err != nil {
		return err
	}
	defer vm.Close()
	register(vm, nil)
	v, err := vm.NewString("delivered")
	if err != nil {
		return err
	}
	defer vm.Free(v)
	if err := vm.Settle(s.p.res, true, v); err != nil {
		return err
	}
	if err := vm.RunJobs(); err != nil {
		return err
	}
	if vm.State(s.out) != quickjs.Fulfilled {
		return fmt.Errorf("restored run did not complete (state %d)", vm.State(s.out))
	}
	r, err := vm.PromiseResult(s.out)
	if err != nil {
		return err
	}
	defer vm.Free(r)
	got, err := vm.ToJSON(r)
	if err != nil {
		return err
	}
	if want := h.w["suspended"].Want; got != want {
		return fmt.Errorf("restored run returned %s, want %s", got, want)
	}
	return nil
}
