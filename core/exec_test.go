package core_test

import (
	"context"
	"strings"
	"testing"

	"github.com/codemode-go/codemode/core"
	"github.com/codemode-go/codemode/internal/catalog"
	"github.com/codemode-go/codemode/internal/config"
	"github.com/codemode-go/codemode/internal/tsx"
)

func TestExecInputRules(t *testing.T) {
	rt := newRuntime(t, nil)
	tests := []struct {
		name string
		in   core.ExecInput
		want string // "" means completed
	}{
		{"code", core.ExecInput{Code: "return 1"}, ""},
		{"command alias", core.ExecInput{Command: "return 1"}, ""},
		{"both equal", core.ExecInput{Code: "return 1", Command: "return 1"}, ""},
		{"both differ", core.ExecInput{Code: "return 1", Command: "return 2"}, "must be equal"},
		{"empty", core.ExecInput{}, "non-empty"},
		{"blank", core.ExecInput{Code: "  \n\t"}, "non-empty"},
		{"bad language", core.ExecInput{Code: "return 1", Language: "python"}, `"javascript" or "typescript"`},
		{"explicit javascript", core.ExecInput{Code: "return 1", Language: "javascript"}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := rt.Exec(context.Background(), core.CallInfo{Scope: testScope}, tc.in)
			if tc.want == "" {
				if value(t, r) != 1.0 {
					t.Fatalf("value %s", r.Value)
				}
				return
			}
			mustFail(t, r, core.CodeInvalidInput, tc.want)
		})
	}
}

func TestExecDisabledLanguageIsInvalidInput(t *testing.T) {
	rt := newRuntime(t, func(c *config.Config) { c.Languages = []string{"javascript"} })
	r := rt.Exec(context.Background(), core.CallInfo{Scope: testScope}, core.ExecInput{Code: "return 1", Language: "typescript"})
	mustFail(t, r, core.CodeInvalidInput, "typescript is disabled")
}

func TestChecklist_TypeScriptTransformedWithoutLoadingInJSPaths(t *testing.T) {
	rt := newRuntime(t, nil)
	before := tsx.Transforms()
	for i := 0; i < 3; i++ {
		value(t, exec(t, rt, `const xs = [1, 2, 3]; return xs.map((x) => x * 2)`))
	}
	if got := tsx.Transforms(); got != before {
		t.Fatalf("JavaScript cells ran the TypeScript transform (%d -> %d)", before, got)
	}
	r := rt.Exec(context.Background(), core.CallInfo{Scope: testScope}, core.ExecInput{Language: "typescript", Code: `
interface Shipment { id: string; paid: boolean; tons: number }
const all = (await tools.callValue("openclaw:shipping:shipping_list", {})) as Shipment[];
const heavy: Shipment[] = all.filter((s: Shipment): boolean => s.tons > 20);
return heavy.map((s) => s.id);`})
	if got := jsonText(value(t, r)); got != `["SH-1004","SH-1005"]` {
		t.Fatalf("typescript cell: %s", got)
	}
	if tsx.Transforms() != before+1 {
		t.Fatalf("typescript cell did not run the transform once")
	}
}

func TestTypeScriptDiagnosticsAreInvalidInputWithPosition(t *testing.T) {
	rt := newRuntime(t, nil)
	r := rt.Exec(context.Background(), core.CallInfo{Scope: testScope}, core.ExecInput{Language: "typescript", Code: "const a: number = 1;\nconst b = (a +;\nreturn b;"})
	mustFail(t, r, core.CodeInvalidInput, "typescript:2:")
}

