package wasip1

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/codemode-go/codemode/internal/toolset"
)

const lookupTool = `{"tools":[{"name":"lookup","description":"Looks a key up on the host.","parameters":{"type":"object","properties":{"key":{"type":"string"}},"required":["key"]},"trusted":true}]}`

type answerJSON struct {
	OK    json.RawMessage `json:"ok"`
	Error *Error          `json:"error"`
}

func call(t *testing.T, h *Host, op, req string) json.RawMessage {
	t.Helper()
	var a answerJSON
	if err := json.Unmarshal(h.Handle(context.Background(), op, []byte(req)), &a); err != nil {
		t.Fatal(err)
	}
	if a.Error != nil {
		t.Fatalf("%s %s: %s: %s", op, req, a.Error.Code, a.Error.Message)
	}
	return a.OK
}

func newHost(t *testing.T, create string) (*Host, uint32) {
	t.Helper()
	h := NewHost()
	var c struct{ Runtime uint32 }
	json.Unmarshal(call(t, h, "create_runtime", create), &c)
	t.Cleanup(func() { h.Handle(context.Background(), "close_runtime", []byte(`{"runtime":1}`)) })
	return h, c.Runtime
}

// The host tool's call suspends the run at once, appears as a pending call and
// a host call, and after settle, wait completes the run with the host's value.
func TestHostToolRoundTrip(t *testing.T) {
	h, id := newHost(t, lookupTool)
	var ans RunAnswer
	json.Unmarshal(call(t, h, "exec", `{"runtime":1,"code":"const v = await tools.lookup({key: \"k1\"}); return v.n * 2;"}`), &ans)
	if ans.Result.Status != "waiting" || len(ans.Result.PendingToolCalls) != 1 || ans.Result.PendingToolCalls[0].ToolID != "openclaw:host:lookup" {
		t.Fatalf("exec: %+v", ans.Result)
	}
	if len(ans.HostCalls) != 1 || ans.HostCalls[0].Tool != "lookup" || string(ans.HostCalls[0].Input) != `{"key":"k1"}` || ans.HostCalls[0].RunID != ans.Result.RunID {
		t.Fatalf("host calls: %+v", ans.HostCalls)
	}
	_ = id
	call(t, h, "settle", `{"runtime":1,"id":"`+ans.HostCalls[0].ID+`","result":{"details":{"n":21}}}`)
	json.Unmarshal(call(t, h, "wait", `{"runtime":1,"runId":"`+ans.Result.RunID+`"}`), &ans)
	if ans.Result.Status != "completed" || string(ans.Result.Value) != "42" {
		t.Fatalf("wait: %+v", ans.Result)
	}
}

// A host error reaches the guest as a catchable Error with the host's message.
func TestHostToolError(t *testing.T) {
	h, _ := newHost(t, lookupTool)
	var ans RunAnswer
	json.Unmarshal(call(t, h, "exec", `{"runtime":1,"code":"try { await tools.lookup({key: \"x\"}); } catch (e) { return e.message; }"}`), &ans)
	call(t, h, "settle", `{"runtime":1,"id":"`+ans.HostCalls[0].ID+`","error":"no such key"}`)
	json.Unmarshal(call(t, h, "wait", `{"runtime":1,"runId":"`+ans.Result.RunID+`"}`), &ans)
	if ans.Result.Status != "completed" || !strings.Contains(string(ans.Result.Value), "no such key") {
		t.Fatalf("wait: %+v", ans.Result)
	}
}

// Every bad request answers invalid_input with a specific message in JSON
// terms, never a Go type name.
func TestBadRequestsAnswerErrors(t *testing.T) {
	h, _ := newHost(t, lookupTool)
	for _, tc := range []struct{ op, req, want string }{
		{"exec", `{"runtime":1,"code":`, "is not valid JSON: it ends early"},
		{"exec", `not json`, "request is not valid JSON: invalid character"},
		{"exec", `{"runtime":1,"code":5}`, `"code" must be a string`},
		{"exec", `{"runtime":1,"code":"1","nope":1}`, `field "nope" is not a known field`},
		{"exec", `{"runtime":1,"code":"1"} {}`, "data after the JSON value"},
		{"exec", `{"runtime":9,"code":"1"}`, "unknown runtime 9"},
		{"exec", `{"runtime":"1"}`, `"runtime" must be the number`},
		{"exec", `[1]`, "the request must be an object (got an array)"},
		{"wait", `{"runtime":1,"runId":"cm_nope"}`, ""},
		{"settle", `{"runtime":1,"id":"hc_99","result":{}}`, `unknown host call "hc_99"`},
		{"settle", `{"runtime":1,"id":"hc_1"}`, `exactly one of "result" or "error"`},
		{"surface", `{"runtime":1,"format":"xml"}`, `surface: field "format" must be "plain", "anthropic", "openai" or "openai-responses" (got "xml")`},
		{"frobnicate", `{"runtime":1}`, `unknown operation "frobnicate"`},
		{"create_runtime", `{"tools":[{"name":""}]}`, "tools[0] needs a name"},
		{"create_runtime", `{"tools":[{"name":"a"},{"name":"a"}]}`, "declared twice"},
		{"create_runtime", `{"tools":[{"name":"a","parameters":[1]}]}`, "parameters must be a JSON Schema object"},
		{"create_runtime", `{"config":{"timeoutMs":-1}}`, "timeoutMs"},
		{"create_runtime", "\xff", "not valid UTF-8"},
		// the shipped modules have no example tools: the refusal names the builds that do
		{"create_runtime", `{"exampleTools":true}`, "exampleTools: this build has no example tools"},
		{"create_runtime", `{"exampleTools":true}`, "-tags codemode_demo"},
	} {
		var a answerJSON
		out := h.Handle(context.Background(), tc.op, []byte(tc.req))
		if err := json.Unmarshal(out, &a); err != nil {
			t.Fatalf("%s %q: answer is not JSON: %s", tc.op, tc.req, out)
		}
		if tc.op == "wait" { // an unknown run is a failed CodeModeResult, as natively
			var ans RunAnswer
			json.Unmarshal(a.OK, &ans)
			if ans.Result.Status != "failed" || ans.Result.Code != "invalid_input" {
				t.Errorf("wait unknown run: %s", out)
			}
			continue
		}
		if a.Error == nil || a.Error.Code != "invalid_input" || !strings.Contains(a.Error.Message, tc.want) {
			t.Errorf("%s %q: got %s, want invalid_input containing %q", tc.op, tc.req, out, tc.want)
		}
		if strings.Contains(string(out), "Go ") || strings.Contains(string(out), "struct") || strings.Contains(string(out), "uint32") {
			t.Errorf("%s %q: answer shows Go internals: %s", tc.op, tc.req, out)
		}
	}
}

