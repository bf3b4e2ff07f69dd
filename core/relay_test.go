package core_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/codemode-go/codemode/core"
	"github.com/codemode-go/codemode/internal/catalog"
)

// TestCallToolGoesThroughTheCatalogPath: a relayed call sees the same hooks,
// denials, output contract and transcript as a guest call.
func TestCallToolGoesThroughTheCatalogPath(t *testing.T) {
	var seen []string
	tr := &core.Transcript{}
	lying := coreTool("lying", func(context.Context, catalog.Call) (catalog.Result, error) {
		return catalog.Result{Details: json.RawMessage(`"not a number"`)}, nil
	}, func(s *catalog.Spec) { s.OutputSchema = json.RawMessage(`{"type":"number"}`) })
	boom := coreTool("boom", func(context.Context, catalog.Call) (catalog.Result, error) { panic("at /secret/path.go") }, nil)
	rt := newRuntimeWith(t, nil, func(o *core.Options) {
		o.Transcript = tr
		o.Hooks.Before = append(o.Hooks.Before, func(_ context.Context, ev catalog.HookEvent) (catalog.BeforeDecision, error) {
			seen = append(seen, ev.ToolID+"/"+string(ev.Via)+"/"+ev.CallID)
			return catalog.BeforeDecision{Deny: ev.ToolName == "echo" && strings.Contains(string(ev.Input), "forbidden"), Reason: "no"}, nil
		})
	}, lying, boom)
	ctx := context.Background()
	call := core.CallInfo{Scope: testScope, CallID: "relay_1"}
	res, terr := rt.CallTool(ctx, call, "openclaw:core:echo", json.RawMessage(`{"message":"hi"}`))
	if terr != nil || !strings.Contains(string(res.Details), "hi") {
		t.Fatalf("echo: %s %v", res.Details, terr)
	}
	for _, c := range []struct{ id, input, code string }{
		{"openclaw:core:echo", `{"message":"forbidden"}`, "denied"},
		{"openclaw:core:lying", `{}`, "output_contract"},
		{"openclaw:core:boom", `{}`, "tool_failed"},
		{"openclaw:core:nope", `{}`, "unknown_tool"},
		{"mcp:nobody:nothing", `{}`, "unknown_tool"},
		{"openclaw:core:echo", `{not json`, "invalid_input"},
	} {
		_, terr := rt.CallTool(ctx, call, c.id, json.RawMessage(c.input))
		if terr == nil || terr.Code != c.code || terr.Message == "" || strings.Contains(terr.Message, "/secret/") {
			t.Errorf("%s %s: %+v, want code %s", c.id, c.input, terr, c.code)
		}
	}
	if len(seen) == 0 || seen[0] != "openclaw:core:echo/tools/relay_1" {
		t.Errorf("hook saw %v", seen)
	}
	var relayed int
	for _, e := range tr.Entries() {
		if e.Tool == "tools/call" && len(e.Nested) == 1 {
			relayed++
		}
	}
	if relayed != 7 {
		t.Errorf("transcript has %d relayed calls with their nested record, want 7: %+v", relayed, tr.Entries())
	}
}

func TestCatalogExportsTrustOwnerAndSchemas(t *testing.T) {
	rt := newRuntime(t, nil)
	cat, err := rt.Catalog(context.Background(), testScope)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range cat.Entries {
		if e.Owner == "" || len(e.Parameters) == 0 || e.Trust != catalog.Trusted {
			t.Errorf("entry %+v", e)
		}
		if e.Name == "screenshot" {
			t.Error("a direct-only tool is exported")
		}
	}
}

// TestWaitFromAnotherPrincipalIsAnUnknownRun: same scope, other principal, and
// the answer cannot be told apart from one for a runId that never existed.
func TestWaitFromAnotherPrincipalIsAnUnknownRun(t *testing.T) {
	rt := newRuntime(t, nil)
	ctx := context.Background()
	alice := core.CallInfo{Scope: testScope, CallID: "c1", Principal: "alice"}
	bob := core.CallInfo{Scope: testScope, CallID: "c1", Principal: "bob"}
	r := rt.Exec(ctx, alice, core.ExecInput{Code: "await yield_control(); return 'a'"})
	if r.Status != core.StatusWaiting {
		t.Fatalf("exec: %+v", r)
	}
	other, _ := json.Marshal(rt.Wait(ctx, bob, core.WaitInput{RunID: r.RunID}))
	unknown, _ := json.Marshal(rt.Wait(ctx, bob, core.WaitInput{RunID: "cm_000000000000000000000000"}))
	if string(other) != string(unknown) {
		t.Fatalf("other principal: %s\nunknown: %s", other, unknown)
	}
	if v := value(t, rt.Wait(ctx, alice, core.WaitInput{RunID: r.RunID})); v != "a" {
		t.Fatalf("owner's wait: %v", v)
	}
}

// TestPanickingToolIsRecordedAsAFailedCall: inside a cell too, the panic is a
// catchable error and the trajectory keeps the call with outcome error.
func TestPanickingToolIsRecordedAsAFailedCall(t *testing.T) {
	tr := &core.Transcript{}
	boom := coreTool("boom", func(context.Context, catalog.Call) (catalog.Result, error) { panic("secret /root/x") }, nil)
	rt := newRuntimeWith(t, nil, func(o *core.Options) { o.Transcript = tr }, boom)
	r := exec(t, rt, "try { await tools.boom({}) } catch (e) { return e.message }")
	if v, _ := value(t, r).(string); !strings.Contains(v, "failed unexpectedly") || strings.Contains(v, "secret") {
		t.Fatalf("value %v", value(t, r))
	}
	es := tr.Entries()
	if len(es) != 1 || len(es[0].Nested) != 1 || es[0].Nested[0].Outcome != catalog.OutcomeError {
		t.Fatalf("transcript %+v", es)
	}
}
