package core_test

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/codemode-go/codemode/core"
	"github.com/codemode-go/codemode/internal/catalog"
	"github.com/codemode-go/codemode/internal/config"
	"github.com/codemode-go/codemode/internal/namespace"
	"github.com/codemode-go/codemode/internal/surface"
)

// execSchema returns the model-visible exec input schema as generic JSON.
func execSchema(t *testing.T, rt *core.Runtime) map[string]any {
	t.Helper()
	s, err := rt.Surface(context.Background(), testScope, false)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range s.Tools {
		if d.Name == surface.ExecToolName {
			var m map[string]any
			if err := json.Unmarshal(d.InputSchema, &m); err != nil {
				t.Fatal(err)
			}
			return m
		}
	}
	t.Fatal("no exec tool on the surface")
	return nil
}

// Spec "exec": language defaults to "javascript"; with only typescript enabled
// the one default is typescript, in the schema and in the runtime alike.
func TestSpecExec_OneDefaultLanguageForSchemaAndRuntime(t *testing.T) {
	for _, tc := range []struct {
		langs []string
		want  string
		cell  string
	}{
		{[]string{"typescript"}, "typescript", `const n: number = 2; return n`},
		{[]string{"typescript", "javascript"}, "javascript", `return 2`},
		{[]string{"javascript"}, "javascript", `return 2`},
	} {
		rt := newRuntime(t, func(c *config.Config) { c.Languages = tc.langs })
		lang := execSchema(t, rt)["properties"].(map[string]any)["language"].(map[string]any)
		if lang["default"] != tc.want || !strings.Contains(lang["description"].(string), "defaults to "+tc.want) {
			t.Errorf("%v: schema language %v, want default %s", tc.langs, lang, tc.want)
		}
		if got := value(t, exec(t, rt, tc.cell)); got != 2.0 {
			t.Errorf("%v: a cell without language: %v", tc.langs, got)
		}
	}
}

// Spec "Ausgabe-API": CodeModeOutput is {type: "text"; text: string}: text
// is required, also when empty.
func TestSpecAusgabeAPI_EmptyTextItemsCarryText(t *testing.T) {
	rt := newRuntime(t, nil)
	b, _ := json.Marshal(exec(t, rt, `text(""); console.log(); json(null); return 1`))
	if !strings.Contains(string(b), `"output":[{"type":"text","text":""},{"type":"text","text":""},{"type":"json","value":null}]`) {
		t.Fatalf("result %s", b)
	}
}

// Spec "exec" (CodeModeExecInput) and "Lebenszyklus von Lauf und Snapshot"
// (restartSafe): the model-visible schema documents code, language and
// restartSafe; command is for hooks and trusted rewrites only.
func TestSpecExec_SchemaHasRestartSafeNotCommand(t *testing.T) {
	props := execSchema(t, newRuntime(t, nil))["properties"].(map[string]any)
	if _, ok := props["command"]; ok {
		t.Errorf("command is model-visible: %v", props)
	}
	rs, ok := props["restartSafe"].(map[string]any)
	if !ok || rs["type"] != "boolean" {
		t.Errorf("restartSafe missing from the exec schema: %v", props)
	}
}

// Spec "Lebenszyklus von Lauf und Snapshot": restartSafe refuses what is not
// known to be free of side effects. A client tool is known safe only when
// declared read-only.
func TestSpecLebenszyklus_RestartSafeFailsClosedForClientTools(t *testing.T) {
	ran := map[string]bool{}
	var mu sync.Mutex
	client := func(name string, readOnly bool) catalog.Tool {
		return coreTool(name, func(context.Context, catalog.Call) (catalog.Result, error) {
			mu.Lock()
			ran[name] = true
			mu.Unlock()
			return catalog.Result{Details: []byte(`"ok"`)}, nil
		}, func(s *catalog.Spec) {
			s.Source, s.Owner, s.Origin, s.ReadOnly = catalog.SourceClient, "app", catalog.OriginClient, readOnly
		})
	}
	rt := newRuntime(t, nil, client("pick", false), client("peek", true))
	r := rt.Exec(context.Background(), core.CallInfo{Scope: testScope}, core.ExecInput{RestartSafe: true, Code: `
	  const out = {};
	  for (const id of ["client:app:pick", "client:app:peek"]) {
	    try { out[id] = await tools.callValue(id, {}); } catch (e) { out[id] = e.message; }
	  }
	  return out;`})
	for r.Status == core.StatusWaiting {
		r = wait(t, rt, r.RunID)
	}
	v := value(t, r).(map[string]any)
	if v["client:app:peek"] != "ok" || !strings.Contains(v["client:app:pick"].(string), "restartSafe") || ran["pick"] {
		t.Fatalf("restartSafe run: %v (ran %v)", v, ran)
	}
}

