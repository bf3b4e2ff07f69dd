package core_test

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"time"

	"github.com/codemode-go/codemode/core"
)

// The README's "Using the runtime from Go": a tool made from a function, a
// runtime over it, a cell that suspends on a slow call, wait until it completes,
// the model-visible surface, and the clean-up calls a host makes.
func Example() {
	ctx := context.Background()

	type weatherIn struct {
		City string `json:"city" jsonschema:"the city name"`
	}
	type weatherOut struct {
		City  string  `json:"city"`
		TempC float64 `json:"tempC"`
	}
	// The input and output JSON Schemas come from the Go types.
	weather, err := core.TypedFunc(core.Spec{
		Name: "weather", Description: "Current temperature of a city.",
		Owner: "weather", Origin: core.OriginBundledPlugin,
	}, func(ctx context.Context, in weatherIn) (weatherOut, error) {
		select { // slow enough to outlast the cell's time limit
		case <-time.After(1500 * time.Millisecond):
		case <-ctx.Done():
			return weatherOut{}, ctx.Err()
		}
		return weatherOut{City: in.City, TempC: 21.5}, nil
	})
	if err != nil {
		fmt.Println(err)
		return
	}

	cfg := core.DefaultConfig() // the spec's defaults, Code Mode off
	cfg.Enabled = true
	cfg.TimeoutMs = 500
	rt, err := core.New(ctx, core.Options{
		Config: cfg,
		Tools: func(ctx context.Context, s core.Scope) ([]core.Tool, error) {
			return []core.Tool{weather}, nil
		},
		Logger: slog.New(slog.NewTextHandler(os.Stderr, nil)), // tool panics, broken namespaces, traps
		// A module fetched with go get embeds no quickjs.wasm: after
		// `npm i quickjs-wasi@3.7.0`, pass
		// Engine: core.EngineConfig{QuickJSWasmPath: "node_modules/quickjs-wasi/quickjs.wasm"},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer rt.Close(ctx)

	scope := core.Scope{AgentID: "agent-1", SessionID: "session-1"}
	res := rt.Exec(ctx, core.CallInfo{Scope: scope, CallID: "call_1"}, core.ExecInput{Code: `
		const [t] = await tools.search("temperature of a city");
		const w = await tools.callValue(t.id, { city: "Oslo" });
		return w.city + ": " + w.tempC + " °C";`})
	fmt.Println(res.Status)
	for i := 2; res.Status == core.StatusWaiting; i++ {
		res = rt.Wait(ctx, core.CallInfo{Scope: scope, CallID: fmt.Sprint("call_", i)}, core.WaitInput{RunID: res.RunID})
	}
	fmt.Println(res.Status, string(res.Value))

	surface, err := rt.Surface(ctx, scope, false) // exec, wait and the direct-only tools
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(surface.Names())

	rt.Abort(scope, "cm_unknown") // the user stopped the agent run: drop a suspended run
	rt.EndSession(scope)          // the session ended: drop all of its suspended runs
	// Output:
	// waiting
	// completed "Oslo: 21.5 °C"
	// [exec wait]
}
