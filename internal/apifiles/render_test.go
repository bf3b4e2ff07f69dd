package apifiles

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/codemode-go/codemode/internal/catalog"
)

var githubSchema = json.RawMessage(`{"type":"object","properties":{
  "owner":{"type":"string","description":"Repository owner"},
  "repo":{"type":"string","description":"Repository name"},
  "title":{"type":"string","description":"Issue title"},
  "body":{"type":"string"},
  "labels":{"type":"array","items":{"type":"string","enum":["bug","docs"]}},
  "meta":{"type":"object","properties":{"x-y":{"type":["integer","null"],"description":"nested doc"}},"additionalProperties":true}
},"required":["owner","repo","title"]}`)

func sampleServers() []ServerDecl {
	return []ServerDecl{
		{Name: "github", Tools: []ToolDecl{{Name: "createIssue", Description: "Create a GitHub issue.", InputSchema: githubSchema}}},
		{Name: "chrome-devtools", Tools: []ToolDecl{{Name: "take_snapshot", InputSchema: json.RawMessage(`{"type":"object","properties":{"output":{"const":"markdown"}}}`)}}},
	}
}

func TestRenderServerFile(t *testing.T) {
	f := Render(sampleServers())
	got, err := f.Read("mcp/github.d.ts")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"declare namespace MCP.github {",
		"function $api(toolName?: string, options?: { schema?: boolean }): Promise<McpApiHeader>;",
		"   * Create a GitHub issue.\n",
		"   * @param owner Repository owner\n",
		"   * @param title Issue title\n",
		// One renderer (tsschema) for every declaration: the same type as tools/index.d.ts.
		`  function createIssue(input: { body?: string; labels?: Array<"bug" | "docs">; meta?: { "x-y"?: number | null }; owner: string; repo: string; title: string }): Promise<McpToolResult>;`,
		"function read(input: { uri: string }): Promise<McpResourceResult>;",
		"function get(input: { name: string; arguments?: Record<string, string> }): Promise<McpPromptResult>;",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("mcp/github.d.ts lacks %q:\n%s", want, got)
		}
	}
	cd, err := f.Read("mcp/chromeDevtools.d.ts")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(cd, "declare namespace MCP.chromeDevtools {") || !strings.Contains(cd, `output?: "markdown"`) {
		t.Errorf("chromeDevtools file:\n%s", cd)
	}
}

func TestRenderIndex(t *testing.T) {
	f := Render(sampleServers())
	idx, err := f.Read("mcp/index.d.ts")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"type McpToolResult = {\n  content?: unknown[];\n  structuredContent?: unknown;\n  isError?: boolean;\n  [key: string]: unknown;\n};",
		"type McpApiHeader = {",
		`"chrome-devtools": MCP.chromeDevtools, mcp/chromeDevtools.d.ts (1 tools)`,
		`"github": MCP.github, mcp/github.d.ts (1 tools)`,
	} {
		if !strings.Contains(idx, want) {
			t.Errorf("index lacks %q:\n%s", want, idx)
		}
	}
	list, err := f.List("mcp")
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, i := range list {
		paths = append(paths, i.Path)
		if i.Size != len(f.files[i.Path]) {
			t.Errorf("%s: size %d, content %d", i.Path, i.Size, len(f.files[i.Path]))
		}
	}
	if strings.Join(paths, ",") != "mcp/chromeDevtools.d.ts,mcp/github.d.ts,mcp/index.d.ts" {
		t.Errorf("List(mcp) = %v", paths)
	}
}

