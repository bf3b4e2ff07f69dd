package core_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/codemode-go/codemode/core"
)

// newExampleRuntime is the set-up every example shares: the spec's defaults
// with Code Mode on, and opts' other fields.
func newExampleRuntime(ctx context.Context, opts core.Options) (*core.Runtime, error) {
	opts.Config = core.DefaultConfig()
	opts.Config.Enabled = true
	return core.New(ctx, opts)
}

// A policy hides tools from every run; hooks see each nested call before and
// after it runs: a before-hook may deny it (the guest gets a catchable error
// with the reason), rewrite its input or send it to the Approver, and an
// after-hook may rewrite its result.
func ExampleHooks() {
	ctx := context.Background()
	spec := func(name string) core.Spec {
		return core.Spec{Name: name, Description: name + " a message", Owner: "mail", Origin: core.OriginBundledPlugin}
	}
	echo := func(_ context.Context, in json.RawMessage) (any, error) { return in, nil }
	rt, err := newExampleRuntime(ctx, core.Options{
		Tools: func(context.Context, core.Scope) ([]core.Tool, error) {
			return []core.Tool{core.Func(spec("draft"), echo), core.Func(spec("send"), echo), core.Func(spec("delete"), echo)}, nil
		},
		Policy: core.Policy{Deny: []string{"delete"}}, // no run ever sees it
		Hooks: core.Hooks{
			Before: []func(context.Context, core.HookEvent) (core.BeforeDecision, error){
				func(_ context.Context, ev core.HookEvent) (core.BeforeDecision, error) {
					if ev.ToolName == "send" {
						return core.BeforeDecision{Deny: true, Reason: "sending is off in this demo"}, nil
					}
					return core.BeforeDecision{}, nil
				},
			},
			After: []func(context.Context, core.HookEvent, core.ToolResult) (core.ToolResult, error){
				func(_ context.Context, ev core.HookEvent, res core.ToolResult) (core.ToolResult, error) {
					res.Details = json.RawMessage(`{"drafted":` + string(res.Details) + `}`)
					return res, nil
				},
			},
		},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer rt.Close(ctx)
	res := rt.Exec(ctx, core.CallInfo{CallID: "call_1"}, core.ExecInput{Code: `
		const d = await tools.draft({to: "ana"});
		let sent;
		try { await tools.send({to: "ana"}); } catch (e) { sent = e.message; }
		return {d, sent, deleteVisible: "delete" in tools};`})
	fmt.Println(res.Status, string(res.Value))
	// Output:
	// completed {"d":{"drafted":{"to":"ana"}},"sent":"tool call \"openclaw:mail:send\" denied by policy: sending is off in this demo","deleteVisible":false}
}

// A plugin namespace is a guest global (here Issues) whose members are plain
// data and calls of the plugin's own catalog tools; the host never runs code
// inside the scope itself. Each run that sees the tools it needs gets the
// global, built by CreateScope.
func ExampleNamespace() {
	ctx := context.Background()
	list, err := core.TypedFunc(core.Spec{Name: "issues_list", Description: "List the repository's issues.",
		Owner: "issues", Origin: core.OriginBundledPlugin, ReadOnly: true},
		func(_ context.Context, in struct {
			State string `json:"state"`
		}) ([]string, error) {
			return []string{"#1 Gateway logs are noisy (" + in.State + ")"}, nil
		})
	if err != nil {
		fmt.Println(err)
		return
	}
	namespaces := core.NewNamespaceRegistry()
	err = namespaces.RegisterForPlugin("issues", core.Namespace{
		ID: "issues", GlobalName: "Issues", Description: "The repository's issue tracker.",
		RequiredToolNames: []string{"issues_list"},
		CreateScope: func(ctx core.NamespaceContext) (any, error) {
			return map[string]any{
				"repo": "acme/app",
				// Issues.open() calls issues_list with {"state": "open"}.
				"open": core.CallTool("issues_list", func([]json.RawMessage) (json.RawMessage, error) {
					return json.RawMessage(`{"state":"open"}`), nil
				}),
			}, nil
		},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	rt, err := newExampleRuntime(ctx, core.Options{
		Tools:      func(context.Context, core.Scope) ([]core.Tool, error) { return []core.Tool{list}, nil },
		Namespaces: namespaces,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer rt.Close(ctx)
	res := rt.Exec(ctx, core.CallInfo{CallID: "call_1"}, core.ExecInput{Code: `return [Issues.repo, await Issues.open()]`})
	fmt.Println(res.Status, string(res.Value))
	// Output:
	// completed ["acme/app",["#1 Gateway logs are noisy (open)"]]
}
