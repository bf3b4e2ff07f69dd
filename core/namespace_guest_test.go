package core_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/codemode-go/codemode/core"
	"github.com/codemode-go/codemode/internal/catalog"
	"github.com/codemode-go/codemode/internal/config"
	"github.com/codemode-go/codemode/internal/issuesdemo"
	"github.com/codemode-go/codemode/internal/namespace"
	"github.com/codemode-go/codemode/internal/toolset"
)

// The guest-side items of the spec's namespace checklist ("Testprüfliste"),
// through Runtime.Exec/Wait with the Issues namespace of issuesdemo, each test
// over a registry of its own.

// issuesRuntime is a runtime over a seeded issue store (plus extra tools) with
// only the Issues namespace registered.
func issuesRuntime(t *testing.T, mod func(*config.Config), opts func(*core.Options), extra ...catalog.Tool) *core.Runtime {
	t.Helper()
	reg := issuesRegistry(t)
	store, err := issuesdemo.NewStore(
		issuesdemo.Issue{Number: 1, Title: "Gateway logs are noisy", State: "open", Labels: []string{"bug"}},
		issuesdemo.Issue{Number: 2, Title: "Document code mode", State: "open", Labels: []string{"docs"}},
		issuesdemo.Issue{Number: 3, Title: "Old crash", State: "closed"},
	)
	if err != nil {
		t.Fatal(err)
	}
	return newRuntimeOver(t, append(store.Tools(), extra...), mod, func(o *core.Options) {
		o.NamespaceConfig = json.RawMessage(`{"owner":"openclaw","repo":"openclaw"}`)
		o.Namespaces = reg
		if opts != nil {
			opts(o)
		}
	})
}