func TestPathsRejected(t *testing.T) {
	f := Render(sampleServers())
	for _, tc := range []struct{ path, want string }{
		{"", "empty path"},
		{"mcp/../mcp/github.d.ts", `".." segments`},
		{"./mcp/github.d.ts", `"." segments`},
		{"mcp//github.d.ts", "empty segments"},
		{"/mcp/github.d.ts", "absolute"},
		{`mcp\github.d.ts`, "backslashes"},
		{"mcp/github.d.ts/", "empty segments"},
		{"mcp/nope.d.ts", "unknown path"},
		{"mcp", "unknown path"},
		{"mcp/github.d.ts\x00", "control characters"},
		{strings.Repeat("a/", 300), "limit"},
	} {
		_, err := f.Read(tc.path)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Read(%q) err = %v, want %q", tc.path, err, tc.want)
		}
	}
	for _, p := range []string{"..", "mcp/..", "/", `\`, "mcp//"} {
		if _, err := f.List(p); err == nil {
			t.Errorf("List(%q) accepted", p)
		}
	}
	if l, err := f.List("other"); err != nil || len(l) != 0 {
		t.Errorf("List(other) = %v, %v", l, err)
	}
	if l, err := f.List(""); err != nil || len(l) != 3 {
		t.Errorf("List('') = %v, %v", l, err)
	}
}

func TestServerNamedIndexDoesNotOverwrite(t *testing.T) {
	f := Render([]ServerDecl{
		{Name: "index", Tools: []ToolDecl{{Name: "a"}}},
		{Name: "index_", Tools: []ToolDecl{{Name: "b"}}},
	})
	idx, _ := f.Read("mcp/index.d.ts")
	if !strings.Contains(idx, "type McpToolResult") {
		t.Fatalf("index.d.ts was overwritten:\n%s", idx)
	}
	a, err := f.Read("mcp/index_.d.ts")
	if err != nil || !strings.Contains(a, "declare namespace MCP.index {") {
		t.Errorf("server index: %v\n%s", err, a)
	}
	b, err := f.Read("mcp/index__.d.ts")
	if err != nil || !strings.Contains(b, "declare namespace MCP.index_ {") {
		t.Errorf("server index_: %v\n%s", err, b)
	}
}

func TestSafeName(t *testing.T) {
	for in, want := range map[string]string{
		"chrome-devtools":        "chromeDevtools",
		"get-sum":                "getSum",
		"create.issue":           "createIssue",
		"take_snapshot":          "take_snapshot",
		"9lives":                 "_9lives",
		"--":                     "_",
		"ünïcode":                "nCode",
		"delete":                 "delete_",
		"__proto__":              "__proto___",
		"constructor":            "constructor_",
		"then":                   "then_",
		"$api":                   "api",
		"a/b:c d":                "aBCD",
		strings.Repeat("x", 100): strings.Repeat("x", 64),
	} {
		if got := SafeName(in); got != want {
			t.Errorf("SafeName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSafeNamesCollisions(t *testing.T) {
	servers := []ServerDecl{{Name: "s", Tools: []ToolDecl{
		{Name: "get-sum"}, {Name: "getSum"}, {Name: "get_sum"}, {Name: "get.sum"},
		{Name: "resources"}, {Name: "prompts"}, {Name: "$api"}, {Name: "then"}, {Name: "api"},
	}}}
	got := SafeNames(servers)["s"].Tools
	want := map[string]string{
		"getSum": "getSum", "get_sum": "get_sum", "getSum_2": "get-sum", "getSum_3": "get.sum",
		"resources_": "resources", "prompts_": "prompts", "api": "api", "api_2": "$api", "then_": "then",
	}
	if len(got) != len(want) {
		t.Errorf("got %v", got)
	}
	for safe, orig := range want {
		if got[safe] != orig {
			t.Errorf("safe %q -> %q, want %q (all %v)", safe, got[safe], orig, got)
		}
	}
	// Input order must not matter.
	rev := []ServerDecl{{Name: "s"}}
	for i := len(servers[0].Tools) - 1; i >= 0; i-- {
		rev[0].Tools = append(rev[0].Tools, servers[0].Tools[i])
	}
	got2 := SafeNames(rev)["s"].Tools
	for k, v := range got {
		if got2[k] != v {
			t.Errorf("order-dependent: %q -> %q vs %q", k, v, got2[k])
		}
	}
	// Every safe tool name is declared in the file.
	f := Render(servers)
	text, _ := f.Read("mcp/s.d.ts")
	for safe := range got {
		if !strings.Contains(text, "function "+safe+"(") {
			t.Errorf("file lacks function %s", safe)
		}
	}
}

func TestAPIHeader(t *testing.T) {
	f := Render(sampleServers())
	h, err := f.APIHeader("chromeDevtools", "", false)
	if err != nil || h.Server != "chrome-devtools" || h.Namespace != "MCP.chromeDevtools" || !strings.Contains(h.Declaration, "take_snapshot") {
		t.Errorf("server header = %+v, %v", h, err)
	}
	h, err = f.APIHeader("github", "createIssue", true)
	if err != nil || h.Tool != "createIssue" || !strings.Contains(h.Declaration, "function createIssue(") || strings.Contains(h.Declaration, "$api") {
		t.Errorf("tool header = %+v, %v", h, err)
	}
	if !json.Valid(h.Schema) || !strings.Contains(string(h.Schema), "Repository owner") {
		t.Errorf("schema = %s", h.Schema)
	}
	if h, _ := f.APIHeader("github", "createIssue", false); h.Schema != nil {
		t.Errorf("schema without schema:true")
	}
	if _, err := f.APIHeader("github", "nope", false); err == nil || !strings.Contains(err.Error(), `no tool "nope"`) {
		t.Errorf("unknown tool err = %v", err)
	}
	if _, err := f.APIHeader("chrome-devtools", "", false); err == nil {
		t.Errorf("original server spelling accepted as safe name")
	}
	raw, _ := json.Marshal(h)
	if !json.Valid(raw) {
		t.Errorf("header does not marshal")
	}
}

func TestDeclsFromSpecs(t *testing.T) {
	specs := []catalog.Spec{
		{Name: "list", Source: catalog.SourceOpenClaw, Owner: "core"},
		{Name: "b", Source: catalog.SourceMCP, Owner: "y", Parameters: json.RawMessage(`{}`)},
		{Name: "a", Source: catalog.SourceMCP, Owner: "x", Description: "d"},
		{Name: "c", Source: catalog.SourceMCP, Owner: "y"},
	}
	got := DeclsFromSpecs(specs)
	if len(got) != 2 || got[0].Name != "y" || len(got[0].Tools) != 2 || got[1].Tools[0].Description != "d" {
		t.Errorf("DeclsFromSpecs = %+v", got)
	}
}

func TestHostileMetadataEscaped(t *testing.T) {
	evil := "*/ declare const pwned: 1; /*"
	f := Render([]ServerDecl{{Name: evil, Tools: []ToolDecl{{
		Name:        "x*/y",
		Description: evil + "\n@param z */ }\u2028",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"*/k":{"type":"string","description":"*/","enum":["*/","/*","\"\\"]}}}`),
	}}}})
	for _, info := range mustList(t, f) {
		text, _ := f.Read(info.Path)
		if err := checkStructure(text); err != nil {
			t.Errorf("%s: %v\n%s", info.Path, err, text)
		}
		if strings.Contains(text, "declare const pwned") && strings.Contains(text, "*/ declare const") {
			t.Errorf("%s: injection survived:\n%s", info.Path, text)
		}
	}
}