func TestChecklist_ImportRequireFileSystemNetworkEnvironmentFail(t *testing.T) {
	rt := newRuntime(t, nil)
	rejected := []string{
		`import fs from "fs"; return 1`,
		`const fs = require("fs"); return fs`,
		`const m = await import("node:fs"); return m`,
		`module.exports = 1`,
	}
	for _, code := range rejected {
		mustFail(t, exec(t, rt, code), core.CodeInvalidInput, "")
	}
	// Reached dynamically (past the static check), the capabilities are simply absent.
	absent := `return [typeof require, typeof process, typeof fetch, typeof XMLHttpRequest, typeof WebSocket,
	  typeof Deno, typeof Bun, typeof std, typeof os, typeof __openclaw_sync, typeof __openclaw_async,
	  typeof globalThis.importScripts]`
	want := `["undefined","undefined","undefined","undefined","undefined","undefined","undefined","undefined","undefined","undefined","undefined","undefined"]`
	if got := jsonText(value(t, exec(t, rt, absent))); got != want {
		t.Fatalf("host capabilities visible: %s", got)
	}
	r := exec(t, rt, `const spec = "node:" + "fs"; const load = globalThis["ev" + "al"]; return await load("imp" + "ort(spec)")`)
	if r.Status != core.StatusFailed || r.Code == core.CodeInternalError {
		t.Fatalf("dynamic import through eval: %+v", r)
	}
}

func TestShellShapedInputGetsAHint(t *testing.T) {
	rt := newRuntime(t, nil)
	for _, code := range []string{"ls -la", "cat file.txt | grep x", "npm install lodash"} {
		mustFail(t, exec(t, rt, code), core.CodeInvalidInput, "not a shell")
	}
}

func TestTopLevelAwaitAndReturn(t *testing.T) {
	rt := newRuntime(t, nil)
	if got := value(t, exec(t, rt, `const a = await Promise.resolve(20); if (a > 10) { return a + 1; } return 0;`)); got != 21.0 {
		t.Fatalf("got %v", got)
	}
	// No return: the value is null.
	if r := exec(t, rt, `await Promise.resolve(1);`); string(r.Value) != "null" || r.Status != core.StatusCompleted {
		t.Fatalf("no return: %+v", r)
	}
}

func TestOutputAdapter(t *testing.T) {
	rt := newRuntime(t, nil)
	tests := []struct{ name, code, want string }{
		{"undefined", `return undefined`, `null`},
		{"undefined in object and array", `return {a: undefined, b: [undefined, 1]}`, `{"b":[null,1]}`},
		{"bigint", `return 12345678901234567890n`, `"12345678901234567890n"`},
		{"NaN and infinities", `return [NaN, Infinity, -Infinity, -0]`, `["NaN","Infinity","-Infinity",0]`},
		{"date", `return new Date(Date.UTC(2024, 0, 2))`, `"2024-01-02T00:00:00.000Z"`},
		{"invalid date", `return new Date(NaN)`, `null`},
		{"map", `return new Map([["a", 1], [2, {b: true}]])`, `[["a",1],[2,{"b":true}]]`},
		{"set", `return new Set([1, "x", 1])`, `[1,"x"]`},
		{"typed array", `return new Int8Array([-1, 2])`, `[-1,2]`},
		{"float array", `return new Float64Array([0.5])`, `[0.5]`},
		{"cycle", `const o = {name: "o"}; o.self = o; return o`, `{"name":"o","self":"[Circular]"}`},
		{"shared reference is not a cycle", `const s = {v: 1}; return [s, s]`, `[{"v":1},{"v":1}]`},
		{"function", `return {f: function named() {}, g: () => 1}`, `{"f":"[Function named]","g":"[Function g]"}`},
		{"symbol", `return [Symbol("tag")]`, `["Symbol(tag)"]`},
		{"toJSON", `return {toJSON() { return {via: "toJSON"}; }}`, `{"via":"toJSON"}`},
		{"error", `return new RangeError("too far")`, `"RangeError: too far"`},
		{"class instance", `class P { constructor() { this.x = 1; } get y() { return 2; } }; return new P()`, `{"x":1}`},
		{"deep", `let v = 0; for (let i = 0; i < 100; i++) v = [v]; return JSON.stringify(v).length > 0 && v`, ``},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := exec(t, rt, tc.code)
			if r.Status != core.StatusCompleted {
				t.Fatalf("%s: %s", r.Status, r.Error)
			}
			if tc.want != "" && string(r.Value) != tc.want {
				t.Fatalf("got %s, want %s", r.Value, tc.want)
			}
			if tc.want == "" && !strings.Contains(string(r.Value), "[Too deep]") {
				t.Fatalf("deep value not bounded: %.80s", r.Value)
			}
		})
	}
	// Binary does not cross the bridge.
	mustFail(t, exec(t, rt, `return new ArrayBuffer(8)`), "", "binary data (ArrayBuffer)")
	// A throwing getter fails the run with the guest's error, in the guest.
	mustFail(t, exec(t, rt, `return {get bad() { throw new Error("getter says no"); }}`), "", "Error: getter says no")
}

