// Command bench measures the GOOS=wasip1 modules under wazero (compiler for the
// outer module, so QuickJS runs on wazero's interpreter inside wasm) against
// the native core, and prints a Markdown section for tests/bench/RESULTS.md:
//
//	./build.sh bench-wasip1 [-n 10]
package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/codemode-go/codemode/internal/measure"
	"github.com/codemode-go/codemode/internal/wasmtest"
	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"
)

var coldCompile = new(bool)

var inner = wasmtest.Module{Name: "codemode.wasip1.bench.wasm", Pkg: "./wasm/wasip1/bench/inner"}

func main() {
	n := flag.Int("n", 10, "rounds per figure")
	flag.BoolVar(coldCompile, "cold", false, "also time compiling the reactor without the cache")
	flag.Parse()
	if err := run(*n); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func run(n int) error {
	ctx := context.Background()
	paths := map[string]string{}
	for _, m := range []wasmtest.Module{wasmtest.Command, wasmtest.Reactor, inner} {
		p, err := wasmtest.Build(m)
		if err != nil {
			return err
		}
		paths[m.Name] = p
	}
	var rows []string
	row := func(format string, a ...any) { rows = append(rows, fmt.Sprintf(format, a...)) }
	for _, name := range []string{wasmtest.Command.Name, wasmtest.Reactor.Name} {
		b, _ := os.ReadFile(paths[name])
		var gz bytes.Buffer
		w, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
		w.Write(b)
		w.Close()
		row("| %s size | %.1f MB raw, %.1f MB gzip | | |", name, float64(len(b))/1e6, float64(gz.Len())/1e6)
	}

	wasm, _ := os.ReadFile(paths[wasmtest.Reactor.Name])
	if *coldCompile {
		// Compiling the outer module once without a cache (what a host pays first).
		cold := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfigCompiler())
		t0 := time.Now()
		if _, err := cold.CompileModule(ctx, wasm); err != nil {
			return err
		}
		row("| compile the reactor (wazero compiler, no cache, once) | %.0f ms | | |", ms(time.Since(t0)))
		cold.Close(ctx)
	}

	r := wasmtest.NewRuntime(ctx) // compiler + on-disk cache
	defer r.Close(ctx)
	wasi_snapshot_preview1.MustInstantiate(ctx, r)

	// Command: instantiate + first result, cached compilation.
	cmdWasm, _ := os.ReadFile(paths[wasmtest.Command.Name])
	cmd, err := r.CompileModule(ctx, cmdWasm)
	if err != nil {
		return err
	}
	var firsts []float64
	for i := range 3 {
		var out bytes.Buffer
		t0 := time.Now()
		_, err := r.InstantiateModule(ctx, cmd, wasmtest.ModuleConfig().WithName(fmt.Sprint("cmd", i)).
			WithArgs("codemode", "exec", "-e", "return 1").WithStdout(&out))
		if ee, ok := err.(interface{ ExitCode() uint32 }); err != nil && (!ok || ee.ExitCode() != 0) {
			return err
		}
		if !strings.Contains(out.String(), `"value":1`) {
			return fmt.Errorf("command printed %q", out.String())
		}
		firsts = append(firsts, ms(time.Since(t0)))
	}
	row("| command: instantiate + first result (`exec -e 'return 1'`) | %.0f ms | | median of 3, compiled module cached |", measure.Median(firsts))

	// Reactor: compile (cached), then instantiate + _initialize +
	// create_runtime + first exec, then trivial execs and host-tool round trips.
	t0 := time.Now()
	compiled, err := r.CompileModule(ctx, wasm)
	if err != nil {
		return err
	}
	row("| reactor: compile from the wazero cache | %.0f ms | | |", ms(time.Since(t0)))
	t0 = time.Now()
	mod, err := r.InstantiateModule(ctx, compiled, wasmtest.ModuleConfig().WithName("reactor").WithStartFunctions())
	if err != nil {
		return err
	}
	x := &reactor{ctx, mod}
	if _, err := mod.ExportedFunction("_initialize").Call(ctx); err != nil {
		return err
	}
	tInit := time.Since(t0)
	if _, err := x.call("create_runtime", `{"tools":[{"name":"lookup","description":"Host lookup.","parameters":{"type":"object"}}]}`); err != nil {
		return err
	}
	tCreate := time.Since(t0)
	if _, err := x.call("exec", `{"runtime":1,"code":"return 1"}`); err != nil {
		return err
	}
	row("| reactor: instantiate + _initialize | %.0f ms | | |", ms(tInit))
	row("| reactor: + create_runtime (compile quickjs.wasm, cold template) | %.0f ms | | |", ms(tCreate))
	row("| reactor: + first exec result | %.0f ms | | |", ms(time.Since(t0)))
	var trivial, trip []float64
	for range n {
		t := time.Now()
		if _, err := x.call("exec", `{"runtime":1,"code":"return 1"}`); err != nil {
			return err
		}
		trivial = append(trivial, ms(time.Since(t)))
		t = time.Now()
		a, err := x.call("exec", `{"runtime":1,"code":"return (await tools.lookup({})).n"}`)
		if err != nil {
			return err
		}
		if a.OK.Result.Status != "waiting" || len(a.OK.HostCalls) != 1 {
			return fmt.Errorf("host tool exec: %+v", a.OK)
		}
		if _, err := x.call("settle", `{"runtime":1,"id":"`+a.OK.HostCalls[0].ID+`","result":{"details":{"n":1}}}`); err != nil {
			return err
		}
		w, err := x.call("wait", `{"runtime":1,"runId":"`+a.OK.Result.RunID+`"}`)
		if err != nil || w.OK.Result.Status != "completed" {
			return fmt.Errorf("wait: %+v %v", w.OK, err)
		}
		trip = append(trip, ms(time.Since(t)))
	}

	// Inside vs native: the same measure.Run.
	var in measure.Figures
	var out bytes.Buffer
	innerWasm, _ := os.ReadFile(paths[inner.Name])
	if _, err := r.InstantiateWithConfig(ctx, innerWasm, wasmtest.ModuleConfig().WithName("inner").
		WithArgs("inner", fmt.Sprint(n)).WithStdout(&out).WithStderr(os.Stderr)); err != nil {
		if ee, ok := err.(interface{ ExitCode() uint32 }); !ok || ee.ExitCode() != 0 {
			return err
		}
	}
	if err := json.Unmarshal(out.Bytes(), &in); err != nil {
		return fmt.Errorf("inner printed %q: %v", out.String(), err)
	}
	nc, err := measure.Run(ctx, false, n)
	if err != nil {
		return err
	}
	ni, err := measure.Run(ctx, true, n)
	if err != nil {
		return err
	}
	row("| reactor: trivial exec (`return 1`, exec export) | %.2f ms | native compiler %.3f ms | %.0fx |", measure.Median(trivial), nc.TrivialExec, measure.Median(trivial)/nc.TrivialExec)
	row("| reactor: one host-tool round trip (exec -> waiting, settle, wait -> completed) | %.2f ms | | |", measure.Median(trip))
	row("| in wasm: runtime setup (core.New: compile + cold template) | %.0f ms | native compiler %.1f ms, interpreter %.1f ms | %.1fx / %.2fx |", in.Setup, nc.Setup, ni.Setup, in.Setup/nc.Setup, in.Setup/ni.Setup)
	row("| in wasm: fresh VM from the template | %.2f ms | native compiler %.3f ms, interpreter %.3f ms | %.1fx / %.2fx |", in.FreshVM, nc.FreshVM, ni.FreshVM, in.FreshVM/nc.FreshVM, in.FreshVM/ni.FreshVM)
	row("| in wasm: trivial exec (core.Exec) | %.2f ms | native compiler %.3f ms, interpreter %.3f ms | %.1fx / %.2fx |", in.TrivialExec, nc.TrivialExec, ni.TrivialExec, in.TrivialExec/nc.TrivialExec, in.TrivialExec/ni.TrivialExec)
	row("| in wasm: compute, fib(20) cell | %.0f ms | native compiler %.1f ms, interpreter %.0f ms | %.1fx / %.2fx |", in.Fib20, nc.Fib20, ni.Fib20, in.Fib20/nc.Fib20, in.Fib20/ni.Fib20)

	fmt.Printf("## GOOS=wasip1 modules (issue 14), measured %s\n\n", time.Now().UTC().Format("2006-01-02 15:04 UTC"))
	fmt.Printf("Command: `./build.sh bench-wasip1 -n %d` (`go run ./wasm/wasip1/bench`). Machine: %s/%s, %d CPUs, %s, wazero compiler for the outer module.\n\n",
		n, runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), runtime.Version())
	fmt.Println("| figure | wasip1 (wazero) | native | ratio (vs compiler / vs interpreter) |\n|---|---:|---:|---:|")
	for _, r := range rows {
		fmt.Println(r)
	}
	return nil
}

type reactor struct {
	ctx context.Context
	mod api.Module
}

type answer struct {
	OK struct {
		Result struct {
			Status string `json:"status"`
			RunID  string `json:"runId"`
		} `json:"result"`
		HostCalls []struct{ ID string } `json:"hostCalls"`
	} `json:"ok"`
	Error json.RawMessage `json:"error"`
}

func (x *reactor) call(export, req string) (answer, error) {
	var a answer
	res, err := x.mod.ExportedFunction("malloc").Call(x.ctx, uint64(len(req)))
	if err != nil {
		return a, err
	}
	x.mod.Memory().Write(uint32(res[0]), []byte(req))
	res, err = x.mod.ExportedFunction(export).Call(x.ctx, res[0], uint64(len(req)))
	if err != nil {
		return a, err
	}
	p, l := uint32(res[0]>>32), uint32(res[0])
	b, _ := x.mod.Memory().Read(p, l)
	err = json.Unmarshal(b, &a)
	x.mod.ExportedFunction("free").Call(x.ctx, uint64(p))
	if err == nil && a.Error != nil {
		err = fmt.Errorf("%s: %s", export, a.Error)
	}
	return a, err
}
