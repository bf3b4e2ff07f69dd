package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCommand(t *testing.T) {
	dir := t.TempDir()
	cellTS := filepath.Join(dir, "cell.ts")
	os.WriteFile(cellTS, []byte(`const n: number = (await tools.shipping_list({})).length; return n;`), 0o644)
	cfg := filepath.Join(dir, "cm.json5")
	os.WriteFile(cfg, []byte(`{tools: {codeMode: {enabled: true, timeoutMs: 200}}} // JSON5`), 0o644)
	disabled := filepath.Join(dir, "off.json")
	os.WriteFile(disabled, []byte(`{"tools": {"codeMode": false}}`), 0o644)
	badCfg := filepath.Join(dir, "bad.json5")
	os.WriteFile(badCfg, []byte(`{tools: {codeMode: {enabled: true, timeoutMs: 5}}}`), 0o644)
	pets, _ := filepath.Abs("../../examples/openapi/petstore.yaml")
	withAPI := filepath.Join(dir, "api.json5")
	os.WriteFile(withAPI, []byte(`{exampleTools: false, openapi: {pets: {spec: "`+pets+`", baseUrl: "http://127.0.0.1:9", trusted: true}}}`), 0o644)
	badAPI := filepath.Join(dir, "badapi.json5")
	os.WriteFile(filepath.Join(dir, "bad.yaml"), []byte("openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths: {/a: {get: {responses: {'200': {$ref: '#/x'}}}}}\n"), 0o644)
	os.WriteFile(badAPI, []byte(`{openapi: {bad: {spec: "bad.yaml", baseUrl: "http://127.0.0.1:9"}}}`), 0o644)
	tests := []struct {
		name     string
		args     []string
		stdin    string
		exit     int
		statuses []string // first and last line's status; "*" stands for any lines between
		contains string
	}{
		{"completed", []string{"exec", "-e", "return 1 + 1"}, "", 0, []string{"completed"}, `"value":2`},
		{"failed is still exit 0", []string{"exec", "-e", "throw new Error('boom')"}, "", 0, []string{"failed"}, "Error: boom"},
		{"typescript file", []string{"exec", "-f", cellTS, "--language", "typescript"}, "", 0, []string{"completed"}, `"value":6`},
		{"stdin", []string{"exec", "-f", "-"}, "return 'in'", 0, []string{"completed"}, `"value":"in"`},
		{"wait follows", []string{"exec", "--config", cfg, "--wait", "-e", `text("a"); const s = await tools.sleep_ms({ms: 300}); return s.slept`}, "", 0, []string{"waiting", "*", "completed"}, `"value":300`},
		{"namespace", []string{"exec", "-e", `return (await Issues.list({state: "open"})).length > 0`}, "", 0, []string{"completed"}, `"value":true`},
		{"surface", []string{"surface"}, "", 0, nil, `"name": "exec"`},
		{"surface shows namespaces", []string{"surface", "--format", "anthropic"}, "", 0, nil, "Issues.list(params)"},
		{"surface openai", []string{"surface", "--format", "openai"}, "", 0, nil, `"type": "function"`},
		{"surface disabled leaves tools", []string{"surface", "--config", disabled}, "", 0, nil, `"name": "shipping_list"`},
		{"surface bad format", []string{"surface", "--format", "xml"}, "", 2, nil, "unknown --format"},
		{"surface openai-responses", []string{"surface", "--format", "openai-responses"}, "", 0, nil, `"strict": false`},
		{"openapi tools in the quick index", []string{"surface", "--config", withAPI}, "", 0, nil, `openclaw:pets:getPet { petId: number } -\u003e { id: number; name: string; tag?: string | null }`},
		{"openapi tool called", []string{"exec", "--config", withAPI, "-e", `try { await tools.getPet({petId: 1}) } catch (e) { return String(e) }`}, "", 0, []string{"completed"}, "could not connect to the API"},
		{"bad openapi document", []string{"surface", "--config", badAPI}, "", 2, nil, `openapi.bad: ` + filepath.Join(dir, "bad.yaml") + `: /paths/~1a/get/responses/200/$ref: "#/x" points at nothing`},
		{"no subcommand", nil, "", 2, nil, "usage"},
		{"both sources", []string{"exec", "-e", "1", "-f", cellTS}, "", 2, nil, "exactly one"},
		{"bad flag", []string{"exec", "--nope"}, "", 2, nil, "usage"},
		{"bad config", []string{"exec", "--config", badCfg, "-e", "1"}, "", 2, nil, "timeoutMs must be between 100 and 60000"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			code := run(tc.args, strings.NewReader(tc.stdin), &out, &errb)
			if code != tc.exit {
				t.Fatalf("exit %d, want %d; stderr %s", code, tc.exit, errb.String())
			}
			if !strings.Contains(out.String()+errb.String(), tc.contains) {
				t.Fatalf("output lacks %q:\n%s%s", tc.contains, out.String(), errb.String())
			}
			if tc.statuses == nil {
				return
			}
			lines := strings.Split(strings.TrimSpace(out.String()), "\n")
			if len(lines) < len(tc.statuses)-1 {
				t.Fatalf("lines: %v", lines)
			}
			var first, last struct{ Status string }
			json.Unmarshal([]byte(lines[0]), &first)
			json.Unmarshal([]byte(lines[len(lines)-1]), &last)
			if first.Status != tc.statuses[0] || last.Status != tc.statuses[len(tc.statuses)-1] {
				t.Fatalf("statuses %s..%s, want %v", first.Status, last.Status, tc.statuses)
			}
		})
	}
}