// Buffers hand out only addresses they hold; anything else is refused.
func TestBuffersRefuseForeignAddresses(t *testing.T) {
	b := NewBuffers()
	p := b.Alloc(16)
	if p == 0 || b.Alloc(0) != 0 || b.Alloc(MaxBuffer+1) != 0 {
		t.Fatal("alloc bounds")
	}
	if _, ok := b.Bytes(p, 16); !ok {
		t.Fatal("own buffer refused")
	}
	for _, c := range []struct {
		p uintptr
		n uint32
	}{{p, 17}, {p + 1, 1}, {0, 0}, {12345, 1}} {
		if _, ok := b.Bytes(c.p, c.n); ok {
			t.Errorf("Bytes(%#x, %d) accepted", c.p, c.n)
		}
	}
	if !b.Free(p) || b.Free(p) || b.Live() != 0 {
		t.Fatal("free/double free")
	}
}

// Aborting a run with an open host call ends it: the call can no longer be
// settled and the run is gone.
func TestAbortEndsOpenHostCalls(t *testing.T) {
	h, _ := newHost(t, lookupTool)
	var ans RunAnswer
	json.Unmarshal(call(t, h, "exec", `{"runtime":1,"code":"return await tools.lookup({key: \"k\"})"}`), &ans)
	if len(ans.HostCalls) != 1 {
		t.Fatalf("exec: %+v", ans)
	}
	if got := string(call(t, h, "abort", `{"runtime":1,"runId":"`+ans.Result.RunID+`"}`)); got != `{"aborted":true}` {
		t.Fatalf("abort: %s", got)
	}
	out := string(h.Handle(context.Background(), "settle", []byte(`{"runtime":1,"id":"`+ans.HostCalls[0].ID+`","result":{}}`)))
	if !strings.Contains(out, "unknown host call") {
		t.Fatalf("settle after abort: %s", out)
	}
	var w RunAnswer
	json.Unmarshal(call(t, h, "wait", `{"runtime":1,"runId":"`+ans.Result.RunID+`"}`), &w)
	if w.Result.Status != "failed" || w.Result.Code != "invalid_input" {
		t.Fatalf("wait after abort: %+v", w.Result)
	}
}

// TestOpsAreTheDispatch: the exports' list (the reactor's order) and the
// operations Handle dispatches are the same set.
func TestOpsAreTheDispatch(t *testing.T) {
	want := map[string]bool{"create_runtime": true}
	for op := range runtimeOps {
		want[op] = true
	}
	if len(Ops) != len(want) {
		t.Fatalf("Ops %v, dispatch %v", Ops, want)
	}
	for _, op := range Ops {
		if !want[op] {
			t.Errorf("Ops lists %q, which Handle does not dispatch", op)
		}
	}
}

// A demo build's host (ExampleTools set, as the reactor's demo.go does) puts
// the example toolset and its Issues namespace in the runtime it creates.
func TestDemoHostHasTheExampleTools(t *testing.T) {
	h := NewHost()
	h.ExampleTools = toolset.Demo
	call(t, h, "create_runtime", `{"exampleTools":true}`)
	defer h.Handle(context.Background(), "close_runtime", []byte(`{"runtime":1}`))
	var ans RunAnswer
	json.Unmarshal(call(t, h, "exec", `{"runtime":1,"code":"const e = await tools.echo({message: 'hi'}); const open = await Issues.list({state: 'open'}); return [e.message, open.length]"}`), &ans)
	if ans.Result.Status != "completed" || string(ans.Result.Value) != `["hi",2]` {
		t.Fatalf("exec: %+v", ans.Result)
	}
}