// Spec "exec"/"wait": a restartSafe run is never auto-pumped, yet wait on it
// blocks until something settles (bounded by timeoutMs) instead of returning
// at once.
func TestSpecWait_RestartSafeWaitBlocksUntilACallSettles(t *testing.T) {
	rt := newRuntime(t, nil)
	r := rt.Exec(context.Background(), core.CallInfo{Scope: testScope}, core.ExecInput{RestartSafe: true,
		Code: `return (await tools.callValue("openclaw:core:sleep_ms", {ms: 300})).slept`})
	if r.Status != core.StatusWaiting {
		t.Fatalf("exec: %+v", r)
	}
	start := time.Now()
	got := wait(t, rt, r.RunID)
	if value(t, got) != 300.0 {
		t.Fatalf("wait: %+v", got)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("wait took %v", d)
	}
}

// Spec "Interne Namespaces" (Lebenszyklus der Registry): one plugin's broken
// registration is skipped and reported to the host (Options.Logger); other namespaces and
// plain cells keep working, and surface and exec agree on what is visible.
func TestSpecNamespaces_BrokenRegistrationIsSkippedAndReported(t *testing.T) {
	const plugin = "brokenplug"
	reg := issuesRegistry(t)
	if err := reg.RegisterForPlugin(plugin, namespace.Registration{
		ID: "broken", GlobalName: "Broken", Description: "broken namespace", RequiredToolNames: []string{"broken_tool"},
		CreateScope: func(namespace.ScopeContext) (any, error) { return nil, errors.New("no credentials") },
	}); err != nil {
		t.Fatal(err)
	}
	tool := coreTool("broken_tool", nil, func(s *catalog.Spec) { s.Owner, s.Origin = plugin, catalog.OriginBundledPlugin })
	var logged lockedLog
	rt := newRuntimeWith(t, nil, func(o *core.Options) {
		o.Logger = slog.New(slog.NewTextHandler(&logged, nil))
		o.Namespaces = reg
	}, tool)
	got := value(t, exec(t, rt, `return [typeof Issues, typeof Broken, Object.keys(namespaces).sort()]`))
	if jsonText(got) != `["object","undefined",["Issues"]]` {
		t.Fatalf("guest sees %s", jsonText(got))
	}
	s, err := rt.Surface(context.Background(), testScope, false)
	if err != nil {
		t.Fatal(err)
	}
	desc := s.Tools[0].Description
	if !strings.Contains(desc, "- Issues:") || strings.Contains(desc, "Broken") {
		t.Fatalf("surface namespaces disagree with exec: %s", desc[strings.Index(desc, "Namespaces:"):])
	}
	log := logged.String()
	if !strings.Contains(log, "level=WARN") || !strings.Contains(log, "namespace=broken") || !strings.Contains(log, "no credentials") {
		t.Fatalf("host log: %s", log)
	}
}

// lockedLog collects log output from any goroutine.
type lockedLog struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// Spec "Telemetrie": every result, wait failures included, reports the catalog
// counts and the real model-visible tool names.
func TestSpecTelemetrie_WaitFailuresCarryTelemetry(t *testing.T) {
	rt := newRuntime(t, nil)
	want := exec(t, rt, `return 1`).Telemetry
	for _, id := range []string{"cm_unknown", ""} {
		got := wait(t, rt, id).Telemetry
		if got.CatalogSize == 0 || got.CatalogSize != want.CatalogSize || jsonText(got.ModelVisibleTools) != jsonText(want.ModelVisibleTools) {
			t.Errorf("wait %q telemetry %+v, want counts of %+v", id, got, want)
		}
	}
	if !strings.Contains(jsonText(want.ModelVisibleTools), "screenshot") {
		t.Fatalf("visible tools %v lack the direct-only tool", want.ModelVisibleTools)
	}
}

// Spec "exec" (outer hook events) and "Verschachtelte Tool-Ausführung": after
// hooks see the outer exec's result; wait is an outer call with hook events too.
func TestSpecHooks_OuterExecAndWaitHookEvents(t *testing.T) {
	var mu sync.Mutex
	var seen []string
	hooks := catalog.Hooks{
		Before: []catalog.BeforeToolCall{func(_ context.Context, ev catalog.HookEvent) (catalog.BeforeDecision, error) {
			mu.Lock()
			defer mu.Unlock()
			if ev.ToolKind != "" {
				seen = append(seen, "before "+ev.ToolName+" "+ev.ToolKind)
			}
			return catalog.BeforeDecision{}, nil
		}},
		After: []catalog.AfterToolCall{func(_ context.Context, ev catalog.HookEvent, res catalog.Result) (catalog.Result, error) {
			mu.Lock()
			defer mu.Unlock()
			if ev.ToolKind != "" {
				var r struct {
					Status string `json:"status"`
				}
				json.Unmarshal(res.Details, &r)
				seen = append(seen, "after "+ev.ToolName+" "+ev.ToolKind+" "+r.Status)
			}
			return res, nil
		}},
	}
	rt := newRuntimeWith(t, nil, func(o *core.Options) { o.Hooks = hooks })
	r := exec(t, rt, `await yield_control(); return 1`)
	value(t, wait(t, rt, r.RunID))
	mu.Lock()
	defer mu.Unlock()
	want := "before exec code_mode_exec|after exec code_mode_exec waiting|before wait code_mode_wait|after wait code_mode_wait completed"
	if strings.Join(seen, "|") != want {
		t.Fatalf("hook events\n got %s\nwant %s", strings.Join(seen, "|"), want)
	}
}

