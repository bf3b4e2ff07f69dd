package core_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/codemode-go/codemode/core"
	"github.com/codemode-go/codemode/internal/catalog"
	"github.com/codemode-go/codemode/internal/config"
)

var testScope = core.Scope{AgentID: "agent-1", SessionID: "s-1", SessionKey: "key-1", AgentRunID: "run-1"}

// newRuntime builds a runtime over the example toolset plus extra tools;
// mod adjusts the (enabled, default) config.
func newRuntime(t testing.TB, mod func(*config.Config), extra ...catalog.Tool) *core.Runtime {
	t.Helper()
	return newRuntimeWith(t, mod, nil, extra...)
}

func exec(t testing.TB, rt *core.Runtime, code string) core.Result {
	t.Helper()
	return rt.Exec(context.Background(), core.CallInfo{Scope: testScope, CallID: "exec_1"}, core.ExecInput{Code: code})
}

func wait(t testing.TB, rt *core.Runtime, runID string) core.Result {
	t.Helper()
	return rt.Wait(context.Background(), core.CallInfo{Scope: testScope, CallID: "wait_1"}, core.WaitInput{RunID: runID})
}

// value decodes a completed result's value as generic JSON.
func value(t testing.TB, r core.Result) any {
	t.Helper()
	if r.Status != core.StatusCompleted {
		t.Fatalf("status %s: %s (code %s)", r.Status, r.Error, r.Code)
	}
	var v any
	if err := json.Unmarshal(r.Value, &v); err != nil {
		t.Fatalf("value %s: %v", r.Value, err)
	}
	return v
}

func mustFail(t testing.TB, r core.Result, code core.ErrorCode, contains string) {
	t.Helper()
	if r.Status != core.StatusFailed || r.Code != code || !strings.Contains(r.Error, contains) {
		t.Fatalf("got status %s code %q error %q; want failed %q containing %q", r.Status, r.Code, r.Error, code, contains)
	}
}

func jsonText(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
