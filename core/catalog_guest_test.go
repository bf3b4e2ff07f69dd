package core_test

import (
	"context"
	"encoding/json"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/codemode-go/codemode/core"
	"github.com/codemode-go/codemode/internal/catalog"
	"github.com/codemode-go/codemode/internal/config"
)

// shellExecTool is the normal OpenClaw shell exec: core-owned, named exec, and
// therefore catalogued as openclaw:core:exec (never the Code Mode exec).
func shellExecTool() catalog.Tool {
	return coreTool("exec", func(_ context.Context, c catalog.Call) (catalog.Result, error) {
		var in struct {
			Command string `json:"command"`
		}
		_ = json.Unmarshal(c.Input, &in)
		d, _ := json.Marshal(map[string]string{"shell": "ran " + in.Command})
		return catalog.Result{Details: d}, nil
	}, func(s *catalog.Spec) {
		s.Description = "Run a shell command."
		s.Parameters = json.RawMessage(`{"type":"object","properties":{"command":{"type":"string"}},"required":["command"]}`)
	})
}

// catalogExtras is everything the catalog tests add to the example toolset:
// the shell exec, Code Mode and Tool Search control tools (never catalogued), a
// client tool, a tool the policy denies, and a tool whose details break its own
// declared outputSchema.
func catalogExtras() []catalog.Tool {
	control := func(name string) catalog.Tool {
		return coreTool(name, nil, func(s *catalog.Spec) { s.Control = name == "exec" || name == "wait" })
	}
	return []catalog.Tool{
		shellExecTool(),
		control("exec"), control("wait"),
		control("tool_search_code"), control("tool_search"), control("tool_describe"), control("tool_call"),
		fnTool{spec: catalog.Spec{Name: "select_file", Description: "Pick a file in the page.",
			Parameters: json.RawMessage(`{"type":"object"}`), Source: catalog.SourceClient, Owner: "app", Origin: catalog.OriginClient}},
		coreTool("secret_tool", nil, nil),
		coreTool("bad_contract", func(context.Context, catalog.Call) (catalog.Result, error) {
			return catalog.Result{Details: json.RawMessage(`{"count":"LEAKED-VALUE-7731"}`)}, nil
		}, func(s *catalog.Spec) {
			s.OutputSchema = json.RawMessage(`{"type":"object","properties":{"count":{"type":"integer"}},"required":["count"],"additionalProperties":false}`)
		}),
	}
}

func catalogRuntime(t *testing.T, opts func(*core.Options)) *core.Runtime {
	return newRuntimeWith(t, nil, func(o *core.Options) {
		o.Policy = catalog.Policy{Deny: []string{"secret_tool"}}
		if opts != nil {
			opts(o)
		}
	}, catalogExtras()...)
}

func TestGuestCatalog_AllToolsCompactAndFiltered(t *testing.T) {
	rt := catalogRuntime(t, nil)
	r := exec(t, rt, `return ALL_TOOLS.map((e) => ({ id: e.id, keys: Object.keys(e).sort() }));`)
	var got []struct {
		ID   string   `json:"id"`
		Keys []string `json:"keys"`
	}
	if err := json.Unmarshal(r.Value, &got); err != nil || r.Status != core.StatusCompleted {
		t.Fatalf("result %+v: %v", r, err)
	}
	var ids []string
	allowed := []string{"id", "name", "label", "description", "source", "sourceName", "input", "output"}
	for _, e := range got {
		ids = append(ids, e.ID)
		for _, k := range e.Keys {
			if !slices.Contains(allowed, k) {
				t.Errorf("entry %s has non-compact key %q (schemas belong to describe)", e.ID, k)
			}
		}
	}
	want := []string{
		"openclaw:core:echo", "openclaw:core:sleep_ms", "openclaw:core:exec", "openclaw:core:bad_contract",
		"openclaw:shipping:shipping_list", "openclaw:github:github_list_issues", "openclaw:github:github_update_issue",
		"client:app:select_file",
	}
	if !slices.Equal(ids, want) {
		t.Errorf("ALL_TOOLS ids = %v\nwant %v (catalog order, no direct-only, denied, control or MCP entries)", ids, want)
	}
	for _, absent := range []string{"screenshot", "secret_tool", "tool_search", "tool_search_code", "tool_describe", "tool_call", "wait"} {
		for _, id := range ids {
			if strings.HasSuffix(id, ":"+absent) {
				t.Errorf("ALL_TOOLS contains %s", id)
			}
		}
	}
	if n := strings.Count(strings.Join(ids, ","), ":exec"); n != 1 {
		t.Errorf("want exactly the shell exec catalogued once, ids %v", ids)
	}

	// Entry contents: the trusted output hint of shipping_list, MCP/client input stays unknown.
	v := obj(t, exec(t, rt, `const by = Object.fromEntries(ALL_TOOLS.map((e) => [e.name, e]));
return { ship: by.shipping_list, client: by.select_file, echo: by.echo, frozen: Object.isFrozen(ALL_TOOLS) };`))
	ship := v["ship"].(map[string]any)
	if ship["source"] != "openclaw" || ship["sourceName"] != "shipping" || !strings.Contains(ship["output"].(string), "paid: boolean") {
		t.Errorf("shipping_list entry = %v", ship)
	}
	client := v["client"].(map[string]any)
	if client["source"] != "client" || client["input"] != "unknown" || client["output"] != nil {
		t.Errorf("client entry = %v", client)
	}
	if echo := v["echo"].(map[string]any); echo["sourceName"] != nil || !strings.Contains(echo["input"].(string), "message") {
		t.Errorf("echo entry = %v", echo)
	}
	if v["frozen"] != true {
		t.Errorf("ALL_TOOLS is not frozen")
	}
}

