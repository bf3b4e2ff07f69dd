package httpapi

import (
	"encoding/json"
	"strings"
	"testing"
)

// Issue 24: every host reads the same words when a cell is wrong. These rows
// run against the native server and the Worker alike (the same core renders
// them); the core's own suite checks every kind of object in depth.
func TestErrorsModelsCanActOn(t *testing.T) {
	for _, tc := range []struct {
		name, lang, code string
		want             []string // in the error of a failed run, or the JSON text of a completed value
	}{
		{"tools: a typo", "", `await tools.shiping_list({})`,
			[]string{"TypeError: tools.shiping_list is not a tool in this run. Did you mean tools.shipping_list?", `await tools.search("shiping list")`, "(cell.js:1:7)"}},
		{"MCP: an unknown server", "", `return MCP.evrything`,
			[]string{"TypeError: MCP.evrything is not an MCP server in this run.", `API.list("mcp")`}},
		{"API: a typo", "", `return API.lst`,
			[]string{"TypeError: API.lst is not a member of API. Did you mean API.list?"}},
		{"a plugin namespace: a typo (or none)", "", `if (!("Issues" in namespaces)) return "no Issues"; return Issues.lsit`,
			[]string{"Did you mean Issues.list?"}},
		{"a tool input names the field, the type and the signature", "", `await tools.sleep_ms({ms: "x"})`,
			[]string{"at /ms: got string, want integer (signature: openclaw:core:sleep_ms { ms: number } -> { slept: number })"}},
		{"the TypeError is catchable", "", `try { tools.shiping_list } catch (e) { return e.name }`, []string{`"TypeError"`}},
		{"syntax: the cell ends early", "", `return (1 +`,
			[]string{"SyntaxError: unexpected end of the cell (a bracket, string, template or expression is left open)\n    at cell.js:1:12"}},
		{"runtime: line 2", "", "const a = 1;\nnull.x", []string{"TypeError: cannot read property 'x' of null\n    at <anonymous> (cell.js:2:1)"}},
		{"TypeScript: the TS source's line", "typescript", "const a: number = 1;\n\nnull.x", []string{"(cell.ts:3:1)"}},
		{"lone surrogates become U+FFFD", "", `text("a\ud800"); json({k: "\udc00"}); return "b\ud800" + (await tools.echo({message: "\udfff"})).message`,
			[]string{"\"b\ufffd\ufffd\""}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _ := json.Marshal(tc.code)
			lang := ""
			if tc.lang != "" {
				lang = `"language":"` + tc.lang + `",`
			}
			r := post(t, "/v1/exec", `{"code":`+string(code)+`,`+lang+scope(t)+`}`)
			if r.Status != 200 {
				t.Fatalf("exec: %d %s", r.Status, r.Body)
			}
			noGo(t, r.Body)
			m := r.obj(t)
			got, _ := m["error"].(string)
			if m["status"] == "completed" {
				b, _ := json.Marshal(m["value"])
				got = string(b)
				if got == `"no Issues"` {
					t.Skip("this server has no Issues namespace")
				}
			}
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("%v %q\nlacks %q", m["status"], got, w)
				}
			}
			for _, w := range []string{"__openclaw", "bridge", "malformed message", "prelude.js"} {
				if strings.Contains(string(r.Body), w) {
					t.Errorf("answer names %q: %s", w, r.Body)
				}
			}
		})
	}
}