func TestGuestErrorsReachTheModelAsNameMessageAndGuestStack(t *testing.T) {
	rt := newRuntime(t, nil)
	r := exec(t, rt, "function parse(s) {\n  throw new TypeError(`cannot parse ${s}`);\n}\nparse('x');")
	mustFail(t, r, "", "TypeError: cannot parse x")
	if !strings.Contains(r.Error, "at parse (cell.js:2") {
		t.Fatalf("no guest stack: %q", r.Error)
	}
	for _, leak := range []string{".go", "/work", "wazero", "goroutine", "kit.js", "prelude.js"} {
		if strings.Contains(r.Error, leak) {
			t.Fatalf("error leaks host detail %q: %q", leak, r.Error)
		}
	}
	// Thrown non-errors are described too.
	mustFail(t, exec(t, rt, `throw "plain string"`), "", "plain string")
	mustFail(t, exec(t, rt, `throw {code: 42}`), "", `{"code":42}`)
}

func TestHostErrorsArePlainGuestErrors(t *testing.T) {
	rt := newRuntime(t, nil)
	got := value(t, exec(t, rt, `try { await tools.callValue("openclaw:core:echo", {}); return "no"; }
	  catch (e) { return [e instanceof Error, Object.getPrototypeOf(e) === Error.prototype, e.name, e.message.includes("missing property 'message'")]; }`))
	if jsonText(got) != `[true,true,"Error",true]` {
		t.Fatalf("got %s", jsonText(got))
	}
}

func TestUnawaitedRejectedToolCallIsNotASuccess(t *testing.T) {
	rt := newRuntime(t, nil)
	r := exec(t, rt, `tools.callValue("openclaw:core:echo", {}); return "looks fine";`)
	mustFail(t, r, "", "unhandled promise rejection")
	// Awaited later, the same rejection is handled and fine.
	v := value(t, exec(t, rt, `const p = tools.callValue("openclaw:core:echo", {}); await tools.callValue("openclaw:core:sleep_ms", {ms: 20}); try { await p; } catch (e) { return "caught"; }`))
	if v != "caught" {
		t.Fatalf("got %v", v)
	}
}

func TestOuterExecHookSeesCodeModeExecAndMayDenyOrRewrite(t *testing.T) {
	var seen []catalog.HookEvent
	cfg := config.Default()
	cfg.Enabled = true
	rt, err := core.New(context.Background(), core.Options{Config: cfg, Hooks: catalog.Hooks{Before: []catalog.BeforeToolCall{
		func(_ context.Context, ev catalog.HookEvent) (catalog.BeforeDecision, error) {
			seen = append(seen, ev)
			switch {
			case strings.Contains(string(ev.Input), "forbidden"):
				return catalog.BeforeDecision{Deny: true, Reason: "no forbidden cells"}, nil
			case strings.Contains(string(ev.Input), "rewrite me"):
				return catalog.BeforeDecision{Input: []byte(`{"code":"return 'rewritten'"}`)}, nil
			}
			return catalog.BeforeDecision{}, nil
		}}}})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close(context.Background())
	call := core.CallInfo{Scope: testScope, CallID: "toolu_1"}
	r := rt.Exec(context.Background(), call, core.ExecInput{Code: "return 1", Language: "typescript"})
	if value(t, r) != 1.0 || len(seen) != 1 || seen[0].ToolKind != "code_mode_exec" || seen[0].ToolInputKind != "typescript" || seen[0].CallID != "toolu_1" {
		t.Fatalf("event %+v", seen)
	}
	mustFail(t, rt.Exec(context.Background(), call, core.ExecInput{Code: "// forbidden\nreturn 1"}), core.CodeInvalidInput, "no forbidden cells")
	if value(t, rt.Exec(context.Background(), call, core.ExecInput{Code: "return 'rewrite me'"})) != "rewritten" {
		t.Fatal("rewrite not applied")
	}
}