func TestGuestCatalog_SearchDescribeCallValueCall(t *testing.T) {
	rt := catalogRuntime(t, nil)
	v := obj(t, exec(t, rt, `
const hits = await tools.search("list shipments", { limit: 3 });
const d = await tools.describe(hits[0].id);
const value = await tools.callValue(d.id, {});
const env = await tools.call("openclaw:core:echo", { message: "hi" });
const short = await tools.echo({ message: "short" });
return { hits: hits.map((h) => h.id), d: { id: d.id, hasParams: d.parameters !== undefined, out: d.outputSchema.type },
  n: value.length, first: value[0], env, short };`))
	if hits := v["hits"].([]any); len(hits) == 0 || hits[0] != "openclaw:shipping:shipping_list" || len(hits) > 3 {
		t.Errorf("search hits = %v", hits)
	}
	if d := v["d"].(map[string]any); d["id"] != "openclaw:shipping:shipping_list" || d["hasParams"] != true || d["out"] != "array" {
		t.Errorf("describe = %v", d)
	}
	if v["n"] != float64(6) || jsonText(v["first"]) != `{"id":"SH-1001","paid":true,"tons":4.5}` {
		t.Errorf("callValue = %v %v", v["n"], v["first"])
	}
	env := v["env"].(map[string]any)
	res, _ := env["result"].(map[string]any)
	if env["tool"] != "openclaw:core:echo" || res == nil || jsonText(res["details"]) != `{"message":"hi"}` || len(res["content"].([]any)) != 1 {
		t.Errorf("call envelope = %v, want {tool, result: {content, details}}", env)
	}
	if jsonText(v["short"]) != `{"message":"short"}` {
		t.Errorf("tools.echo = %v", v["short"])
	}
}

