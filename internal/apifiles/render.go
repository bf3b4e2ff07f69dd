package apifiles

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/codemode-go/codemode/internal/catalog"
	"github.com/codemode-go/codemode/internal/tsschema"
)

// MaxFileBytes bounds every rendered file.
const MaxFileBytes = 256 << 10

const indexPath = "mcp/index.d.ts"

// ToolDecl is one MCP tool as the declarations need it.
type ToolDecl struct {
	Name        string
	Description string
	InputSchema json.RawMessage
}

// ServerDecl is one visible MCP server and its tools.
type ServerDecl struct {
	Name  string
	Tools []ToolDecl
}

// DeclsFromSpecs groups the MCP entries of a run catalog (Source mcp) by Owner, so
// the runtime can feed Render and SafeNames straight from the catalog it built.
func DeclsFromSpecs(specs []catalog.Spec) []ServerDecl {
	idx := map[string]int{}
	var out []ServerDecl
	for _, s := range specs {
		if s.Source != catalog.SourceMCP {
			continue
		}
		i, ok := idx[s.Owner]
		if !ok {
			i = len(out)
			idx[s.Owner] = i
			out = append(out, ServerDecl{Name: s.Owner})
		}
		out[i].Tools = append(out[i].Tools, ToolDecl{Name: s.Name, Description: s.Description, InputSchema: s.Parameters})
	}
	return out
}

type toolEntry struct {
	ToolDecl
	safe string
}

type serverEntry struct {
	Name  string
	safe  string
	path  string
	tools []toolEntry // sorted by safe name
}

// normalize merges duplicate servers and tools (first wins), assigns safe
// spellings and file paths, and sorts everything so output is deterministic.
func normalize(servers []ServerDecl) []*serverEntry {
	byName := map[string]*serverEntry{}
	seenTool := map[string]map[string]bool{}
	var names []string
	for _, s := range servers {
		e, ok := byName[s.Name]
		if !ok {
			e = &serverEntry{Name: s.Name}
			byName[s.Name] = e
			seenTool[s.Name] = map[string]bool{}
			names = append(names, s.Name)
		}
		for _, t := range s.Tools {
			if !seenTool[s.Name][t.Name] {
				seenTool[s.Name][t.Name] = true
				e.tools = append(e.tools, toolEntry{ToolDecl: t})
			}
		}
	}
	safeServers := assign(names, nil)
	out := make([]*serverEntry, 0, len(byName))
	for _, e := range byName {
		e.safe = safeServers[e.Name]
		toolNames := make([]string, len(e.tools))
		for i, t := range e.tools {
			toolNames[i] = t.Name
		}
		safeTools := assign(toolNames, toolReserved)
		for i := range e.tools {
			e.tools[i].safe = safeTools[e.tools[i].Name]
		}
		sort.Slice(e.tools, func(i, j int) bool { return e.tools[i].safe < e.tools[j].safe })
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].safe < out[j].safe })
	taken := map[string]bool{indexPath: true}
	for _, e := range out {
		file := e.safe
		for taken["mcp/"+file+".d.ts"] {
			file += "_"
		}
		e.path = "mcp/" + file + ".d.ts"
		taken[e.path] = true
	}
	return out
}

// Files is the rendered, immutable file table of one run.
type Files struct {
	files   map[string]string
	infos   []FileInfo // sorted by path
	servers map[string]*renderedServer
}

type renderedServer struct {
	entry *serverEntry
	decls map[string]string // safe tool -> declaration
}

// FileInfo is what API.list returns for one file.
type FileInfo struct {
	Path      string `json:"path"`
	Size      int    `json:"size"`
	Server    string `json:"server,omitempty"`    // original server name
	Namespace string `json:"namespace,omitempty"` // e.g. MCP.chromeDevtools
	Tools     int    `json:"tools,omitempty"`
}

// Render builds the declaration files for the given servers.
func Render(servers []ServerDecl) *Files { return RenderWith(servers, nil) }

// RenderWith is Render with a memo of schema renderings (a Runtime's).
func RenderWith(servers []ServerDecl, memo *tsschema.Memo) *Files {
	entries := normalize(servers)
	f := &Files{files: map[string]string{}, servers: map[string]*renderedServer{}}
	for _, e := range entries {
		rs := &renderedServer{entry: e, decls: map[string]string{}}
		for _, t := range e.tools {
			rs.decls[t.safe] = toolDecl(t, "  ", memo)
		}
		f.servers[e.safe] = rs
		text := serverFile(e, rs.decls)
		f.files[e.path] = text
		f.infos = append(f.infos, FileInfo{Path: e.path, Size: len(text), Server: e.Name, Namespace: "MCP." + e.safe, Tools: len(e.tools)})
	}
	index := indexFile(entries)
	f.files[indexPath] = index
	f.infos = append(f.infos, FileInfo{Path: indexPath, Size: len(index)})
	sort.Slice(f.infos, func(i, j int) bool { return f.infos[i].Path < f.infos[j].Path })
	return f
}

