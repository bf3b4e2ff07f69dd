package mcpserver_test

import (
	"context"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/codemode-go/codemode/core"
	"github.com/codemode-go/codemode/edge/mcpserver"
	"github.com/codemode-go/codemode/internal/surface"
	json "github.com/goccy/go-json"
)

// TestToolsListIsTheSurface: tools/list is exactly the runtime's surface
// (exec with the quick index, wait, the direct-only tool), exec and wait
// declare CodeModeResult as their output, and nothing of the hidden catalog
// shows.
func TestToolsListIsTheSurface(t *testing.T) {
	f := newFixture(t, 2000)
	cs := f.connect(t, nil)
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	want, err := f.rt.Surface(context.Background(), core.Scope{AgentID: "mcp"}, false)
	if err != nil {
		t.Fatal(err)
	}
	// The SDK lists tools by name; the surface's order is exec, wait, then
	// the direct-only tools.
	byName := map[string]*sdk.Tool{}
	names := []string{}
	for _, tl := range res.Tools {
		byName[tl.Name] = tl
		names = append(names, tl.Name)
	}
	if len(res.Tools) != len(want.Tools) || strings.Join(names, ",") != "clock,exec,wait" {
		t.Fatalf("tools/list names %v, want clock, exec, wait", names)
	}
	for _, w := range want.Tools {
		tl := byName[w.Name]
		if tl == nil || tl.Description != w.Description || !jsonEqual(string(mustJSON(tl.InputSchema)), string(w.InputSchema)) {
			t.Errorf("%s differs from the surface's", w.Name)
			continue
		}
		if hasOut := tl.OutputSchema != nil; hasOut != (tl.Name == "exec" || tl.Name == "wait") {
			t.Errorf("%s: outputSchema %v", tl.Name, tl.OutputSchema)
		}
	}
	if !strings.Contains(byName["exec"].Description, "openclaw:test:sleep_ms") {
		t.Errorf("exec description lacks the quick index:\n%s", byName["exec"].Description)
	}
}

// TestExecWaitAndResults: exec answers a CodeModeResult (structuredContent
// valid against the declared outputSchema, the same JSON as text); a slow
// tool makes it wait, and wait finishes the run; guest errors, bad arguments,
// an unknown runId and a timeout are isError results a model can act on.
func TestExecWaitAndResults(t *testing.T) {
	f := newFixture(t, 300)
	cs := f.connect(t, nil)
	ctx := context.Background()
	schema := compileResultSchema(t)
	check := func(r result) {
		t.Helper()
		var v any
		if err := json.Unmarshal([]byte(r.texts[len(r.texts)-1]), &v); err != nil {
			t.Fatal(err)
		}
		if err := schema.Validate(v); err != nil {
			t.Fatalf("result does not match ResultSchema: %v\n%s", err, r.texts[len(r.texts)-1])
		}
	}

	r := call(t, ctx, cs, "exec", map[string]any{"code": `text("hi"); return 6*7`})
	check(r)
	if r.Status != core.StatusCompleted || string(r.Value) != "42" || r.isError || r.Output[0].Text != "hi" {
		t.Fatalf("exec: %+v", r)
	}

	r = call(t, ctx, cs, "exec", map[string]any{"code": `const s = await tools.sleep_ms({ms: 700}); return s.slept`, "language": "typescript"})
	check(r)
	if r.Status != core.StatusWaiting || r.RunID == "" || r.isError {
		t.Fatalf("slow exec: %+v", r)
	}
	r = waitDone(t, cs, r)
	check(r)
	if r.Status != core.StatusCompleted || string(r.Value) != "700" {
		t.Fatalf("after wait: %+v", r)
	}

	for _, c := range []struct {
		tool string
		args any
		code core.ErrorCode
		text string
	}{
		{"exec", map[string]any{"code": `throw new TypeError("no such shipment SH-9")`}, "", "TypeError: no such shipment SH-9"},
		{"exec", map[string]any{"code": `while (true) {}`}, core.CodeTimeout, "(timeout)"},
		{"exec", map[string]any{"code": ""}, core.CodeInvalidInput, "(invalid_input)"},
		{"exec", map[string]any{"code": "1", "language": "python"}, core.CodeInvalidInput, "language must be"},
		{"wait", map[string]any{"runId": "cm_nope"}, core.CodeInvalidInput, "(invalid_input)"},
	} {
		r := call(t, ctx, cs, c.tool, c.args)
		check(r)
		if r.Status != core.StatusFailed || !r.isError || r.Code != c.code || !strings.HasPrefix(r.texts[0], r.Error) || !strings.Contains(r.texts[0], c.text) {
			t.Errorf("%s %v: %+v %q", c.tool, c.args, r.Result, r.texts)
		}
	}
	// Arguments the strict decoder refuses: isError naming the field, no run.
	for _, c := range []struct {
		tool string
		args any
		want string
	}{
		{"exec", map[string]any{"code": 1}, `exec: field "code" must be a string (got a number)`},
		{"exec", map[string]any{"code": "1", "scope": map[string]any{}}, `exec: field "scope" is not a known field (known: code, command, language, restartSafe)`},
		{"wait", map[string]any{"runId": []int{1}}, `wait: field "runId" must be a string (got an array)`},
	} {
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: c.tool, Arguments: c.args})
		if err != nil {
			t.Fatal(err)
		}
		r := decode(t, res)
		if !r.isError || res.StructuredContent != nil || len(r.texts) != 1 || r.texts[0] != c.want {
			t.Errorf("%s %v: %v %q, want %q", c.tool, c.args, r.isError, r.texts, c.want)
		}
	}
}

func compileResultSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(string(surface.ResultSchema())))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("result.json", doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("result.json")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestDirectOnlyTools: a direct-only tool runs by its name through the
// core's tool path (input checked against its schema), and exec/wait are the
// only other names.
func TestDirectOnlyTools(t *testing.T) {
	f := newFixture(t, 2000)
	cs := f.connect(t, nil)
	ctx := context.Background()
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "clock", Arguments: map[string]any{"zone": "UTC"}})
	if err != nil {
		t.Fatal(err)
	}
	if res.IsError || res.Content[0].(*sdk.TextContent).Text != "12:00" || !jsonEqual(string(mustJSON(res.StructuredContent)), `{"time":"12:00","input":{"zone":"UTC"}}`) {
		t.Fatalf("clock: %+v", res)
	}
	res, err = cs.CallTool(ctx, &sdk.CallToolParams{Name: "clock", Arguments: map[string]any{"zone": 5}})
	if err != nil {
		t.Fatal(err)
	}
	if !res.IsError || !strings.Contains(res.Content[0].(*sdk.TextContent).Text, "(invalid_input)") {
		t.Fatalf("clock with a bad input: %+v", res.Content[0])
	}
	// A catalog tool is not model-visible: the SDK answers unknown tool.
	if _, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "sleep_ms", Arguments: map[string]any{"ms": 1}}); err == nil || !strings.Contains(err.Error(), "unknown tool") {
		t.Fatalf("sleep_ms called directly: %v", err)
	}
	// The guest cannot reach the direct-only tool either.
	r := call(t, ctx, cs, "exec", map[string]any{"code": `return (await tools.search("clock")).length`})
	if string(r.Value) != "0" {
		t.Fatalf("the guest found the direct-only tool: %+v", r)
	}
}

// TestSessionsAreScopes: a run suspended in one MCP session is unknown in
// another (over stdio-like pipes and over Streamable HTTP), and an ended
// session ends its runs.
func TestSessionsAreScopes(t *testing.T) {
	f := newFixture(t, 200)
	a, b := f.connect(t, nil), f.connect(t, nil)
	ctx := context.Background()
	r := call(t, ctx, a, "exec", map[string]any{"code": `await yield_control("pause"); return "resumed"`})
	if r.Status != core.StatusWaiting {
		t.Fatalf("exec: %+v", r)
	}
	other := call(t, ctx, b, "wait", map[string]any{"runId": r.RunID})
	if other.Status != core.StatusFailed || other.Code != core.CodeInvalidInput {
		t.Fatalf("session b resumed session a's run: %+v", other)
	}
	if got := waitDone(t, a, r); string(got.Value) != `"resumed"` {
		t.Fatalf("session a: %+v", got)
	}
	// Closing a session ends its suspended runs.
	r = call(t, ctx, b, "exec", map[string]any{"code": `await yield_control("pause"); return 1`})
	before := f.rt.Suspended()
	b.Close()
	deadline := time.Now().Add(10 * time.Second)
	for f.rt.Suspended() >= before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if f.rt.Suspended() >= before {
		t.Fatalf("the closed session's run is still suspended (%d)", f.rt.Suspended())
	}
}