func TestGuestCatalog_ErrorsAreCatchable(t *testing.T) {
	rt := catalogRuntime(t, nil)
	cases := []struct {
		name, code string
		want       []string
		notWant    []string
	}{
		{"denied tool by guessed id", `tools.callValue("openclaw:core:secret_tool", {})`, []string{"unknown tool id", "secret_tool"}, nil},
		{"denied tool describe", `tools.describe("openclaw:core:secret_tool")`, []string{"unknown tool id"}, nil},
		{"direct-only by guessed id", `tools.callValue("openclaw:core:screenshot", {})`, []string{"unknown tool id"}, nil},
		{"control tool by guessed id", `tools.call("openclaw:core:tool_search", {})`, []string{"unknown tool id"}, nil},
		{"code mode wait by guessed id", `tools.call("openclaw:core:wait", {})`, []string{"unknown tool id"}, nil},
		{"near miss names candidates", `tools.callValue("openclaw:core:ecko", { message: "x" })`, []string{"did you mean", `"openclaw:core:echo"`}, nil},
		{"near miss describe", `tools.describe("openclaw:shipping:shiping_list")`, []string{`"openclaw:shipping:shipping_list"`}, nil},
		{"tool error", `tools.callValue("openclaw:github:github_update_issue", {number: 999, patch: {title: "x"}})`, []string{"no issue #999"}, nil},
		{"input refused by parameters", `tools.callValue("openclaw:core:echo", {})`, []string{"missing property 'message'"}, []string{"Go value"}},
		{"output contract mismatch", `tools.callValue("openclaw:core:bad_contract", {})`, []string{"bad_contract", "outputSchema"}, []string{"LEAKED-VALUE-7731"}},
		{"output contract mismatch via call", `tools.call("openclaw:core:bad_contract", {})`, []string{"outputSchema"}, []string{"LEAKED-VALUE-7731"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := exec(t, rt, `try { await `+tc.code+`; return "no error"; } catch (e) { return { name: e.name, message: e.message, isError: e instanceof Error }; }`)
			v, ok := value(t, r).(map[string]any)
			if !ok {
				t.Fatalf("call did not throw: %s", r.Value)
			}
			msg, _ := v["message"].(string)
			if v["isError"] != true {
				t.Errorf("thrown value is not a guest Error: %v", v)
			}
			for _, w := range tc.want {
				if !strings.Contains(msg, w) {
					t.Errorf("message %q lacks %q", msg, w)
				}
			}
			for _, nw := range tc.notWant {
				if strings.Contains(string(r.Value), nw) || strings.Contains(jsonText(r), nw) {
					t.Errorf("result reveals %q: %s", nw, r.Value)
				}
			}
		})
	}

	// Uncaught, the contract mismatch fails the cell without revealing the value either.
	r := exec(t, rt, `return await tools.callValue("openclaw:core:bad_contract", {});`)
	if r.Status != core.StatusFailed || !strings.Contains(r.Error, "outputSchema") || strings.Contains(jsonText(r), "LEAKED-VALUE-7731") {
		t.Errorf("uncaught mismatch = %s", jsonText(r))
	}
}

func TestGuestCatalog_ConvenienceFunctionsAndShellExec(t *testing.T) {
	// Two tools whose names normalise to the same safe name get no shortcut.
	clashA := coreTool("get-item", nil, nil)
	clashB := coreTool("get_item", nil, nil)
	// Tools named like the catalog helpers never shadow them.
	shadow := []catalog.Tool{coreTool("search", nil, nil), coreTool("call", nil, nil), coreTool("callValue", nil, nil), coreTool("describe", nil, nil)}
	extras := append(append(catalogExtras(), clashA, clashB), shadow...)
	rt := newRuntimeWith(t, nil, func(o *core.Options) { o.Policy = catalog.Policy{Deny: []string{"secret_tool"}} }, extras...)
	v := obj(t, exec(t, rt, `
const own = Object.keys(tools).sort();
const hits = await tools.search("echo");
const viaId = await tools.callValue("openclaw:core:exec", { command: "ls" });
const viaShort = await tools.exec({ command: "pwd" });
const helperSearch = await tools.callValue("openclaw:core:search", {});
// A missing name throws a TypeError (it names the closest tools); "in" tests without throwing.
const typeOf = (n) => n in tools ? typeof tools[n] : "undefined";
return { own, types: { search: typeOf("search"), call: typeOf("call"), callValue: typeOf("callValue"), describe: typeOf("describe"),
  get_item: typeOf("get_item"), shipping_list: typeOf("shipping_list"), select_file: typeOf("select_file"), screenshot: typeOf("screenshot"),
  secret_tool: typeOf("secret_tool"), wait: typeOf("wait"), tool_search: typeOf("tool_search") },
  hits: Array.isArray(hits), viaId, viaShort, helperSearch, frozen: Object.isFrozen(tools) };`))
	types := v["types"].(map[string]any)
	for name, want := range map[string]string{"search": "function", "call": "function", "callValue": "function", "describe": "function",
		"get_item": "undefined", "shipping_list": "function", "select_file": "function", "screenshot": "undefined",
		"secret_tool": "undefined", "wait": "undefined", "tool_search": "undefined"} {
		if types[name] != want {
			t.Errorf("typeof tools.%s = %v, want %s", name, types[name], want)
		}
	}
	if v["hits"] != true {
		t.Errorf("tools.search was shadowed by a tool named search")
	}
	if jsonText(v["viaId"]) != `{"shell":"ran ls"}` || jsonText(v["viaShort"]) != `{"shell":"ran pwd"}` {
		t.Errorf("shell exec via id = %v, via tools.exec = %v", v["viaId"], v["viaShort"])
	}
	if jsonText(v["helperSearch"]) != `{"ran":"search"}` {
		t.Errorf("a tool named search is still callable by id: %v", v["helperSearch"])
	}
	if v["frozen"] != true {
		t.Errorf("tools is not frozen")
	}
	own := v["own"].([]any)
	for _, k := range own {
		if k == "get_item" {
			t.Errorf("colliding safe name installed: %v", own)
		}
	}

	// Without a shell tool there is no tools.exec at all: the Code Mode exec
	// (a control tool) is never reachable from the guest.
	rt2 := newRuntimeWith(t, nil, nil, coreTool("exec", nil, func(s *catalog.Spec) { s.Control = true }))
	v2 := obj(t, exec(t, rt2, `let err = "";
try { await tools.call("openclaw:core:exec", { code: "1" }); } catch (e) { err = e.message; }
return { exec: "exec" in tools ? typeof tools.exec : "undefined", wait: "wait" in tools ? typeof tools.wait : "undefined", inAll: ALL_TOOLS.some((e) => e.name === "exec" || e.name === "wait"), err };`))
	if v2["exec"] != "undefined" || v2["wait"] != "undefined" || v2["inAll"] != false || !strings.Contains(v2["err"].(string), "unknown tool id") {
		t.Errorf("Code Mode exec reachable from the guest: %v", v2)
	}
}