func TestLargeServerStaysBounded(t *testing.T) {
	var tools []ToolDecl
	props := map[string]any{}
	for i := range 200 {
		props[strings.Repeat("p", 10)+string(rune('a'+i%26))+strings.Repeat("q", i)] = map[string]any{"type": "string", "description": strings.Repeat("d", 500)}
	}
	schema, _ := json.Marshal(map[string]any{"type": "object", "properties": props})
	for i := range 300 {
		tools = append(tools, ToolDecl{Name: "tool" + strings.Repeat("x", i%50) + string(rune('a'+i%26)) + strings.Repeat("y", i/26), Description: strings.Repeat("long ", 2000), InputSchema: schema})
	}
	f := Render([]ServerDecl{{Name: "big", Tools: tools}})
	text, _ := f.Read("mcp/big.d.ts")
	if len(text) > MaxFileBytes {
		t.Errorf("file is %d bytes, bound %d", len(text), MaxFileBytes)
	}
	if !strings.Contains(text, "more tools are not shown") {
		t.Errorf("no omission note")
	}
	if err := checkStructure(text); err != nil {
		t.Error(err)
	}
	h, err := f.APIHeader("big", tools[299].Name, true)
	if err != nil || len(h.Declaration) > maxToolDeclBytes+4096 {
		t.Errorf("tool header: %v, %d bytes", err, len(h.Declaration))
	}
}

func mustList(t testing.TB, f *Files) []FileInfo {
	t.Helper()
	l, err := f.List("")
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// checkStructure scans rendered TypeScript: comments must open with /* and close
// with */, string literals must close on their line, and "*/" must never appear
// outside a comment; a stray one would mean metadata escaped its comment.
func checkStructure(src string) error {
	inComment, inString := false, false
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case inComment:
			if c == '*' && i+1 < len(src) && src[i+1] == '/' {
				inComment = false
				i++
			}
		case inString:
			switch c {
			case '\\':
				i++
			case '"':
				inString = false
			case '\n':
				return errAt(src, i, "string literal crosses a line")
			}
		case c == '"':
			inString = true
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			inComment = true
			i++
		case c == '*' && i+1 < len(src) && src[i+1] == '/':
			return errAt(src, i, "*/ outside a comment")
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			return errAt(src, i, "line comment in generated output")
		}
	}
	if inComment || inString {
		return errAt(src, len(src)-1, "unterminated comment or string")
	}
	return nil
}

type structureError struct{ msg string }

func (e structureError) Error() string { return e.msg }

func errAt(src string, i int, what string) error {
	lo := max(0, i-60)
	return structureError{what + " near: " + src[lo:min(len(src), i+20)]}
}
