package core_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/codemode-go/codemode/core"
	"github.com/codemode-go/codemode/internal/catalog"
	"github.com/codemode-go/codemode/internal/config"
	json "github.com/goccy/go-json"
)

// TestCallDirect: a direct-only tool runs by its model-visible name with its
// input checked; catalog tools, denied tools and unknown names are
// unknown_tool (the toolset's screenshot is direct-only and fails).
func TestCallDirect(t *testing.T) {
	clock := fnTool{spec: catalog.Spec{Name: "clock", Description: "The time.", Owner: "core", DirectOnly: true,
		Parameters: json.RawMessage(`{"type":"object","properties":{"zone":{"type":"string"}},"additionalProperties":false}`)},
		fn: func(_ context.Context, c catalog.Call) (catalog.Result, error) {
			return catalog.Result{Details: json.RawMessage(`{"zone":` + jsonText(string(c.Input)) + `}`)}, nil
		}}
	secret := fnTool{spec: catalog.Spec{Name: "vault", Description: "Denied.", Owner: "core", DirectOnly: true, Parameters: json.RawMessage(`{"type":"object"}`)},
		fn: func(context.Context, catalog.Call) (catalog.Result, error) { return catalog.Result{}, nil }}
	rt := newRuntimeWith(t, nil, func(o *core.Options) { o.Policy = catalog.Policy{Deny: []string{"vault"}} }, clock, secret)
	call := core.CallInfo{Scope: testScope, CallID: "direct_1"}
	for _, c := range []struct {
		name, input, code, want string
	}{
		{"clock", `{"zone":"UTC"}`, "", `"zone":"{\"zone\":\"UTC\"}"`},
		{"clock", `{"zone":1}`, "invalid_input", "zone"},
		{"screenshot", `{}`, "tool_failed", "no screen"},
		{"echo", `{"message":"x"}`, "unknown_tool", `no direct tool is named "echo"`},
		{"vault", `{}`, "unknown_tool", "vault"},
		{"nope", `{}`, "unknown_tool", "nope"},
	} {
		res, te := rt.CallDirect(context.Background(), call, c.name, json.RawMessage(c.input))
		switch {
		case c.code == "" && (te != nil || !strings.Contains(string(res.Details), c.want)):
			t.Errorf("%s: %s %v", c.name, res.Details, te)
		case c.code != "" && (te == nil || te.Code != c.code || !strings.Contains(te.Message, c.want)):
			t.Errorf("%s: got %+v, want %s containing %q", c.name, te, c.code, c.want)
		}
	}
}

// TestWithProgressReportsWhileBlocked: an exec under WithProgress reports
// while it blocks on a slow tool (the pending call named, elapsed growing,
// timeout = timeoutMs); without it nothing reports.
func TestWithProgressReportsWhileBlocked(t *testing.T) {
	rt := newRuntime(t, func(c *config.Config) { c.TimeoutMs = 5000 })
	var mu sync.Mutex
	var got []core.Progress
	ctx := core.WithProgress(context.Background(), 20*time.Millisecond, func(p core.Progress) {
		mu.Lock()
		got = append(got, p)
		mu.Unlock()
	})
	res := rt.Exec(ctx, core.CallInfo{Scope: testScope, CallID: "exec_p"}, core.ExecInput{Code: `return (await tools.sleep_ms({ms: 300})).slept`})
	if v := value(t, res); v != float64(300) {
		t.Fatalf("value %v", v)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(got) == 0 {
		t.Fatal("no progress while the tool slept")
	}
	for i, p := range got {
		if p.Timeout != 5*time.Second || len(p.Pending) != 1 || p.Pending[0].ToolID != "openclaw:core:sleep_ms" || p.RunID == "" ||
			(i > 0 && p.Elapsed <= got[i-1].Elapsed) {
			t.Fatalf("progress %d: %+v", i, p)
		}
	}
}