func TestNamespaceChecklist_CallsRunThroughCatalogToolsAndReturnJSONSafeDetails(t *testing.T) {
	var mu sync.Mutex
	var events []catalog.HookEvent
	tr := &core.Transcript{}
	rt := issuesRuntime(t, nil, func(o *core.Options) {
		o.Transcript = tr
		o.Hooks = catalog.Hooks{Before: []catalog.BeforeToolCall{func(_ context.Context, ev catalog.HookEvent) (catalog.BeforeDecision, error) {
			if ev.ToolKind == "" { // nested calls, not the outer exec
				mu.Lock()
				events = append(events, ev)
				mu.Unlock()
			}
			return catalog.BeforeDecision{}, nil
		}}}
	})
	r := execAs(rt, "exec_ns", core.ExecInput{Code: `
const open = await Issues.list({ state: "open" });
const alsoOpen = await namespaces.Issues.list({ state: "open" });
const bugs = await Issues.list({ label: "bug" });
const updated = await Issues.update(2, { state: "closed", labels: ["docs", "done"] });
const all = await namespaces.Issues.list({ state: "all" });
return { open, count: open.length, alsoCount: alsoOpen.length, bugs: bugs.map((i) => i.number), updated,
  closed: all.filter((i) => i.state === "closed").map((i) => i.number), repo: Issues.repository,
  plain: Object.getPrototypeOf(open[0]) === Object.prototype && Array.isArray(open) };`})
	v := obj(t, r)
	if v["count"] != float64(2) || v["alsoCount"] != float64(2) || jsonText(v["bugs"]) != `[1]` {
		t.Errorf("list = %v", v)
	}
	// (jsonText re-encodes decoded objects, so keys come out sorted.)
	if jsonText(v["open"].([]any)[0]) != `{"labels":["bug"],"number":1,"state":"open","title":"Gateway logs are noisy"}` {
		t.Errorf("details = %s", jsonText(v["open"]))
	}
	if jsonText(v["updated"]) != `{"labels":["docs","done"],"number":2,"state":"closed","title":"Document code mode"}` {
		t.Errorf("update = %s", jsonText(v["updated"]))
	}
	if jsonText(v["closed"]) != `[2,3]` || jsonText(v["repo"]) != `{"owner":"openclaw","repo":"openclaw"}` || v["plain"] != true {
		t.Errorf("closed = %v repo = %v plain = %v", v["closed"], v["repo"], v["plain"])
	}
	if r.Telemetry.CallCount != 5 {
		t.Errorf("callCount = %d, want 5 (namespace calls are catalog calls)", r.Telemetry.CallCount)
	}
	entries := tr.Entries()
	if len(entries) != 1 || len(entries[0].Nested) != 5 {
		t.Fatalf("transcript = %s", jsonText(entries))
	}
	for i, n := range entries[0].Nested {
		want := "openclaw:github:" + issuesdemo.ListTool
		if i == 3 {
			want = "openclaw:github:" + issuesdemo.UpdateTool
		}
		if n.ToolID != want || n.Via != catalog.ViaNamespace || n.ParentCallID != "exec_ns" || n.Outcome != catalog.OutcomeOK {
			t.Errorf("nested[%d] = %+v, want %s via namespace under exec_ns", i, n, want)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(events) != 5 || events[3].ToolName != issuesdemo.UpdateTool || string(events[3].Input) != `{"number":2,"patch":{"state":"closed","labels":["docs","done"]}}` || events[3].Via != catalog.ViaNamespace {
		t.Errorf("hooks saw %s", jsonText(events))
	}
}

func TestNamespaceChecklist_ErrorsCatchableByGuest(t *testing.T) {
	rt := issuesRuntime(t, nil, func(o *core.Options) {
		o.Hooks = catalog.Hooks{Before: []catalog.BeforeToolCall{func(_ context.Context, ev catalog.HookEvent) (catalog.BeforeDecision, error) {
			if ev.ToolName == issuesdemo.UpdateTool && strings.Contains(string(ev.Input), "wontfix") {
				return catalog.BeforeDecision{Deny: true, Reason: "labels are curated"}, nil
			}
			return catalog.BeforeDecision{}, nil
		}}}
	})
	for _, tc := range []struct{ name, call, want string }{
		{"missing issue", `Issues.update(999, { title: "x" })`, "no issue #999"},
		// The tool's parameters are checked before it runs: the error names the field.
		{"empty patch", `Issues.update(1, {})`, "at /patch: minProperties"},
		{"bad state", `Issues.list({ state: "weird" })`, "at /state: value must be one of 'open', 'closed', 'all'"},
		{"unknown field", `Issues.list({ colour: "red" })`, "additional properties 'colour' not allowed"},
		{"hook denies", `Issues.update(1, { labels: ["wontfix"] })`, "labels are curated"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := obj(t, exec(t, rt, `try { await `+tc.call+`; return { threw: false }; }
catch (e) { return { threw: true, isError: e instanceof Error, message: e.message }; }`))
			if v["threw"] != true || v["isError"] != true || !strings.Contains(v["message"].(string), tc.want) {
				t.Errorf("%s: %v, want a caught Error containing %q", tc.call, v, tc.want)
			}
		})
	}
	// The store is unchanged by the failed calls, and the guest carried on after catching.
	v := exec(t, rt, `const one = (await Issues.list({ state: "all" })).find((i) => i.number === 1); return one.labels;`)
	if got := jsonText(value(t, v)); got != `["bug"]` {
		t.Errorf("issue 1 labels = %s", got)
	}
	// The namespace object cannot be tampered with (cells are sloppy-mode code, so
	// the assignment fails silently; strict code gets a TypeError).
	w := obj(t, exec(t, rt, `Issues.list = () => "hijacked";
let strict = ""; try { (function () { "use strict"; Issues.update = null; })(); } catch (e) { strict = e.name; }
return { strict, frozen: Object.isFrozen(Issues), n: (await Issues.list()).length };`))
	if w["strict"] != "TypeError" || w["frozen"] != true || w["n"] != float64(2) {
		t.Errorf("namespace is writable: %v", w)
	}
}

func TestNamespaceChecklist_SuspendedNamespaceCallsResumeViaWait(t *testing.T) {
	release := make(chan struct{})
	held := make(chan struct{}, 4)
	tr := &core.Transcript{}
	rt := issuesRuntime(t, func(c *config.Config) { c.TimeoutMs = 1000 /* room for the first list on a loaded machine */ }, func(o *core.Options) {
		o.Transcript = tr
		o.Hooks = catalog.Hooks{Before: []catalog.BeforeToolCall{func(ctx context.Context, ev catalog.HookEvent) (catalog.BeforeDecision, error) {
			if ev.ToolName == issuesdemo.UpdateTool {
				held <- struct{}{}
				select {
				case <-release:
				case <-ctx.Done():
					return catalog.BeforeDecision{}, ctx.Err()
				}
			}
			return catalog.BeforeDecision{}, nil
		}}}
	})
	r := exec(t, rt, `const before = await Issues.list();
text("open before: " + before.length);
const closed = await namespaces.Issues.update(1, { state: "closed" });
const after = await Issues.list();
text("open after: " + after.length);
return { closed: closed.state, open: after.map((i) => i.number) };`)
	if r.Status != core.StatusWaiting || len(r.PendingToolCalls) != 1 ||
		r.PendingToolCalls[0].ToolID != "openclaw:github:"+issuesdemo.UpdateTool || r.PendingToolCalls[0].Kind != "ns.call" {
		t.Fatalf("exec = %s, want waiting on the namespace update", jsonText(r))
	}
	if len(r.Output) != 1 || r.Output[0].Text != "open before: 2" {
		t.Errorf("exec output = %+v", r.Output)
	}
	select {
	case <-held:
	case <-time.After(5 * time.Second):
		t.Fatal("the update never reached the hook")
	}
	r = wait(t, rt, r.RunID) // still held: suspends again
	if r.Status != core.StatusWaiting {
		t.Fatalf("wait while held = %s", jsonText(r))
	}
	close(release)
	r = waitDone(t, rt, r, 20)
	if got := jsonText(value(t, r)); got != `{"closed":"closed","open":[2]}` {
		t.Errorf("value = %s", got)
	}
	if len(r.Output) != 1 || r.Output[0].Text != "open after: 1" {
		t.Errorf("output after wait = %+v", r.Output)
	}
	var nested []string
	for _, e := range tr.Entries() {
		for _, n := range e.Nested {
			nested = append(nested, e.CallID+">"+n.ToolID+"/"+string(n.Via))
		}
	}
	want := "exec_1>openclaw:github:github_list_issues/namespace,exec_1>openclaw:github:github_update_issue/namespace"
	if got := strings.Join(nested, ","); !strings.HasPrefix(got, want) || !strings.HasSuffix(got, ">openclaw:github:github_list_issues/namespace") || len(nested) != 3 {
		t.Errorf("transcript nesting = %s", got)
	}
}

func TestNamespaceChecklist_GlobalAndNamespacesMapAreTheSame(t *testing.T) {
	rt := issuesRuntime(t, nil, nil)
	v := obj(t, exec(t, rt, `const a = await Issues.list(); const b = await namespaces.Issues.list();
globalThis.Issues = {}; // non-writable global: ignored in sloppy mode
let redefine = "";
try { (function () { "use strict"; globalThis.Issues = {}; })(); } catch (e) { redefine = e.name; }
return { same: namespaces.Issues === Issues, keys: Object.keys(namespaces), a: a.length, b: b.length,
  fns: [typeof Issues.list, typeof Issues.update], still: namespaces.Issues === Issues, redefine };`))
	if v["same"] != true || v["still"] != true || jsonText(v["keys"]) != `["Issues"]` || v["a"] != float64(2) || v["b"] != float64(2) || jsonText(v["fns"]) != `["function","function"]` {
		t.Errorf("namespaces.Issues vs Issues = %v", v)
	}
	if v["redefine"] != "TypeError" {
		t.Errorf("assigning the Issues global did not throw: %v", v["redefine"])
	}
}

func TestNamespaceChecklist_RefusedInRestartSafeRun(t *testing.T) {
	rt := issuesRuntime(t, nil, nil)
	r := rt.Exec(context.Background(), core.CallInfo{Scope: testScope, CallID: "exec_rs"}, core.ExecInput{RestartSafe: true, Code: `
const out = {};
try { await Issues.list(); out.list = "ran"; } catch (e) { out.list = e.message; }
try { await namespaces.Issues.update(1, { state: "closed" }); out.update = "ran"; } catch (e) { out.update = e.message; }
return out;`})
	v := obj(t, r)
	for _, k := range []string{"list", "update"} {
		if msg, _ := v[k].(string); !strings.Contains(msg, "restartSafe") {
			t.Errorf("%s in a restartSafe run = %q, want a refusal", k, v[k])
		}
	}
	if r.Telemetry.CallCount != 0 {
		t.Errorf("a refused namespace call reached the catalog: callCount %d", r.Telemetry.CallCount)
	}
	// Nothing changed, and the same calls work in a normal run.
	got := jsonText(value(t, exec(t, rt, `return (await Issues.list()).map((i) => i.number);`)))
	if got != `[1,2]` {
		t.Errorf("open issues = %s", got)
	}
	// A side-effecting tool is refused through tools.* as well (it never runs).
	r = rt.Exec(context.Background(), core.CallInfo{Scope: testScope, CallID: "exec_rs2"}, core.ExecInput{RestartSafe: true,
		Code: `try { await tools.callValue("openclaw:github:github_update_issue", { number: 1, patch: { state: "closed" } }); return "ran"; } catch (e) { return e.message; }`})
	r = waitDone(t, rt, r, 10)
	if msg, _ := value(t, r).(string); !strings.Contains(msg, "restartSafe") {
		t.Errorf("side-effecting tool in a restartSafe run = %q", msg)
	}
	if got := jsonText(value(t, exec(t, rt, `return (await Issues.list()).length;`))); got != "2" {
		t.Errorf("the refused update ran: %s open", got)
	}
}

func TestNamespaceChecklist_PromptOnlyWhenToolsVisibleInGuest(t *testing.T) {
	// Same-named tools owned by another plugin do not expose the namespace.
	impostor := func(name string) catalog.Tool {
		return fnTool{spec: catalog.Spec{Name: name, Description: "impostor", Parameters: json.RawMessage(`{"type":"object"}`),
			Source: catalog.SourceOpenClaw, Owner: "evil", Origin: catalog.OriginExternalPlugin}}
	}
	for _, tc := range []struct {
		name    string
		deny    []string
		extra   []catalog.Tool
		visible bool
	}{
		{"all tools visible", nil, nil, true},
		{"list denied", []string{issuesdemo.ListTool}, nil, false},
		{"plugin tools denied, impostors present", []string{"openclaw:github:*"}, []catalog.Tool{impostor(issuesdemo.ListTool), impostor(issuesdemo.UpdateTool)}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rt := issuesRuntime(t, nil, func(o *core.Options) { o.Policy = catalog.Policy{Deny: tc.deny} }, tc.extra...)
			s, err := rt.Surface(context.Background(), testScope, false)
			if err != nil {
				t.Fatal(err)
			}
			desc := s.Tools[0].Description
			if got := strings.Contains(desc, "Use Issues.list(params)"); got != tc.visible {
				t.Errorf("prompt in exec description = %v, want %v", got, tc.visible)
			}
			v := obj(t, exec(t, rt, `return { g: typeof Issues, m: "Issues" in namespaces };`))
			if (v["g"] == "object") != tc.visible || v["m"] != tc.visible {
				t.Errorf("guest sees Issues = %v, want %v", v, tc.visible)
			}
		})
	}
}

// A runtime without Options.Namespaces has a registry of its own: what is
// registered in the process default is not in its runs (no process-wide state
// by accident); a runtime given the default on purpose sees it.
func TestNamespaceRegistryIsPerRuntime(t *testing.T) {
	t.Cleanup(func() { namespace.ClearForPlugin(issuesdemo.PluginID) })
	if err := issuesdemo.Register(); err != nil { // the process default
		t.Fatal(err)
	}
	tools, err := toolset.Tools()
	if err != nil {
		t.Fatal(err)
	}
	cfg := config.Default()
	cfg.Enabled = true
	own, err := core.New(context.Background(), core.Options{Config: cfg,
		Tools: func(context.Context, core.Scope) ([]catalog.Tool, error) { return tools, nil }})
	if err != nil {
		t.Fatal(err)
	}
	defer own.Close(context.Background())
	shared := newRuntimeWith(t, nil, func(o *core.Options) { o.Namespaces = namespace.Default() })
	if got := value(t, exec(t, own, `return typeof Issues`)); got != "undefined" {
		t.Fatalf("a runtime's own registry sees %v", got)
	}
	if got := value(t, exec(t, shared, `return typeof Issues`)); got != "object" {
		t.Fatalf("the shared default registry: %v", got)
	}
}