// Spec "Validierungscheckliste": transcript replay keeps Code Mode control
// calls, also those refused before the VM started.
func TestChecklist_TranscriptRecordsExecsRefusedBeforeTheVM(t *testing.T) {
	var tr core.Transcript
	deny := catalog.Hooks{Before: []catalog.BeforeToolCall{func(_ context.Context, ev catalog.HookEvent) (catalog.BeforeDecision, error) {
		return catalog.BeforeDecision{Deny: strings.Contains(string(ev.Input), "forbidden")}, nil
	}}}
	rt := newRuntimeWith(t, func(c *config.Config) { c.Languages = []string{"javascript", "typescript"} }, func(o *core.Options) {
		o.Transcript, o.Hooks = &tr, deny
	})
	for i, in := range []core.ExecInput{
		{Code: `return 1`, Language: "python"},
		{Code: `import fs from "fs"`},
		{Code: `"forbidden"`},
		{Code: `const x: = 1`, Language: "typescript"},
	} {
		r := execAs(rt, "call_"+string(rune('a'+i)), in)
		mustFail(t, r, core.CodeInvalidInput, "")
	}
	wait(t, rt, "cm_nope")
	got := tr.Entries()
	if len(got) != 5 {
		t.Fatalf("transcript has %d entries: %+v", len(got), got)
	}
	for i, e := range got[:4] {
		if e.CallID != "call_"+string(rune('a'+i)) || e.Tool != "exec" || e.Status != core.StatusFailed || e.Code != core.CodeInvalidInput {
			t.Errorf("entry %d: %+v", i, e)
		}
	}
	if got[4].Tool != "wait" || got[4].Status != core.StatusFailed {
		t.Errorf("wait entry: %+v", got[4])
	}
}

// Spec "Verschachtelte Tool-Ausführung" (same execution path as a normal tool
// call): inputs are checked against the tool's declared parameters before the
// tool runs; the catchable error names the field, never a Go type.
func TestSpecVerschachtelt_ToolInputsCheckedAgainstParameters(t *testing.T) {
	ran := false
	strict := coreTool("strict", func(context.Context, catalog.Call) (catalog.Result, error) {
		ran = true
		return catalog.Result{Details: []byte(`1`)}, nil
	}, func(s *catalog.Spec) {
		s.Parameters = []byte(`{"type":"object","properties":{"count":{"type":"integer"}},"required":["count"],"additionalProperties":false}`)
	})
	rt := newRuntime(t, nil, strict)
	got := value(t, exec(t, rt, `
	  const errs = [];
	  for (const f of [() => tools.strict({count: "x"}), () => tools.strict({}), () => tools.strict({count: 1, extra: 2}),
	                   () => tools.echo({message: 5}), () => Issues.list({state: 5}), () => Issues.update(1, {state: "nope"})]) {
	    try { await f(); errs.push("ran"); } catch (e) { errs.push(e.message); }
	  }
	  return errs;`)).([]any)
	wants := []string{"count", "count", "extra", "message", "state", "state"}
	for i, w := range wants {
		msg, _ := got[i].(string)
		if !strings.Contains(msg, w) || strings.Contains(msg, "Go value") || strings.Contains(msg, "struct") || msg == "ran" {
			t.Errorf("call %d: %q, want a message naming %q without Go types", i, msg, w)
		}
	}
	if ran {
		t.Error("the tool ran with an input its parameters refuse")
	}
}

// Spec "TypeScript" (diagnostics and errors for the model): stack traces of a
// TypeScript cell point at the TypeScript source lines, not the transpiled JS.
func TestSpecTypeScript_StackTracesPointAtTypeScriptLines(t *testing.T) {
	rt := newRuntime(t, nil)
	r := rt.Exec(context.Background(), core.CallInfo{Scope: testScope}, core.ExecInput{Language: "typescript", Code: `type Row = {
  id: string;
  n: number;
};
interface Other { x: number }
const rows: Row[] = [{ id: "a", n: 1 }];
function check(r: Row): number {
  if (r.n > 0) throw new Error("bad row " + r.id);
  return r.n;
}
return rows.map(check);`})
	mustFail(t, r, "", "bad row a")
	if !strings.Contains(r.Error, "cell.ts:8:") || !strings.Contains(r.Error, "cell.ts:11:") {
		t.Fatalf("stack does not point at the TypeScript lines 8 and 11:\n%s", r.Error)
	}
}
