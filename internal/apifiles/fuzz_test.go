package apifiles

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/codemode-go/codemode/internal/jsident"
)

// FuzzRender feeds arbitrary server names, tool names, descriptions and schemas to
// the renderer: it must never panic, every file must stay within MaxFileBytes, no
// metadata may escape a comment or string literal, and every safe name must be a
// JS identifier that SafeNames and the files agree on.
func FuzzRender(f *testing.F) {
	f.Add("github", "create-issue", "Create */ an issue", string(githubSchema), "then")
	f.Add("index", "$api", "/* */ */", `{"type":"object","properties":{"*/":{"enum":["*/","/*"]}}}`, "__proto__")
	f.Add("", "", "", "", "")
	f.Add("a\u2028b", "9", "\x00\r\n", `{"type":["string",{"x":1}],"anyOf":[true,false]}`, "resources")
	f.Add("x", "y", "z", `{"properties":{"a":{"properties":{"b":{"items":{"const":{"o":1}}}}}}}`, "y")
	f.Fuzz(func(t *testing.T, server, tool, desc, schema, tool2 string) {
		decls := []ServerDecl{
			{Name: server, Tools: []ToolDecl{{Name: tool, Description: desc, InputSchema: json.RawMessage(schema)}, {Name: tool2, Description: desc}}},
			{Name: tool2, Tools: []ToolDecl{{Name: server, InputSchema: json.RawMessage(schema)}}},
			{Name: "index"},
		}
		files := Render(decls)
		list, err := files.List("mcp")
		if err != nil {
			t.Fatal(err)
		}
		for _, info := range list {
			text, err := files.Read(info.Path)
			if err != nil {
				t.Fatalf("listed %q unreadable: %v", info.Path, err)
			}
			if len(text) > MaxFileBytes {
				t.Fatalf("%s is %d bytes", info.Path, len(text))
			}
			if err := checkStructure(text); err != nil {
				t.Fatalf("%s: %v", info.Path, err)
			}
		}
		for safeServer, names := range SafeNames(decls) {
			if !jsident.IsIdentifier(safeServer) || strings.Contains(safeServer, "$") || reserved(safeServer) {
				t.Fatalf("unsafe server spelling %q", safeServer)
			}
			h, err := files.APIHeader(safeServer, "", false)
			if err != nil {
				t.Fatalf("$api(%q): %v", safeServer, err)
			}
			for safeTool, orig := range names.Tools {
				if !jsident.IsIdentifier(safeTool) || reserved(safeTool) || toolReserved[safeTool] {
					t.Fatalf("unsafe tool spelling %q", safeTool)
				}
				th, err := files.APIHeader(safeServer, safeTool, true)
				if err != nil || th.Tool != orig {
					t.Fatalf("$api(%q, %q) = %+v, %v", safeServer, safeTool, th, err)
				}
				if !strings.Contains(h.Declaration, "function "+safeTool+"(") && !strings.Contains(h.Declaration, "not shown") {
					t.Fatalf("%s lacks %s", safeServer, safeTool)
				}
			}
		}
	})
}
