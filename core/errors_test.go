package core_test

import (
	"context"
	"strings"
	"testing"

	"github.com/codemode-go/codemode/core"
	"github.com/codemode-go/codemode/core/mcp"
	"github.com/codemode-go/codemode/internal/catalog"
	"github.com/codemode-go/codemode/internal/config"
)

// Issue 24, "errors a model can act on": the text a model reads when its cell
// is wrong, for every kind of object a cell reaches names on (tools, MCP,
// MCP.<server>, a plugin namespace, API, namespaces), for syntax and runtime
// positions in JavaScript and TypeScript, and for strings with lone
// surrogates. The suite runs natively and under GOOS=js (./build.sh
// test-hostjs-go); the MCP server is an in-process one (mcp.NewRemote), so no
// process is spawned.

// errorsRuntime is the example toolset (with the Issues namespace) and an MCP
// server "everything" with getEnv and print-env.
func errorsRuntime(t *testing.T) *core.Runtime {
	t.Helper()
	var tools []catalog.Tool
	for _, name := range []string{"getEnv", "print-env"} {
		tools = append(tools, coreTool(name, nil, func(s *catalog.Spec) { s.Source, s.Owner = catalog.SourceMCP, "everything" }))
	}
	srv, err := mcp.NewRemote("everything", tools, nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	return newRuntimeWith(t, nil, func(o *core.Options) { o.MCPServers = []*mcp.Server{srv} })
}

// hostWords are what no error a cell reads may name: the runtime's hidden
// functions, its bridge protocol, host paths and Go internals.
var hostWords = []string{"__openclaw", "bridge", "malformed message", "prelude.js", "goroutine", ".go:", "strictjson", "quickjs."}

func TestErrorsModelsCanActOn(t *testing.T) {
	rt := errorsRuntime(t)
	for _, tc := range []struct {
		name, lang, code string
		want             []string // in the failed run's error, or in the completed value
		absent           []string
	}{
		// Unknown names, one row per kind of object.
		{"tools: a typo", "", `await tools.shiping_list({})`,
			[]string{"TypeError: tools.shiping_list is not a tool in this run.", "Did you mean tools.shipping_list?", `tools.search("shiping list")`, "cell.js:1:7"}, []string{"not a function"}},
		{"tools: an MCP tool's name", "", `return tools.get_env`,
			[]string{"Did you mean MCP.everything.getEnv?"}, nil},
		{"MCP: a server typo", "", `return MCP.evrything.getEnv({})`,
			[]string{"TypeError: MCP.evrything is not an MCP server in this run.", "Did you mean MCP.everything?", `API.list("mcp")`}, nil},
		{"MCP.<server>: snake_case for camelCase", "", `await MCP.everything.get_env({})`,
			[]string{"TypeError: MCP.everything.get_env is not a tool of the MCP server MCP.everything.", "Did you mean MCP.everything.getEnv?", "MCP.everything.$api()"}, nil},
		{"MCP.<server>: the tool's own spelling", "", `return MCP.everything["print-env"]`,
			[]string{`MCP.everything["print-env"] is not a tool`, "Did you mean MCP.everything.printEnv?"}, nil},
		{"plugin namespace: a typo", "", `return await Issues.lsit({})`,
			[]string{"TypeError: Issues.lsit is not a member of Issues.", "Did you mean Issues.list?", "Object.keys(Issues)"}, nil},
		{"API: a typo", "", `return await API.lst()`,
			[]string{"TypeError: API.lst is not a member of API.", "Did you mean API.list?"}, nil},
		{"namespaces: a typo", "", `return namespaces.Isues`,
			[]string{"TypeError: namespaces.Isues is not a plugin namespace in this run.", "Did you mean namespaces.Issues?"}, nil},
		{"MCP.<server>.resources: a typo", "", `return await MCP.everything.resources.raed({uri: "x"})`,
			[]string{"TypeError: MCP.everything.resources.raed is not a member of MCP.everything.resources.", "Did you mean MCP.everything.resources.read?"}, nil},
		{"after a suspension, the same words", "", `await yield_control("r"); return tools.shiping_list`,
			[]string{"Did you mean tools.shipping_list?"}, nil},
		{"the TypeError is catchable", "", `try { tools.shiping_list; return "no" } catch (e) { return [e instanceof TypeError, e.message.includes("tools.shipping_list")] }`,
			[]string{`[true,true]`}, nil},
		{"TypeScript reads the same words", "typescript", `const r: unknown = await (tools as any).shiping_list({}); return r`,
			[]string{"Did you mean tools.shipping_list?", "cell.ts:1:"}, nil},

		// A tool's input error names the field, the expected type and the signature.
		{"a tool input of the wrong type", "", `await tools.sleep_ms({ms: "x"})`,
			[]string{"at /ms: got string, want integer (signature: openclaw:core:sleep_ms { ms: number } -> { slept: number })"}, nil},
		{"a missing field through a namespace", "", `await Issues.update(1)`,
			[]string{"at /patch: got null, want object", "(signature: openclaw:github:github_update_issue { number: number; patch: {"}, nil},

		// Positions name the model's line and column, never the wrapper's.
		{"syntax: a cell that ends early", "", `return (1 +`,
			[]string{"SyntaxError: unexpected end of the cell", "cell.js:1:12"}, []string{"'}'", "cell.js:2:"}},
		{"syntax: line 2", "", "let x = 1;\nlet y = ;",
			[]string{"SyntaxError: unexpected token in expression: ';'", "cell.js:2:9"}, nil},
		{"syntax: a stray closing brace", "", "return 1;\n}",
			[]string{"SyntaxError: the cell closes a bracket it never opened", "cell.js:2:2"}, nil},
		{"runtime: line 1, column 1", "", `null.x`, []string{"cell.js:1:1"}, nil},
		{"runtime: line 1, further right", "", `let a = 1; throw new Error("x")`, []string{"Error: x", "cell.js:1:22"}, nil},
		{"runtime: a nested frame", "", "function f() { null.x }\nf()", []string{"at f (cell.js:1:16)", "(cell.js:2:1)"}, nil},
		{"TypeScript syntax: the TS source's line", "typescript", "const a: number = 1;\nconst x: number = (1 +",
			[]string{"typescript:2:23: unexpected end of the cell"}, []string{`"}"`}},
		{"TypeScript runtime: the TS source's line", "typescript", "const n: number = 1;\n\nnull.x", []string{"cell.ts:3:1"}, []string{"cell.js"}},

		// Lone surrogates cross as U+FFFD instead of failing the run.
		{"a lone surrogate in text and the result", "", `text("a\ud800b"); return "x\udc00"`, []string{"\"x\ufffd\""}, nil},
		{"a lone surrogate in json and a tool input", "", `json({s: "\ud800"}); return (await tools.echo({message: "m\udfff"})).message`, []string{"\"m\ufffd\""}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := rt.Exec(context.Background(), core.CallInfo{Scope: testScope, CallID: "exec_1"}, core.ExecInput{Code: tc.code, Language: tc.lang})
			for i := 0; r.Status == core.StatusWaiting && i < 3; i++ {
				r = wait(t, rt, r.RunID)
			}
			got := r.Error
			if r.Status == core.StatusCompleted {
				got = jsonText(value(t, r))
			}
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("%s %q\nlacks %q", r.Status, got, w)
				}
			}
			for _, w := range append(tc.absent, hostWords...) {
				if strings.Contains(got, w) {
					t.Errorf("%s %q\ncarries %q", r.Status, got, w)
				}
			}
		})
	}
}

