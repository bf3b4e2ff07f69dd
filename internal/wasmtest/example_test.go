package wasmtest_test

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"
)

// A Go program embedding the reactor with wazero: _initialize, create a runtime
// with one host tool, exec a cell that calls it, execute the pending host call,
// settle it, wait for the result. (ABI.md shows the same program.)
func Example_wazeroHost() {
	ctx := context.Background()
	wasm, _ := os.ReadFile(reactorPath) // build/codemode.wasip1.reactor.demo.wasm (the shipped reactor answers it the same)
	// Compiling 32 MB of Go takes a while: cache the machine code on disk.
	cache, _ := wazero.NewCompilationCacheWithDir(filepath.Join(os.TempDir(), "codemode-wazero-cache"))
	r := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfigCompiler().WithCompilationCache(cache))
	defer r.Close(ctx)
	wasi_snapshot_preview1.MustInstantiate(ctx, r)
	// A reactor: no _start. Real clocks, sleep and randomness: wazero's defaults
	// are fakes, and the core needs them for timeoutMs, timers and run ids.
	mod, err := r.InstantiateWithConfig(ctx, wasm, wazero.NewModuleConfig().WithStartFunctions().
		WithSysWalltime().WithSysNanotime().WithSysNanosleep().WithRandSource(rand.Reader).
		WithStdout(os.Stdout).WithStderr(os.Stderr))
	if err != nil {
		panic(err)
	}
	if _, err := mod.ExportedFunction("_initialize").Call(ctx); err != nil {
		panic(err)
	}
	// call writes a JSON request into a malloc buffer (the module frees it),
	// calls the export and reads (and frees) the answer.
	call := func(export string, req any) map[string]any {
		b, _ := json.Marshal(req)
		res, _ := mod.ExportedFunction("malloc").Call(ctx, uint64(len(b)))
		mod.Memory().Write(uint32(res[0]), b)
		res, err := mod.ExportedFunction(export).Call(ctx, res[0], uint64(len(b)))
		if err != nil {
			panic(err)
		}
		ptr, n := uint32(res[0]>>32), uint32(res[0])
		out, _ := mod.Memory().Read(ptr, n)
		var answer map[string]any
		json.Unmarshal(out, &answer)
		mod.ExportedFunction("free").Call(ctx, uint64(ptr))
		if answer["error"] != nil {
			panic(fmt.Sprint(answer["error"]))
		}
		return answer["ok"].(map[string]any)
	}

	rt := call("create_runtime", map[string]any{"tools": []any{map[string]any{
		"name": "get_price", "description": "Price of an item in cents.", "trusted": true,
		"parameters": map[string]any{"type": "object", "properties": map[string]any{"item": map[string]any{"type": "string"}}, "required": []string{"item"}},
	}}})["runtime"]
	ans := call("exec", map[string]any{"runtime": rt, "code": `const p = await tools.get_price({item: "tea"}); return p.cents * 3;`})
	for ans["result"].(map[string]any)["status"] == "waiting" {
		for _, hc := range ans["hostCalls"].([]any) {
			hc := hc.(map[string]any)
			fmt.Println("host executes", hc["tool"], hc["input"])
			call("settle", map[string]any{"runtime": rt, "id": hc["id"], "result": map[string]any{"details": map[string]any{"cents": 250}}})
		}
		ans = call("wait", map[string]any{"runtime": rt, "runId": ans["result"].(map[string]any)["runId"]})
	}
	fmt.Println(ans["result"].(map[string]any)["status"], ans["result"].(map[string]any)["value"])
	// Output:
	// host executes get_price map[item:tea]
	// completed 750
}

var _ api.Module // the example's mod is an api.Module