// TestCancellationAbortsTheRun: notifications/cancelled (the Go client
// sends it when the call's context ends) aborts the exec: its pending tool
// call is canceled and the run is gone.
func TestCancellationAbortsTheRun(t *testing.T) {
	f := newFixture(t, 30000)
	cs := f.connect(t, &sdk.ClientOptions{})
	f.cancelBlockedExec(t, cs)
	if n := f.rt.Suspended(); n != 0 {
		t.Fatalf("%d runs suspended after the cancel", n)
	}
	// The session still serves.
	if r := call(t, context.Background(), cs, "exec", map[string]any{"code": "return 2"}); string(r.Value) != "2" {
		t.Fatalf("after cancel: %+v", r)
	}
}

// TestProgressWhileWaitingOnSlowTools: with a progress token, an exec
// blocked on a slow tool sends notifications/progress naming it.
func TestProgressWhileWaitingOnSlowTools(t *testing.T) {
	f := newFixture(t, 5000)
	var mu sync.Mutex
	var got []*sdk.ProgressNotificationParams
	cs := f.connect(t, &sdk.ClientOptions{ProgressNotificationHandler: func(_ context.Context, r *sdk.ProgressNotificationClientRequest) {
		mu.Lock()
		got = append(got, r.Params)
		mu.Unlock()
	}})
	p := &sdk.CallToolParams{Name: "exec", Arguments: map[string]any{"code": `return (await tools.sleep_ms({ms: 400})).slept`}}
	p.SetProgressToken("tok-1")
	res, err := cs.CallTool(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	if r := decode(t, res); string(r.Value) != "400" {
		t.Fatalf("exec: %+v", r)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(got) == 0 {
		t.Fatal("no progress notification")
	}
	prev := -1.0
	for _, n := range got {
		if n.ProgressToken != "tok-1" || n.Total != 5000 || n.Progress <= prev || !strings.Contains(n.Message, "openclaw:test:sleep_ms") {
			t.Fatalf("progress %+v", n)
		}
		prev = n.Progress
	}
	// Without a token: no notifications for that call. The client SDK runs
	// notification handlers concurrently with the call's answer, so one of the
	// first call's may still land after it returned: every notification must
	// carry the first call's token, none another (or none at all).
	mu.Unlock()
	call(t, context.Background(), cs, "exec", map[string]any{"code": `return (await tools.sleep_ms({ms: 200})).slept`})
	mu.Lock()
	for _, n := range got {
		if n.ProgressToken != "tok-1" {
			t.Fatalf("progress for a call without a progress token: %+v", n)
		}
	}
}

// TestUpstreamListChanged: when an upstream MCP server's tools change, every
// session hears notifications/tools/list_changed and the guest reaches the
// new tool; the upstream's resources stay readable from the guest.
func TestUpstreamListChanged(t *testing.T) {
	f := newFixture(t, 5000)
	changed := make(chan struct{}, 8)
	cs := f.connect(t, &sdk.ClientOptions{ToolListChangedHandler: func(context.Context, *sdk.ToolListChangedRequest) { changed <- struct{}{} }})
	ctx := context.Background()
	if r := call(t, ctx, cs, "exec", map[string]any{"code": `return "echo2" in MCP.up`}); string(r.Value) != `false` {
		t.Fatalf("before: %+v", r)
	}
	sdk.AddTool(f.upstream, &sdk.Tool{Name: "echo2", Description: "Echoes."}, func(_ context.Context, _ *sdk.CallToolRequest, in struct {
		S string `json:"s"`
	}) (*sdk.CallToolResult, any, error) {
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "echo " + in.S}}}, nil, nil
	})
	select {
	case <-changed:
	case <-time.After(10 * time.Second):
		t.Fatal("no notifications/tools/list_changed after the upstream's change")
	}
	r := call(t, ctx, cs, "exec", map[string]any{"code": `const r = await MCP.up.echo2({s: "x"}); const n = await MCP.up.resources.read({uri: "note://one"}); return [r.content[0].text, n.contents[0].text]`})
	if r.Status != core.StatusCompleted || !jsonEqual(string(r.Value), `["echo x","the first note"]`) {
		t.Fatalf("after the change: %+v %q", r.Result, r.texts)
	}
}

