package catalog

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	gojson "github.com/goccy/go-json"
)

// gate is a real Approver: it blocks until a decision is sent or ctx is done.
type gate struct {
	asked    chan ApprovalRequest
	decision chan bool
}

func newGate() *gate {
	return &gate{asked: make(chan ApprovalRequest, 4), decision: make(chan bool, 4)}
}

func (g *gate) Approve(ctx context.Context, req ApprovalRequest) (bool, error) {
	g.asked <- req
	select {
	case ok := <-g.decision:
		return ok, nil
	case <-ctx.Done():
		return false, ctx.Err()
	}
}

func TestChecklist_NestedCallsKeepApprovalAndHooks(t *testing.T) {
	var mu sync.Mutex
	var seen []HookEvent
	record := func(_ context.Context, ev HookEvent) (BeforeDecision, error) {
		mu.Lock()
		seen = append(seen, ev)
		mu.Unlock()
		return BeforeDecision{}, nil
	}
	rewrite := func(_ context.Context, ev HookEvent) (BeforeDecision, error) {
		if ev.ToolName == "message" {
			return BeforeDecision{Input: json.RawMessage(`{"to":"#ops","text":"rewritten"}`), RequireApproval: true, Reason: "messages need approval"}, nil
		}
		if ev.ToolName == "exec" {
			return BeforeDecision{Deny: true, Reason: "no shell from code mode"}, nil
		}
		return BeforeDecision{}, nil
	}
	after := func(_ context.Context, ev HookEvent, res Result) (Result, error) {
		if ev.ToolName == "kv_get" {
			res.Details = json.RawMessage(`{"redacted":true}`)
		}
		return res, nil
	}
	g := newGate()
	c := mustBuild(t, fixture(), BuildOptions{Scope: Scope{AgentID: "a1", SessionKey: "s"},
		Hooks: Hooks{Before: []BeforeToolCall{record, rewrite}, After: []AfterToolCall{after}, Approver: g}})

	t.Run("deny", func(t *testing.T) {
		_, err := c.Call(context.Background(), "openclaw:core:exec", json.RawMessage(`{"command":"rm -rf /"}`), CallContext{ParentCallID: "exec_1"})
		if !errors.Is(err, ErrDenied) || !strings.Contains(err.Error(), "no shell from code mode") {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("rewrite and approve", func(t *testing.T) {
		done := make(chan struct{})
		var res Result
		var err error
		go func() {
			res, err = c.Call(context.Background(), "openclaw:core:message", json.RawMessage(`{"to":"x","text":"orig"}`), CallContext{ParentCallID: "exec_1", CallID: "n1"})
			close(done)
		}()
		req := <-g.asked
		if req.Reason != "messages need approval" || string(req.Event.Input) != `{"to":"#ops","text":"rewritten"}` || req.Event.ParentCallID != "exec_1" || req.Event.Scope.AgentID != "a1" {
			t.Fatalf("approval request %+v", req)
		}
		select {
		case <-done:
			t.Fatal("call finished before approval")
		case <-time.After(20 * time.Millisecond):
		}
		g.decision <- true
		<-done
		if err != nil || !strings.Contains(string(res.Details), `"to":"#ops"`) {
			t.Fatalf("got %s %v", res.Details, err)
		}
	})
	t.Run("rejected approval", func(t *testing.T) {
		g.decision <- false
		_, err := c.Call(context.Background(), "openclaw:core:message", json.RawMessage(`{"to":"x","text":"y"}`), CallContext{})
		<-g.asked
		if !errors.Is(err, ErrApprovalDenied) {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("pending approval ends with ctx", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
		defer cancel()
		_, err := c.Call(ctx, "openclaw:core:message", json.RawMessage(`{"to":"x","text":"y"}`), CallContext{})
		<-g.asked
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("after hook rewrites result", func(t *testing.T) {
		res, err := c.Call(context.Background(), "openclaw:kv:kv_get", json.RawMessage(`{"key":"greeting"}`), CallContext{})
		if err != nil || string(res.Details) != `{"redacted":true}` {
			t.Fatalf("got %s %v", res.Details, err)
		}
	})
	t.Run("no approver fails closed", func(t *testing.T) {
		c2 := mustBuild(t, fixture(), BuildOptions{Hooks: Hooks{Before: []BeforeToolCall{rewrite}}})
		if _, err := c2.Call(context.Background(), "openclaw:core:message", json.RawMessage(`{"to":"x","text":"y"}`), CallContext{}); !errors.Is(err, ErrApprovalDenied) {
			t.Fatalf("got %v", err)
		}
	})
	mu.Lock()
	defer mu.Unlock()
	if len(seen) == 0 || seen[0].ParentCallID != "exec_1" || seen[0].ToolID != "openclaw:core:exec" || seen[0].ToolKind != "" {
		t.Fatalf("hook events %+v", seen)
	}
}

func TestExecHookEvent(t *testing.T) {
	ev := ExecHookEvent("call_9", "typescript", json.RawMessage(`{"code":"1"}`), Scope{AgentID: "a"})
	b, _ := gojson.Marshal(ev)
	for _, want := range []string{`"toolKind":"code_mode_exec"`, `"toolInputKind":"typescript"`, `"toolName":"exec"`} {
		if !strings.Contains(string(b), want) {
			t.Fatalf("%s lacks %s", b, want)
		}
	}
	var got string
	h := Hooks{Before: []BeforeToolCall{func(_ context.Context, ev HookEvent) (BeforeDecision, error) {
		got = ev.ToolKind + "/" + ev.ToolInputKind
		return BeforeDecision{}, nil
	}}}
	if _, err := h.RunBefore(context.Background(), ev); err != nil || got != "code_mode_exec/typescript" {
		t.Fatal(got, err)
	}
}

func TestRestartSafe(t *testing.T) {
	c := mustBuild(t, fixture(), BuildOptions{})
	cases := []struct {
		id      string
		via     Via
		refused bool
	}{
		{"openclaw:core:message", ViaTools, true}, // side effects
		{"openclaw:core:exec", ViaTools, true},
		{"openclaw:kv:kv_get", ViaTools, false},
		{"openclaw:kv:kv_get", ViaNamespace, true}, // namespaces refused outright
		{"mcp:github:add", ViaMCP, true},           // fails closed: no readOnlyHint
	}
	for _, tc := range cases {
		_, err := c.Call(context.Background(), tc.id, json.RawMessage(`{"key":"k","to":"a","text":"b","command":"echo"}`), CallContext{Via: tc.via, RestartSafe: true})
		if got := errors.Is(err, ErrRestartSafe); got != tc.refused {
			t.Errorf("%s via %s: err %v, refused want %v", tc.id, tc.via, err, tc.refused)
		}
	}
}

func TestOutputContracts(t *testing.T) {
	ran := false
	tool := func(name, schema string, details string) Tool {
		return goTool{spec: Spec{Name: name, Source: SourceOpenClaw, Owner: "core", OutputSchema: json.RawMessage(schema)},
			run: func(context.Context, Call) (Result, error) {
				ran = true
				return Result{Details: json.RawMessage(details)}, nil
			}}
	}
	closed := `{"type":"object","properties":{"token":{"type":"string","pattern":"^[a-z]+$"},"n":{"type":"integer"}},"required":["token"],"additionalProperties":false}`
	cases := []struct {
		name, schema, details string
		kind                  error
		wantRan               bool
		wantIn                string
	}{
		{"ok", closed, `{"token":"abc","n":1}`, nil, true, ""},
		{"invalid schema does not run", `{"type":"nope"}`, `{}`, ErrInvalidOutputSchema, false, "cannot run"},
		{"unparseable schema", `{"type":`, `{}`, ErrInvalidOutputSchema, false, "cannot run"},
		{"remote ref not loaded", `{"$ref":"file:///etc/passwd"}`, `{}`, ErrInvalidOutputSchema, false, "cannot run"},
		{"mismatch hides value", closed, `{"token":"SECRET-VALUE-42"}`, ErrOutputContract, true, `at "/token"`},
		{"extra field", closed, `{"token":"a","leak":"SECRET-VALUE-42"}`, ErrOutputContract, true, "additionalProperties"},
		{"missing details", closed, ``, ErrOutputContract, true, "no details"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ran = false
			c := mustBuild(t, []Tool{tool("t", tc.schema, tc.details)}, BuildOptions{})
			_, err := c.Call(context.Background(), "openclaw:core:t", nil, CallContext{})
			if tc.kind == nil && err != nil || tc.kind != nil && !errors.Is(err, tc.kind) {
				t.Fatalf("err %v, want %v", err, tc.kind)
			}
			if ran != tc.wantRan {
				t.Fatalf("ran = %v", ran)
			}
			if err != nil && (strings.Contains(err.Error(), "SECRET") || !strings.Contains(err.Error(), tc.wantIn)) {
				t.Fatalf("message %q", err)
			}
		})
	}
	// After-hooks run before validation: a rewrite that breaks the contract fails.
	c := mustBuild(t, []Tool{tool("t", closed, `{"token":"abc"}`)}, BuildOptions{Hooks: Hooks{After: []AfterToolCall{
		func(_ context.Context, _ HookEvent, r Result) (Result, error) {
			r.Details = json.RawMessage(`{"token":7}`)
			return r, nil
		}}}})
	if _, err := c.Call(context.Background(), "openclaw:core:t", nil, CallContext{}); !errors.Is(err, ErrOutputContract) {
		t.Fatalf("after-hook rewrite not validated: %v", err)
	}
	// MCP/client claims are not enforced (nor shown).
	m := mustBuild(t, []Tool{goTool{spec: Spec{Name: "m", Source: SourceMCP, Owner: "s", OutputSchema: json.RawMessage(`{"type":"nope"}`)},
		run: func(context.Context, Call) (Result, error) { return Result{Details: json.RawMessage(`1`)}, nil }}}, BuildOptions{})
	if _, err := m.Call(context.Background(), "mcp:s:m", nil, CallContext{Via: ViaMCP}); err != nil {
		t.Fatal(err)
	}
}

func TestOutputHintOnlyForCompleteTrustedSchemas(t *testing.T) {
	cases := []struct {
		name   string
		source Source
		schema string
		want   string
	}{
		{"closed", SourceOpenClaw, shipmentSchema, "Array<{ id: string; paid: boolean; tons: number }>"},
		{"open object", SourceOpenClaw, `{"type":"object","properties":{"a":{"type":"string"}}}`, ""},
		{"nested open", SourceOpenClaw, `{"type":"object","properties":{"a":{"type":"object","properties":{"b":{"type":"string"}}}},"additionalProperties":false}`, ""},
		{"too big", SourceOpenClaw, bigClosedObject(60), ""},
		{"enum elided", SourceOpenClaw, `{"enum":[` + strings.Repeat(`"x",`, 40) + `"y"]}`, ""},
		{"scalar", SourceOpenClaw, `{"type":"string"}`, "string"},
		{"client claim", SourceClient, `{"type":"string"}`, ""},
		{"mcp claim", SourceMCP, `{"type":"string"}`, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := makeEntry("x", Spec{Name: "x", Source: tc.source, Owner: "o", OutputSchema: json.RawMessage(tc.schema)}, nil)
			if e.Output != tc.want {
				t.Fatalf("output %q, want %q", e.Output, tc.want)
			}
		})
	}
}

func bigClosedObject(n int) string {
	var b strings.Builder
	b.WriteString(`{"type":"object","additionalProperties":false,"properties":{`)
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(`"field_number_` + strings.Repeat("x", i%7) + string(rune('a'+i%26)) + `_` + itoa(i) + `":{"type":"string"}`)
	}
	b.WriteString("}}")
	return b.String()
}

func itoa(i int) string { b, _ := gojson.Marshal(i); return string(b) }

func TestCallAbortAndStreaming(t *testing.T) {
	slow := goTool{spec: Spec{Name: "slow", Source: SourceOpenClaw, Owner: "core"},
		run: func(ctx context.Context, c Call) (Result, error) {
			for i := 0; ; i++ {
				if c.Update != nil {
					c.Update(Result{Details: json.RawMessage(itoa(i))})
				}
				if i == 2 {
					return Result{Details: json.RawMessage(`"done"`)}, nil
				}
				select {
				case <-ctx.Done():
					return Result{}, ctx.Err()
				case <-time.After(time.Millisecond):
				}
			}
		}}
	block := goTool{spec: Spec{Name: "block", Source: SourceOpenClaw, Owner: "core"},
		run: func(ctx context.Context, c Call) (Result, error) {
			<-ctx.Done()
			return Result{}, errors.New("stopped")
		}}
	c := mustBuild(t, []Tool{slow, block}, BuildOptions{})
	var updates []string
	res, err := c.Call(context.Background(), "openclaw:core:slow", nil, CallContext{Update: func(p Result) { updates = append(updates, string(p.Details)) }})
	if err != nil || string(res.Details) != `"done"` || strings.Join(updates, ",") != "0,1,2" {
		t.Fatalf("%s %v %v", res.Details, err, updates)
	}
	ctx, cancel := context.WithCancel(context.Background())
	go func() { time.Sleep(10 * time.Millisecond); cancel() }()
	if _, err := c.Call(ctx, "openclaw:core:block", nil, CallContext{}); !errors.Is(err, context.Canceled) {
		t.Fatalf("abort: %v", err)
	}
	if _, err := c.Call(ctx, "openclaw:core:slow", nil, CallContext{}); !errors.Is(err, context.Canceled) {
		t.Fatalf("already aborted ctx: %v", err)
	}
}

func TestCallRejectsInvalidInput(t *testing.T) {
	c := mustBuild(t, fixture(), BuildOptions{})
	if _, err := c.Call(context.Background(), "openclaw:kv:kv_get", json.RawMessage(`{"key":`), CallContext{}); !errors.Is(err, ErrInvalidInput) {
		t.Fatal(err)
	}
}

func TestChecklist_TelemetryAndTrajectoryShowNestedCalls(t *testing.T) {
	c := mustBuild(t, fixture(), BuildOptions{Hooks: Hooks{Before: []BeforeToolCall{func(_ context.Context, ev HookEvent) (BeforeDecision, error) {
		return BeforeDecision{Deny: ev.ToolName == "exec"}, nil
	}}}})
	c.Search("x", 1)
	_, _ = c.Describe("openclaw:core:message")
	var wg sync.WaitGroup
	for i := 0; i < 20; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, _ = c.Call(context.Background(), "openclaw:kv:kv_get", json.RawMessage(`{"key":"secret-key-material"}`), CallContext{ParentCallID: "exec_7"})
		}()
	}
	wg.Wait()
	_, _ = c.Call(context.Background(), "openclaw:core:exec", json.RawMessage(`{"command":"x"}`), CallContext{ParentCallID: "exec_7"})
	_, _ = c.Call(context.Background(), "openclaw:core:message", json.RawMessage(`{}`), CallContext{ParentCallID: "exec_7"})

	tel := c.Telemetry([]string{"exec", "wait", "image"})
	if tel.CatalogSize != 6 || tel.CatalogBySource != (SourceCounts{OpenClaw: 4, MCP: 1, Client: 1}) ||
		tel.SearchCount != 1 || tel.DescribeCount != 1 || tel.CallCount != 22 {
		t.Fatalf("telemetry %+v", tel)
	}
	tb, _ := gojson.Marshal(tel)
	if !strings.Contains(string(tb), `"modelVisibleTools":["exec","wait","image"]`) || strings.Contains(string(tb), "secret") {
		t.Fatalf("telemetry JSON %s", tb)
	}
	calls := c.Trajectory().Calls()
	if len(calls) != 22 {
		t.Fatalf("%d records", len(calls))
	}
	outcomes := map[Outcome]int{}
	for _, r := range calls {
		outcomes[r.Outcome]++
		if r.ParentCallID != "exec_7" || r.End.Before(r.Start) || r.CallID == "" {
			t.Fatalf("record %+v", r)
		}
	}
	if outcomes[OutcomeOK] != 20 || outcomes[OutcomeDenied] != 1 || outcomes[OutcomeError] != 1 {
		t.Fatalf("outcomes %v", outcomes)
	}
	b, err := gojson.Marshal(c.Trajectory())
	if err != nil || !strings.HasPrefix(string(b), `{"calls":[{"callId":"call_`) || strings.Contains(string(b), "secret-key") ||
		!strings.Contains(string(b), `"inputBytes":29`) {
		t.Fatalf("trajectory JSON %s %v", b, err)
	}
}

// Spec "Lebenszyklus von Lauf und Snapshot": restartSafe refuses what is not
// positively known to be safe: every tool needs the trusted ReadOnly
// declaration, and SideEffects wins over it. The refusal names the tool and
// the reason.
func TestRestartSafeFailsClosed(t *testing.T) {
	for _, tc := range []struct {
		spec  Spec
		allow bool
		why   string
	}{
		{Spec{Source: SourceMCP, Owner: "gh"}, false, "readOnlyHint is not trusted"},
		{Spec{Source: SourceMCP, Owner: "gh", ReadOnly: true}, true, ""},
		{Spec{Source: SourceClient, Owner: "app"}, false, "not declared read-only"},
		{Spec{Source: SourceClient, Owner: "app", ReadOnly: true}, true, ""},
		{Spec{Source: SourceOpenClaw, Owner: "core"}, false, "not declared read-only"},
		{Spec{Source: SourceOpenClaw, Owner: "core", ReadOnly: true}, true, ""},
		{Spec{Source: SourceOpenClaw, Owner: "core", SideEffects: true}, false, "marked as having side effects"},
		{Spec{Source: SourceOpenClaw, Owner: "core", SideEffects: true, ReadOnly: true}, false, "marked as having side effects"},
	} {
		tc.spec.Name = "t"
		c, err := Build([]Tool{goTool{spec: tc.spec}}, BuildOptions{})
		if err != nil {
			t.Fatal(err)
		}
		id := c.items[0].entry.ID
		via := ViaTools
		if tc.spec.Source == SourceMCP {
			via = ViaMCP
		}
		err = c.Precheck(id, CallContext{RestartSafe: true, Via: via})
		if (err == nil) != tc.allow || RestartSafeAllows(tc.spec) != tc.allow {
			t.Errorf("%+v: precheck %v, want allowed=%v", tc.spec, err, tc.allow)
		}
		if err != nil && (!strings.Contains(err.Error(), tc.why) || !strings.Contains(err.Error(), strconv.Quote(id))) {
			t.Errorf("%+v: refusal %q names neither the tool nor %q", tc.spec, err, tc.why)
		}
	}
}

// Spec "Verschachtelte Tool-Ausführung": a nested call's input is checked
// against the tool's parameters before hooks and the tool run; the error names
// the field and never a Go type.
func TestInputCheckedAgainstParameters(t *testing.T) {
	ran := false
	strict := goTool{spec: Spec{Name: "strict", Source: SourceOpenClaw, Owner: "core",
		Parameters: json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer"},"tags":{"type":"array","items":{"type":"string"}}},"required":["n"],"additionalProperties":false}`)},
		run: func(context.Context, Call) (Result, error) {
			ran = true
			return Result{Details: json.RawMessage(`1`)}, nil
		}}
	broken := goTool{spec: Spec{Name: "broken", Source: SourceOpenClaw, Owner: "core", Parameters: json.RawMessage(`{"type":"nope"}`)},
		run: func(context.Context, Call) (Result, error) { ran = true; return Result{}, nil }}
	c := mustBuild(t, []Tool{strict, broken}, BuildOptions{})
	for in, want := range map[string]string{
		`{"n":"x"}`:          `at /n: got string, want integer`,
		`{}`:                 `missing property 'n'`,
		`{"n":1,"x":2}`:      `'x'`,
		`{"n":1,"tags":[1]}`: `at /tags/0: got number, want string`,
		`[1]`:                `got array, want object`,
	} {
		_, err := c.Call(context.Background(), "openclaw:core:strict", json.RawMessage(in), CallContext{})
		if !errors.Is(err, ErrInvalidInput) || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "Go value") {
			t.Errorf("%s: %v, want %q", in, err, want)
		}
	}
	// The error quotes the tool's quick index line, the signature the model saw.
	if _, err := c.Call(context.Background(), "openclaw:core:strict", json.RawMessage(`{"n":"x"}`), CallContext{}); err == nil ||
		!strings.HasSuffix(err.Error(), " (signature: openclaw:core:strict { n: number; tags?: Array<string> } -> ?)") {
		t.Errorf("signature: %v", err)
	}
	if _, err := c.Call(context.Background(), "openclaw:core:broken", json.RawMessage(`{}`), CallContext{}); err == nil || !strings.Contains(err.Error(), "parameters schema is invalid") {
		t.Errorf("broken schema: %v", err)
	}
	if ran {
		t.Fatal("a tool ran with an input its parameters refuse")
	}
	if _, err := c.Call(context.Background(), "openclaw:core:strict", json.RawMessage(`{"n":1}`), CallContext{}); err != nil || !ran {
		t.Fatalf("valid input: %v", err)
	}
}
