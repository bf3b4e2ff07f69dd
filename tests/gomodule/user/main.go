//go:build ignore

// A new user's program: one tool of their own, made with core.TypedFunc, and
// one cell that finds and calls it. The path to quickjs.wasm comes from the
// first argument, exactly as the runtime's error tells a go get user to pass it.
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/codemode-go/codemode/core"
)

type greetIn struct {
	Name string `json:"name" jsonschema:"who to greet"`
}

type greetOut struct {
	Greeting string `json:"greeting"`
}

func main() {
	ctx := context.Background()
	greet, err := core.TypedFunc(core.Spec{Name: "greet", Description: "Greet someone by name.", Owner: "demo", Origin: core.OriginBundledPlugin},
		func(_ context.Context, in greetIn) (greetOut, error) {
			return greetOut{Greeting: "hello, " + in.Name}, nil
		})
	if err != nil {
		fail(err)
	}
	cfg := core.DefaultConfig()
	cfg.Enabled = true
	opts := core.Options{
		Config: cfg,
		Tools:  func(context.Context, core.Scope) ([]core.Tool, error) { return []core.Tool{greet}, nil },
	}
	if len(os.Args) > 1 {
		opts.Engine.QuickJSWasmPath = os.Args[1]
	}
	rt, err := core.New(ctx, opts)
	if err != nil {
		fail(err)
	}
	defer rt.Close(ctx)
	res := rt.Exec(ctx, core.CallInfo{CallID: "call_1"}, core.ExecInput{Code: `
		const [t] = await tools.search("greet someone");
		return await tools.callValue(t.id, { name: "gopher" });`})
	if res.Status != core.StatusCompleted {
		fail(fmt.Errorf("cell %s: %s", res.Status, res.Error))
	}
	fmt.Println(string(res.Value))
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, err)
	os.Exit(1)
}
