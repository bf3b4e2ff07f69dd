package core_test

import (
	"context"
	"fmt"

	"github.com/codemode-go/codemode/core"
)

// Two runtimes of one process share the spec's cap on suspended runs on
// purpose by passing one SuspendLimits; a runtime given none has its own.
func ExampleSuspendLimits() {
	ctx := context.Background()
	cfg := core.DefaultConfig()
	cfg.Enabled = true
	shared := core.NewSuspendLimits(2, 0) // two suspended runs between them
	var rts []*core.Runtime
	for range 2 {
		rt, err := core.New(ctx, core.Options{Config: cfg, SuspendLimits: shared})
		if err != nil {
			fmt.Println(err)
			return
		}
		defer rt.Close(ctx)
		rts = append(rts, rt)
	}
	call := core.CallInfo{Scope: core.Scope{AgentID: "agent-1", SessionID: "session-1"}}
	cell := core.ExecInput{Code: `await yield_control(); return 1`}
	fmt.Println(rts[0].Exec(ctx, call, cell).Status, rts[1].Exec(ctx, call, cell).Status)
	third := rts[0].Exec(ctx, call, cell)
	fmt.Println(third.Status, third.Error, shared.Runs())
	// Output:
	// waiting waiting
	// failed too many suspended code mode runs. 2
}

// A tool streams progress through Call.Update; the exec or wait driving the
// run receives it in CallInfo.OnUpdate, named by the nested call.
func ExampleCallInfo_onUpdate() {
	ctx := context.Background()
	cfg := core.DefaultConfig()
	cfg.Enabled = true
	rt, err := core.New(ctx, core.Options{Config: cfg, Tools: func(context.Context, core.Scope) ([]core.Tool, error) {
		return []core.Tool{counter{}}, nil
	}})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer rt.Close(ctx)
	call := core.CallInfo{Scope: core.Scope{AgentID: "agent-1"}, CallID: "exec_1",
		OnUpdate: func(u core.ToolUpdate) {
			fmt.Println(u.ParentCallID, u.CallID, u.ToolID, string(u.Partial.Details))
		}}
	res := rt.Exec(ctx, call, core.ExecInput{Code: `return await tools.callValue("openclaw:core:count", {})`})
	fmt.Println(res.Status, string(res.Value))
	// Output:
	// exec_1 call_1 openclaw:core:count {"at":1}
	// exec_1 call_1 openclaw:core:count {"at":2}
	// completed 3
}

// counter streams each step before it returns.
type counter struct{}

func (counter) Spec() core.Spec {
	return core.Spec{Name: "count", Description: "Counts to three, streaming each step.", Owner: "core", ReadOnly: true,
		Parameters: []byte(`{"type":"object"}`)}
}

func (counter) Execute(_ context.Context, call core.ToolCall) (core.ToolResult, error) {
	for i := 1; i < 3; i++ {
		if call.Update != nil {
			call.Update(core.ToolResult{Details: []byte(fmt.Sprintf(`{"at":%d}`, i))})
		}
	}
	return core.ToolResult{Details: []byte(`3`)}, nil
}
