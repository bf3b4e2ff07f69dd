package core_test

import (
	"context"
	"encoding/json"
	"sync/atomic"
	"testing"

	"github.com/codemode-go/codemode/core"
	"github.com/codemode-go/codemode/internal/catalog"
	"github.com/codemode-go/codemode/internal/config"
	"github.com/codemode-go/codemode/internal/hostopts"
)

// warmTool answers its input and counts its calls.
type warmTool struct{ calls atomic.Int32 }

func (w *warmTool) Spec() catalog.Spec {
	return catalog.Spec{Name: "warm_up", Description: "Answers its input.", Source: catalog.SourceClient, Owner: "codemode",
		Origin: catalog.OriginClient, ReadOnly: true, Parameters: json.RawMessage(`{"type":"object","properties":{"n":{"type":"number"}},"required":["n"]}`)}
}

func (w *warmTool) Execute(_ context.Context, call catalog.Call) (catalog.Result, error) {
	w.calls.Add(1)
	return catalog.Result{Details: call.Input}, nil
}

// The call-path warm-up calls its tool n times through the catalog of that
// tool alone: the host's tools, hooks and transcript never see it, and the
// host's catalog does not show its tool.
func TestWarmUpCallsIsUnseen(t *testing.T) {
	hooked, hostCalls := 0, 0
	cfg := config.Default()
	cfg.Enabled = true
	tr := &core.Transcript{}
	host := catalog.Func(catalog.Spec{Name: "host_tool", Description: "d", Source: catalog.SourceOpenClaw, Owner: "t",
		Parameters: json.RawMessage(`{"type":"object"}`)}, func(context.Context, json.RawMessage) (any, error) {
		hostCalls++
		return 1, nil
	})
	rt, err := core.New(context.Background(), core.Options{Config: cfg, Transcript: tr,
		Tools: func(context.Context, core.Scope) ([]catalog.Tool, error) { return []catalog.Tool{host}, nil },
		Hooks: catalog.Hooks{Before: []catalog.BeforeToolCall{
			func(context.Context, catalog.HookEvent) (catalog.BeforeDecision, error) {
				hooked++
				return catalog.BeforeDecision{}, nil
			}}}})
	if err != nil {
		t.Fatal(err)
	}
	w := &warmTool{}
	res, err := hostopts.WarmUpCalls(context.Background(), rt, testScope, w, 25)
	if err != nil {
		t.Fatalf("warm-up: %v", err)
	}
	if r := res.(core.Result); r.Status != core.StatusCompleted || string(r.Value) != "25" {
		t.Fatalf("warm-up: %+v", r)
	}
	if w.calls.Load() != 25 || hooked != 0 || hostCalls != 0 || len(tr.Entries()) != 0 {
		t.Fatalf("warm tool calls %d (want 25), hook calls %d, host tool calls %d, transcript %+v", w.calls.Load(), hooked, hostCalls, tr.Entries())
	}
	r := exec(t, rt, `return [ALL_TOOLS.map((t) => t.id).join(","), await tools.callValue("openclaw:t:host_tool", {})]`)
	if got, _ := json.Marshal(value(t, r)); string(got) != `["openclaw:t:host_tool",1]` {
		t.Fatalf("a real exec after the warm-up: %s", got)
	}
	if hostCalls != 1 || len(tr.Entries()) != 1 {
		t.Fatalf("a real exec after the warm-up: host tool calls %d, transcript %+v", hostCalls, tr.Entries())
	}
	for _, n := range []int{0, 1001} {
		if _, err := hostopts.WarmUpCalls(context.Background(), rt, testScope, w, n); err == nil {
			t.Fatalf("a warm-up of %d calls was accepted", n)
		}
	}
	rt.Close(context.Background())
	if _, err := hostopts.WarmUpCalls(context.Background(), rt, testScope, w, 1); err == nil || err.Error() != "code mode runtime is closed." {
		t.Fatalf("warm-up of a closed runtime: %v", err)
	}
}