// toolDecl renders one tool's doc comment and function declaration, within
// maxToolDeclBytes: first the input type degrades to Record<string, unknown>, then
// the @param lines go.
func toolDecl(t toolEntry, indent string, memo *tsschema.Memo) string {
	schema := parseSchema(t.InputSchema)
	doc := docLines(t.Description, maxToolDocBytes, maxToolDocLines)
	if t.safe != t.Name {
		doc = append(doc, "MCP tool name: "+cleanText(t.Name, 256, false))
	}
	if schema == nil && len(t.InputSchema) > 0 {
		doc = append(doc, "The input schema could not be read; see $api("+jsString(t.safe)+", { schema: true }).")
	}
	params := paramDocs(schema)

	// The one schema renderer (tsschema) writes the type, as for tools/index.d.ts.
	input := "Record<string, unknown>"
	if schema != nil {
		input = memo.Render(t.InputSchema, tsschema.Decl).Text
	}
	if len(input) > maxToolDeclBytes/2 {
		input = "Record<string, unknown>"
		doc = append(doc, "The input type is too large to show; see $api("+jsString(t.safe)+", { schema: true }).")
	}
	render := func(params []string) string {
		var b strings.Builder
		writeDoc(&b, indent, append(append([]string(nil), doc...), params...))
		fmt.Fprintf(&b, "%sfunction %s(input: %s): Promise<McpToolResult>;\n", indent, t.safe, input)
		return b.String()
	}
	out := render(params)
	for len(out) > maxToolDeclBytes && len(params) > 0 {
		params = params[:len(params)/2]
		out = render(params)
	}
	return out
}

func writeDoc(b *strings.Builder, indent string, lines []string) {
	if len(lines) == 0 {
		return
	}
	if len(lines) == 1 {
		fmt.Fprintf(b, "%s/** %s */\n", indent, lines[0])
		return
	}
	b.WriteString(indent + "/**\n")
	for _, l := range lines {
		if l == "" {
			b.WriteString(indent + " *\n")
		} else {
			b.WriteString(indent + " * " + l + "\n")
		}
	}
	b.WriteString(indent + " */\n")
}

const apiDecl = `  /** Return this API header in TypeScript style: the whole server, or one tool's declaration (with { schema: true } also its JSON input schema). */
  function $api(toolName?: string, options?: { schema?: boolean }): Promise<McpApiHeader>;
`

const resourcePromptDecls = `  namespace resources {
    /** Read one resource of this server by URI. */
    function read(input: { uri: string }): Promise<McpResourceResult>;
  }

  namespace prompts {
    /** Get one prompt of this server by name, with string arguments. */
    function get(input: { name: string; arguments?: Record<string, string> }): Promise<McpPromptResult>;
  }
`

func serverFile(e *serverEntry, decls map[string]string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "/** MCP server %s: call as MCP.%s.<tool>({ ...input }). Shared types: mcp/index.d.ts. */\n", cleanText(jsString(e.Name), 512, false), e.safe)
	fmt.Fprintf(&b, "declare namespace MCP.%s {\n", e.safe)
	b.WriteString(apiDecl)
	closing := "\n" + resourcePromptDecls + "}\n"
	var omitted []string
	for _, t := range e.tools {
		d := decls[t.safe]
		if len(omitted) > 0 || b.Len()+1+len(d)+len(closing) > MaxFileBytes-(16<<10) {
			omitted = append(omitted, t.safe)
			continue
		}
		b.WriteString("\n" + d)
	}
	if len(omitted) > 0 {
		note := fmt.Sprintf("\n  /** %d more tools are not shown (file size bound); read one with $api(toolName):", len(omitted))
		b.WriteString(note)
		room := 15 << 10
		for i, n := range omitted {
			if room -= len(n) + 1; room < 0 {
				fmt.Fprintf(&b, " and %d more", len(omitted)-i)
				break
			}
			b.WriteString(" " + n)
		}
		b.WriteString(" */\n")
	}
	b.WriteString(closing)
	return b.String()
}

const sharedTypes = `type McpToolResult = {
  content?: unknown[];
  structuredContent?: unknown;
  isError?: boolean;
  [key: string]: unknown;
};

/** What MCP.<server>.$api(toolName?, { schema? }) returns. */
type McpApiHeader = {
  /** Original MCP server name. */
  server: string;
  /** Namespace to call, e.g. "MCP.github". */
  namespace: string;
  /** Original MCP tool name, when a tool was asked for. */
  tool?: string;
  /** TypeScript-style declaration of the server or of the one tool. */
  declaration: string;
  /** The tool's JSON input schema, with { schema: true }. */
  schema?: unknown;
};

type McpResourceResult = {
  contents: Array<{ uri: string; mimeType?: string; text?: string; blob?: string; [key: string]: unknown }>;
};

type McpPromptResult = {
  description?: string;
  messages: Array<{ role: string; content: unknown }>;
};
`

func indexFile(entries []*serverEntry) string {
	var b strings.Builder
	b.WriteString("/**\n * MCP servers visible in this run. Read one with API.read(path) and call tools as\n * MCP.<server>.<tool>({ ...input }).\n *\n")
	room := MaxFileBytes - len(sharedTypes) - 4096
	for i, e := range entries {
		line := fmt.Sprintf(" * - %s: MCP.%s, %s (%d tools)\n", cleanText(jsString(e.Name), 512, false), e.safe, e.path, len(e.tools))
		if room -= len(line); room < 0 {
			fmt.Fprintf(&b, " * - and %d more servers; see API.list(\"mcp\")\n", len(entries)-i)
			break
		}
		b.WriteString(line)
	}
	if len(entries) == 0 {
		b.WriteString(" * (none)\n")
	}
	b.WriteString(" */\n\n")
	b.WriteString(sharedTypes)
	return b.String()
}