// TestStreamableHTTP: /mcp of the HTTP API serves the same server with the
// /v1 tokens, one principal cannot reach another's session, and its runs
// are invisible across sessions; body limit and CORS are the API's.
func TestStreamableHTTP(t *testing.T) {
	f := newFixture(t, 200)
	hs := f.serveHTTP(t, 64<<10)
	alice, ab := connectHTTP(t, hs.URL, tokenAlice, nil)
	alice2, _ := connectHTTP(t, hs.URL, tokenAlice, nil)
	ctx := context.Background()
	r := call(t, ctx, alice, "exec", map[string]any{"code": `await yield_control("x"); return "ok"`})
	if r.Status != core.StatusWaiting {
		t.Fatalf("exec: %+v", r)
	}
	if o := call(t, ctx, alice2, "wait", map[string]any{"runId": r.RunID}); o.Code != core.CodeInvalidInput {
		t.Fatalf("another session of the same principal resumed the run: %+v", o)
	}
	// Bob sending alice's session id: answered as for an unknown session.
	ab.mu.Lock()
	sid := ab.sid
	ab.mu.Unlock()
	for _, c := range []struct {
		token, sid string
		status     int
	}{{tokenBob, sid, 404}, {tokenBob, "no-such-session", 404}, {"", sid, 401}, {"wrong-token-0123456789", sid, 401}} {
		req, _ := http.NewRequest("POST", hs.URL+"/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Mcp-Session-Id", c.sid)
		if c.token != "" {
			req.Header.Set("Authorization", "Bearer "+c.token)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != c.status {
			t.Errorf("token %q session %q: %d %s", c.token, c.sid, res.StatusCode, body)
		}
	}
	if got := waitDone(t, alice, r); string(got.Value) != `"ok"` {
		t.Fatalf("alice's wait: %+v", got)
	}
	// Body limit and CORS of the API.
	req, _ := http.NewRequest("POST", hs.URL+"/mcp", strings.NewReader(strings.Repeat(" ", 70<<10)+"{}"))
	req.Header.Set("Authorization", "Bearer "+tokenAlice)
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusRequestEntityTooLarge {
		t.Errorf("oversized body: %d", res.StatusCode)
	}
	req, _ = http.NewRequest("OPTIONS", hs.URL+"/mcp", nil)
	req.Header.Set("Origin", "https://app.example")
	req.Header.Set("Access-Control-Request-Method", "DELETE")
	res, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 204 || !strings.Contains(res.Header.Get("Access-Control-Allow-Headers"), "Mcp-Session-Id") || !strings.Contains(res.Header.Get("Access-Control-Allow-Methods"), "DELETE") {
		t.Errorf("preflight: %d %v", res.StatusCode, res.Header)
	}
}

// panicky is a runtime whose Exec panics for one cell.
type panicky struct{ *core.Runtime }

func (p panicky) Exec(ctx context.Context, call core.CallInfo, in core.ExecInput) core.Result {
	if in.Code == "panic" {
		panic("boom at /home/secret/path.go:12")
	}
	return p.Runtime.Exec(ctx, call, in)
}

// TestAPanicIsThatCallsFailure: a panic while answering a tools/call is an
// isError answer without the panic's text, and the server keeps serving.
func TestAPanicIsThatCallsFailure(t *testing.T) {
	f := newFixture(t, 2000)
	srv := mcpserver.New(panicky{f.rt}, mcpserver.Options{})
	defer srv.Close()
	ct, st := sdk.NewInMemoryTransports()
	go srv.Run(context.Background(), st)
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, nil).Connect(context.Background(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "exec", Arguments: map[string]any{"code": "panic"}})
	if err != nil {
		t.Fatal(err)
	}
	if text := res.Content[0].(*sdk.TextContent).Text; !res.IsError || strings.Contains(text, "secret") || !strings.HasPrefix(text, "exec: the server failed") {
		t.Fatalf("panic answered %v %q", res.IsError, text)
	}
	if r := call(t, context.Background(), cs, "exec", map[string]any{"code": "return 1"}); string(r.Value) != "1" {
		t.Fatalf("after the panic: %+v", r)
	}
}