func TestGuestCatalog_DeclarationsReadable(t *testing.T) {
	rt := catalogRuntime(t, nil)
	v := obj(t, exec(t, rt, `const files = await API.list(); const dts = await API.read("tools/index.d.ts"); return { files: files.map((f) => f.path), dts };`))
	if files := v["files"].([]any); len(files) == 0 || files[0] != "tools/index.d.ts" {
		t.Errorf("API.list() = %v", files)
	}
	dts := v["dts"].(string)
	for _, w := range []string{"shipping_list", "paid: boolean", "tons: number", "echo"} {
		if !strings.Contains(dts, w) {
			t.Errorf("tools/index.d.ts lacks %q:\n%s", w, dts)
		}
	}
	for _, nw := range []string{"secret_tool", "screenshot", "tool_search"} {
		if strings.Contains(dts, nw) {
			t.Errorf("tools/index.d.ts declares %q", nw)
		}
	}
}

func TestGuestCatalog_HooksApplyToNestedCalls(t *testing.T) {
	var seen []catalog.HookEvent
	hooks := catalog.Hooks{Before: []catalog.BeforeToolCall{func(_ context.Context, ev catalog.HookEvent) (catalog.BeforeDecision, error) {
		if ev.ToolKind == "" {
			seen = append(seen, ev) // the jobs run one at a time in this test
		}
		if ev.ToolName != "echo" {
			return catalog.BeforeDecision{}, nil
		}
		var in struct{ Message string }
		_ = json.Unmarshal(ev.Input, &in)
		switch in.Message {
		case "forbidden":
			return catalog.BeforeDecision{Deny: true, Reason: "no forbidden words"}, nil
		case "rewrite me":
			return catalog.BeforeDecision{Input: json.RawMessage(`{"message":"rewritten by hook"}`)}, nil
		}
		return catalog.BeforeDecision{}, nil
	}}}
	rt := catalogRuntime(t, func(o *core.Options) { o.Hooks = hooks })
	v := obj(t, exec(t, rt, `let denied = "";
try { await tools.echo({ message: "forbidden" }); } catch (e) { denied = e.message; }
const rewritten = await tools.callValue("openclaw:core:echo", { message: "rewrite me" });
const plain = await tools.echo({ message: "plain" });
return { denied, rewritten, plain };`))
	if d := v["denied"].(string); !strings.Contains(d, "denied by policy") || !strings.Contains(d, "no forbidden words") {
		t.Errorf("denied message = %q", d)
	}
	if jsonText(v["rewritten"]) != `{"message":"rewritten by hook"}` || jsonText(v["plain"]) != `{"message":"plain"}` {
		t.Errorf("rewritten = %v plain = %v", v["rewritten"], v["plain"])
	}
	if len(seen) != 3 {
		t.Fatalf("hook saw %d nested calls, want 3: %+v", len(seen), seen)
	}
	for _, ev := range seen {
		if ev.ParentCallID != "exec_1" || ev.ToolID != "openclaw:core:echo" || ev.Via != catalog.ViaTools || ev.Scope != testScope {
			t.Errorf("hook event = %+v, want parent exec_1, id openclaw:core:echo, via tools, the run scope", ev)
		}
	}
}