// The guard changes nothing a cell enumerates, and the probes JavaScript makes
// on any object answer what they answered before.
func TestUnknownNameGuardKeepsProbesAndEnumeration(t *testing.T) {
	rt := errorsRuntime(t)
	v := obj(t, exec(t, rt, `
const o = [tools, MCP, MCP.everything, Issues, API, namespaces];
return {
  awaited: (await Promise.all(o.map(async (x) => (await x) === x))).every(Boolean),
  then: o.map((x) => typeof x.then),
  toJSON: o.map((x) => typeof x.toJSON),
  sym: o.map((x) => [x[Symbol.iterator], x[Symbol.toPrimitive], x[Symbol.toStringTag], x[Symbol.for("nodejs.util.inspect.custom")]].every((y) => y === undefined)),
  ctor: o.map((x) => x.constructor === Object),
  str: o.map((x) => String(x)),
  tag: Object.prototype.toString.call(tools),
  inspect: typeof tools.inspect, proto: Object.getPrototypeOf(tools) === Object.prototype, dunder: typeof tools.__hidden,
  frozen: o.map((x) => Object.isFrozen(x)),
  json: JSON.stringify(API),
  keys: { tools: Object.keys(tools).sort(), mcp: Object.keys(MCP), server: Object.keys(MCP.everything).sort(), issues: Object.keys(Issues).sort(), ns: Object.keys(namespaces) },
  spread: Object.keys({ ...MCP.everything }).length,
  has: ["shipping_list" in tools, "shiping_list" in tools, "getEnv" in MCP.everything, "get_env" in MCP.everything],
  all: ALL_TOOLS.length,
  returned: MCP,
};`))
	want := map[string]string{
		"awaited": `true`,
		"then":    `["undefined","undefined","undefined","undefined","undefined","undefined"]`,
		"toJSON":  `["undefined","undefined","undefined","undefined","undefined","undefined"]`,
		"sym":     `[true,true,true,true,true,true]`,
		"ctor":    `[true,true,true,true,true,true]`,
		"str":     `["[object Object]","[object Object]","[object Object]","[object Object]","[object Object]","[object Object]"]`,
		"tag":     `"[object Object]"`, "inspect": `"undefined"`, "proto": `true`, "dunder": `"undefined"`,
		"frozen":   `[true,true,true,true,true,true]`,
		"json":     `"{}"`,
		"keys":     `{"issues":["list","repository","update"],"mcp":["everything"],"ns":["Issues"],"server":["$api","getEnv","printEnv","prompts","resources"],"tools":["call","callValue","describe","echo","github_list_issues","github_update_issue","search","shipping_list","sleep_ms"]}`,
		"spread":   `5`,
		"has":      `[true,false,true,false]`,
		"returned": `{"everything":{"$api":"[Function]","getEnv":"[Function getEnv]","printEnv":"[Function printEnv]","prompts":{"get":"[Function get]"},"resources":{"read":"[Function read]"}}}`,
	}
	for k, w := range want {
		if got := jsonText(v[k]); got != w {
			t.Errorf("%s = %s, want %s", k, got, w)
		}
	}
	if v["all"].(float64) != 5 { // echo, sleep_ms, shipping_list and the two Issues tools

		t.Errorf("ALL_TOOLS has %v entries", v["all"])
	}
}

// A TypeScript-only config runs a cell that names no language as TypeScript
// (the CLI's exec follows the same default: internal/cli).
func TestTypeScriptOnlyConfigDefaultsToTypeScript(t *testing.T) {
	rt := newRuntime(t, func(c *config.Config) { c.Languages = []string{config.LanguageTypeScript} })
	if got := value(t, exec(t, rt, `const n: number = 5; return n`)); got != 5.0 {
		t.Fatalf("got %v", got)
	}
}
