package ops_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/codemode-go/codemode/core"
	"github.com/codemode-go/codemode/internal/catalog"
	"github.com/codemode-go/codemode/internal/config"
	json "github.com/codemode-go/codemode/internal/jsonx"
	"github.com/codemode-go/codemode/internal/ops"
	"github.com/codemode-go/codemode/internal/relay"
	"github.com/codemode-go/codemode/internal/surface"
)

// fakeRuntime answers every operation from what it was asked, so a test sees
// what the table handed the runtime (scope, call id, input).
type fakeRuntime struct {
	busy  bool // Exec answers at capacity
	calls []core.CallInfo
}

func (f *fakeRuntime) Exec(ctx context.Context, call core.CallInfo, in core.ExecInput) core.Result {
	f.calls = append(f.calls, call)
	if f.busy {
		return core.Result{Status: core.StatusFailed, Code: core.CodeRuntimeUnavailable, Error: "busy", RetryAfter: 1500 * time.Millisecond}
	}
	return core.Result{Status: core.StatusCompleted, Value: json.RawMessage(`"` + in.Code + `@` + call.Scope.AgentID + `"`)}
}

func (f *fakeRuntime) Wait(ctx context.Context, call core.CallInfo, in core.WaitInput) core.Result {
	f.calls = append(f.calls, call)
	return ops.UnknownRun()
}

func (f *fakeRuntime) Surface(ctx context.Context, scope core.Scope, disableTools bool) (surface.Surface, error) {
	return surface.Surface{Active: true, Tools: []surface.ToolDef{{Name: "exec", Description: "d", InputSchema: json.RawMessage(`{"type":"object"}`)}}}, nil
}

func (f *fakeRuntime) Config() config.Config { return config.Default() }

func (f *fakeRuntime) Catalog(ctx context.Context, scope core.Scope) (relay.Catalog, error) {
	if scope.AgentID == "broken" {
		return relay.Catalog{}, errors.New("/secret/path: boom")
	}
	return relay.Catalog{}, nil
}

func (f *fakeRuntime) CallTool(ctx context.Context, call core.CallInfo, id string, input json.RawMessage) (catalog.Result, *relay.ToolError) {
	f.calls = append(f.calls, call)
	if id == "bad" {
		return catalog.Result{}, &relay.ToolError{Code: "tool_failed", Message: "no"}
	}
	return catalog.Result{Details: input}, nil
}

func (f *fakeRuntime) ReadMCP(ctx context.Context, call core.CallInfo, rd relay.MCPRead) (json.RawMessage, *relay.ToolError) {
	return json.RawMessage(`{"uri":"` + rd.URI + `","prompt":"` + rd.Prompt + `"}`), nil
}

// controlled adds RunControl.
type controlled struct{ fakeRuntime }

func (c *controlled) Abort(scope core.Scope, runID string) bool { return runID == "cm_1" }

func (c *controlled) RestartTTL(call core.CallInfo, runID string) (time.Time, error) {
	if runID != "cm_1" {
		return time.Time{}, &core.RunError{Code: core.CodeInvalidInput, Message: core.MsgRunUnavailable}
	}
	return time.UnixMilli(1234), nil
}