func TestGuestCatalog_ApprovalPendingResumesThroughWait(t *testing.T) {
	for _, tc := range []struct {
		name    string
		approve bool
		want    string
	}{
		{"approved", true, `{"ok":{"message":"needs approval"}}`},
		{"rejected", false, `{"err":"tool call \"openclaw:core:echo\" was not approved"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			gate := newGate()
			tr := &core.Transcript{}
			rt := newRuntimeWith(t, func(c *config.Config) { c.TimeoutMs = 300 }, func(o *core.Options) {
				o.Transcript = tr
				o.Hooks = catalog.Hooks{Approver: gate, Before: []catalog.BeforeToolCall{
					func(_ context.Context, ev catalog.HookEvent) (catalog.BeforeDecision, error) {
						return catalog.BeforeDecision{RequireApproval: ev.ToolName == "echo", Reason: "echo needs a human"}, nil
					}}}
			})
			r := exec(t, rt, `text("before");
try { const ok = await tools.echo({ message: "needs approval" }); text("after"); return { ok }; }
catch (e) { text("after"); return { err: e.message }; }`)
			if r.Status != core.StatusWaiting || r.Reason != "pending_tools" || len(r.PendingToolCalls) != 1 || r.PendingToolCalls[0].ToolID != "openclaw:core:echo" {
				t.Fatalf("exec = %s, want waiting on openclaw:core:echo", jsonText(r))
			}
			select {
			case req := <-gate.asked:
				if req.Event.ToolID != "openclaw:core:echo" || req.Event.ParentCallID != "exec_1" || req.Reason != "echo needs a human" {
					t.Errorf("approval request = %+v", req)
				}
			case <-time.After(5 * time.Second):
				t.Fatal("approver was never asked")
			}
			// Still blocked: wait suspends again rather than completing.
			r = wait(t, rt, r.RunID)
			if r.Status != core.StatusWaiting {
				t.Fatalf("wait before approval = %s", jsonText(r))
			}
			gate.release(tc.approve)
			r = waitDone(t, rt, r, 20)
			if got := jsonText(value(t, r)); got != tc.want {
				t.Errorf("value = %s, want %s", got, tc.want)
			}
			if len(r.Output) != 1 || r.Output[0].Text != "after" {
				t.Errorf("output after resume = %+v, want [after]", r.Output)
			}
			entries := tr.Entries()
			if len(entries) < 3 || entries[0].Tool != "exec" || entries[0].Status != core.StatusWaiting || entries[len(entries)-1].Status != core.StatusCompleted {
				t.Fatalf("transcript = %s", jsonText(entries))
			}
			if n := entries[0].Nested; len(n) != 1 || n[0].ToolID != "openclaw:core:echo" || n[0].ParentCallID != "exec_1" {
				t.Errorf("the approved call is not filed under its exec: %s", jsonText(entries))
			}
			wantOutcome := catalog.OutcomeOK
			if !tc.approve {
				wantOutcome = catalog.OutcomeDenied
			}
			if o := entries[0].Nested[0].Outcome; o != wantOutcome {
				t.Errorf("outcome = %s, want %s", o, wantOutcome)
			}
		})
	}
}

func TestGuestCatalog_TranscriptAndTelemetry(t *testing.T) {
	tr := &core.Transcript{}
	rt := catalogRuntime(t, func(o *core.Options) { o.Transcript = tr })
	const secret = "TOPSECRET-INPUT-5521"
	r := execAs(rt, "call_exec_42", core.ExecInput{Code: `
await tools.search("shipments"); await tools.search("issues");
await tools.describe("openclaw:core:echo");
await tools.callValue("openclaw:shipping:shipping_list", {});
await tools.echo({ message: "` + secret + `" });
await Issues.list({ state: "all" });
try { await tools.callValue("openclaw:core:secret_tool", { token: "` + secret + `" }); } catch (e) {}
return "done";`})
	if value(t, r) != "done" {
		t.Fatalf("value %s", r.Value)
	}
	tel := r.Telemetry
	if tel.SearchCount != 2 || tel.DescribeCount != 1 || tel.CallCount != 4 {
		t.Errorf("counts = search %d describe %d call %d, want 2/1/4", tel.SearchCount, tel.DescribeCount, tel.CallCount)
	}
	if tel.CatalogBySource != (catalog.SourceCounts{OpenClaw: 7, Client: 1}) || tel.CatalogSize != 8 {
		t.Errorf("catalog size %d by source %+v", tel.CatalogSize, tel.CatalogBySource)
	}
	if !slices.Equal(tel.ModelVisibleTools, []string{"exec", "wait", "screenshot"}) {
		t.Errorf("modelVisibleTools = %v", tel.ModelVisibleTools)
	}
	if s := jsonText(tel); strings.Contains(s, secret) || strings.Contains(s, "message") {
		t.Errorf("telemetry contains tool input: %s", s)
	}

	entries := tr.Entries()
	if len(entries) != 1 {
		t.Fatalf("transcript = %s", jsonText(entries))
	}
	e := entries[0]
	if e.CallID != "call_exec_42" || e.Tool != "exec" || e.ToolKind != catalog.ToolKindCodeModeExec || e.Status != core.StatusCompleted {
		t.Errorf("entry = %+v", e)
	}
	var ids []string
	for _, n := range e.Nested {
		if n.ParentCallID != "call_exec_42" {
			t.Errorf("nested %s parent = %q", n.ToolID, n.ParentCallID)
		}
		ids = append(ids, n.ToolID+"/"+string(n.Via)+"/"+string(n.Outcome))
	}
	sort.Strings(ids)
	want := []string{"openclaw:core:echo/tools/ok", "openclaw:core:secret_tool/tools/denied",
		"openclaw:github:github_list_issues/namespace/ok", "openclaw:shipping:shipping_list/tools/ok"}
	if !slices.Equal(ids, want) {
		t.Errorf("nested = %v\nwant %v", ids, want)
	}
	if s := jsonText(tr); strings.Contains(s, secret) {
		t.Errorf("transcript contains tool input: %s", s)
	}
}

func TestGuestCatalog_Surface(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name     string
		deny     []string
		wantNS   bool
		wantDesc []string
	}{
		{"issues visible", nil, true, []string{"Issues", "Use Issues.list(params) and Issues.update(number, patch).", "openclaw:shipping:shipping_list"}},
		{"update denied", []string{"github_update_issue"}, false, []string{"openclaw:shipping:shipping_list"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			reg := issuesRegistry(t)
			rt := newRuntimeWith(t, nil, func(o *core.Options) { o.Policy = catalog.Policy{Deny: tc.deny}; o.Namespaces = reg })
			s, err := rt.Surface(ctx, testScope, false)
			if err != nil {
				t.Fatal(err)
			}
			if !s.Active || !slices.Equal(s.Names(), []string{"exec", "wait", "screenshot"}) {
				t.Fatalf("surface names = %v active %v", s.Names(), s.Active)
			}
			desc := s.Tools[0].Description
			for _, w := range tc.wantDesc {
				if !strings.Contains(desc, w) {
					t.Errorf("exec description lacks %q:\n%s", w, desc)
				}
			}
			if got := strings.Contains(desc, "Issues.list"); got != tc.wantNS {
				t.Errorf("namespace prompt shown = %v, want %v:\n%s", got, tc.wantNS, desc)
			}
			v := obj(t, exec(t, rt, `return { g: typeof Issues, ns: "Issues" in namespaces ? typeof namespaces.Issues : "undefined", keys: Object.keys(namespaces) };`))
			wantType := "undefined"
			if tc.wantNS {
				wantType = "object"
			}
			if v["g"] != wantType || v["ns"] != wantType {
				t.Errorf("guest Issues = %v, want %s", v, wantType)
			}
		})
	}
	// The surface with tools disabled is untouched (no exec/wait injected).
	rt := newRuntimeWith(t, nil, nil)
	s, err := rt.Surface(ctx, testScope, true)
	if err != nil || s.Active || slices.Contains(s.Names(), "wait") {
		t.Errorf("disableTools surface = %v active %v err %v", s.Names(), s.Active, err)
	}
}

func TestSearchLimitIsValidatedInTheGuest(t *testing.T) {
	rt := newRuntime(t, nil)
	got := value(t, exec(t, rt, `const a = await tools.search("e", {limit: "2"});
	  let msg = ""; try { await tools.search("e", {limit: 2.5}); } catch (e) { msg = e.message; }
	  return [a.length <= 2, msg.includes("positive integer")];`))
	if jsonText(got) != `[true,true]` {
		t.Fatalf("got %s", jsonText(got))
	}
}