func TestDispatch(t *testing.T) {
	for _, c := range []struct {
		name, op, msg string
		plain         bool // the runtime without RunControl
		busy          bool
		status        int
		want          string // a substring of the answer
	}{
		{"exec", "exec", `{"code":"x","scope":{"agentId":"a"}}`, false, false, 200, `"value":"x@a"`},
		{"exec without scope", "exec", `{"code":"x"}`, false, false, 400, `{"error":{"code":"missing_field","message":"field \"scope\" is required"}}`},
		{"exec unknown field", "exec", `{"code":"x","scope":{},"cod":1}`, false, false, 400, `"unknown_field"`},
		{"exec wrong type", "exec", `{"code":1,"scope":{}}`, false, false, 400, `"wrong_type"`},
		{"exec duplicate", "exec", `{"code":"1","code":"2","scope":{}}`, false, false, 400, `"duplicate_field"`},
		{"exec trailing", "exec", `{"scope":{}} x`, false, false, 400, `"trailing_data"`},
		{"exec malformed", "exec", `{`, false, false, 400, `"invalid_json"`},
		{"exec at capacity", "exec", `{"code":"x","scope":{}}`, false, true, 429, `{"error":{"code":"at_capacity","message":"busy"}}`},
		{"wait unknown run", "wait", `{"runId":"cm_x","scope":{}}`, false, false, 200, `"error":"code mode run is unavailable or expired.","code":"invalid_input"`},
		{"surface", "surface", `{"scope":{},"format":"anthropic"}`, false, false, 200, `{"tools":[{"name":"exec"`},
		{"surface bad format", "surface", `{"scope":{},"format":"xml"}`, false, false, 400, `"invalid_field","message":"field \"format\" must be`},
		{"catalog", "catalog", `{}`, false, false, 200, `"entries"`},
		{"catalog fails", "catalog", `{"scope":{"agentId":"broken"}}`, false, false, 500, `{"error":{"code":"internal_error","message":"the server could not build the tool catalog"}}`},
		{"tools/call", "tools/call", `{"id":"t","input":{"a":1},"scope":{}}`, false, false, 200, `{"details":{"a":1}}`},
		{"tools/call null input", "tools/call", `{"id":"t","input":null,"scope":{}}`, false, false, 200, `{"details":{}}`},
		{"tools/call fails", "tools/call", `{"id":"bad","scope":{}}`, false, false, 200, `{"error":{"code":"tool_failed","message":"no"}}`},
		{"tools/call without id", "tools/call", `{"scope":{}}`, false, false, 400, `field \"id\" is required`},
		{"resource", "mcp/resources/read", `{"server":"s","uri":"u","scope":{}}`, false, false, 200, `{"result":{"uri":"u","prompt":""}}`},
		{"resource without uri", "mcp/resources/read", `{"server":"s","scope":{}}`, false, false, 400, `field \"uri\" is required`},
		{"prompt", "mcp/prompts/get", `{"server":"s","name":"p","arguments":{"a":"b"},"scope":{}}`, false, false, 200, `"prompt":"p"`},
		{"abort", "abort", `{"runId":"cm_1","scope":{}}`, false, false, 200, `{"aborted":true}`},
		{"abort unknown", "abort", `{"runId":"cm_2","scope":{}}`, false, false, 200, `{"aborted":false}`},
		{"abort elsewhere", "abort", `{"runId":"cm_1","scope":{}}`, true, false, 404, `abort is not served by this host`},
		{"restartTTL", "restartTTL", `{"runId":"cm_1","scope":{}}`, false, false, 200, `{"ok":true,"expiresAt":1234}`},
		{"restartTTL refused", "restartTTL", `{"runId":"cm_2","scope":{}}`, false, false, 200, `{"ok":false,"code":"invalid_input","error":"code mode run is unavailable or expired."}`},
		{"restartTTL without runId", "restartTTL", `{"scope":{}}`, false, false, 400, `field \"runId\" is required`},
		{"unknown op", "exe", `{}`, false, false, 404, `no operation \"exe\"; the operations are abort, catalog, exec,`},
	} {
		t.Run(c.name, func(t *testing.T) {
			var rt ops.Runtime = &controlled{fakeRuntime{busy: c.busy}}
			if c.plain {
				rt = &fakeRuntime{}
			}
			status, out := ops.Dispatch(context.Background(), rt, c.op, ops.Call{}, []byte(c.msg))
			if status != c.status || !strings.Contains(string(out), c.want) {
				t.Fatalf("%s %s: %d %s; want %d with %s", c.op, c.msg, status, out, c.status, c.want)
			}
		})
	}
}

// TestDispatchCallIDs: a host's call id and principal reach the runtime; a
// host without one gets a fresh id per call (kind_<hex>).
func TestDispatchCallIDs(t *testing.T) {
	rt := &fakeRuntime{}
	ctx := context.Background()
	ops.Dispatch(ctx, rt, "exec", ops.Call{Principal: "p", CallID: "mine"}, []byte(`{"code":"1","scope":{"sessionId":"s"}}`))
	ops.Dispatch(ctx, rt, "wait", ops.Call{}, []byte(`{"runId":"r","scope":{}}`))
	ops.Dispatch(ctx, rt, "tools/call", ops.Call{}, []byte(`{"id":"t","scope":{},"callId":"c1"}`))
	if len(rt.calls) != 3 {
		t.Fatalf("calls: %+v", rt.calls)
	}
	if c := rt.calls[0]; c.CallID != "mine" || c.Principal != "p" || c.Scope.SessionID != "s" {
		t.Errorf("exec call: %+v", c)
	}
	if c := rt.calls[1]; !strings.HasPrefix(c.CallID, "wait_") || len(c.CallID) != len("wait_")+16 {
		t.Errorf("wait call id %q", c.CallID)
	}
	if c := rt.calls[2]; c.CallID != "c1" {
		t.Errorf("tools/call call id %q", c.CallID)
	}
}

func TestFailed(t *testing.T) {
	b, _ := json.Marshal(ops.Unavailable("the session's core could not start"))
	want := `{"status":"failed","error":"code mode runtime unavailable: the session's core could not start","code":"runtime_unavailable","telemetry":{"catalogSize":0,"catalogBySource":{"openclaw":0,"mcp":0,"client":0},"searchCount":0,"describeCount":0,"callCount":0,"modelVisibleTools":[]}}`
	if string(b) != want {
		t.Fatalf("got  %s\nwant %s", b, want)
	}
}
