package catalog

import (
	"github.com/codemode-go/codemode/internal/tsschema"
	"sort"
	"strconv"
	"strings"
)

// DeclarationFile renders tools/index.d.ts for the run's catalog: the helper
// signatures, a typed callValue overload per non-MCP id and a typed function per
// safe name. Input types are rendered from the schemas with the generous
// declaration bounds; output types only from trusted (openclaw) outputSchemas that
// render completely, `unknown` otherwise (MCP and client claims are never trusted).
// Descriptions become doc comments with `*/` escaped, so untrusted text cannot
// leave the comment.
func (c *Catalog) DeclarationFile() string {
	var b strings.Builder
	b.WriteString("// tools/index.d.ts: generated for this run's tool catalog.\n\n")
	b.WriteString(`type ToolCatalogEntry = {
  id: string;
  name: string;
  label?: string;
  description: string;
  source: "openclaw" | "mcp" | "client";
  sourceName?: string;
  input: string;
  output?: string;
};

type ToolCatalogEntryWithSchema = ToolCatalogEntry & {
  parameters: unknown;
  outputSchema?: unknown;
};

declare const ALL_TOOLS: ToolCatalogEntry[];

declare namespace tools {
  function search(query: string, options?: { limit?: number }): Promise<ToolCatalogEntry[]>;
  function describe(id: string): Promise<ToolCatalogEntryWithSchema>;
  function call(id: string, input?: unknown): Promise<unknown>;
`)
	bySafe := make(map[string]string, len(c.safe))
	for s, id := range c.safe {
		bySafe[id] = s
	}
	var fns []string
	for _, e := range c.guest {
		it := c.byID[e.ID]
		in, out := it.declTypes(c.memo)
		doc := docComment(e, "  ")
		b.WriteString(doc)
		b.WriteString("  function callValue(id: " + strconv.Quote(e.ID) + ", input: " + in + "): Promise<" + out + ">;\n")
		if s, ok := bySafe[e.ID]; ok {
			fns = append(fns, doc+"  function "+s+"(input: "+in+"): Promise<"+out+">;\n")
		}
	}
	b.WriteString("  function callValue(id: string, input?: unknown): Promise<unknown>;\n")
	sort.Strings(fns) // doc comments differ first only when names do; order is stable
	for _, f := range fns {
		b.WriteString(f)
	}
	b.WriteString("}\n")
	return b.String()
}

func (it *item) declTypes(memo *RenderCache) (in, out string) {
	in, out = "unknown", "unknown"
	if !it.spec.trusted() {
		return in, out
	}
	in = memo.Render(it.spec.Parameters, tsschema.Decl).Text
	if len(it.spec.OutputSchema) > 0 {
		if r := memo.Render(it.spec.OutputSchema, tsschema.Decl); r.Complete {
			out = r.Text
		}
	}
	return in, out
}

// docComment renders a JSDoc block for an entry; nothing in it can close the
// comment early.
func docComment(e Entry, indent string) string {
	var lines []string
	if e.Label != "" {
		lines = append(lines, e.Label)
	}
	if d := strings.TrimSpace(e.Description); d != "" {
		lines = append(lines, strings.Split(d, "\n")...)
	}
	lines = append(lines, "@id "+e.ID)
	var b strings.Builder
	b.WriteString(indent + "/**\n")
	for _, l := range lines {
		b.WriteString(indent + " * " + commentSafe(l) + "\n")
	}
	b.WriteString(indent + " */\n")
	return b.String()
}

// commentSafe neutralises text for a block comment: "*/" cannot close it and
// control characters (including CR and the JS line separators) cannot start a line.
func commentSafe(s string) string {
	s = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || r == '\u2028' || r == '\u2029' {
			return ' '
		}
		return r
	}, s)
	return strings.ReplaceAll(s, "*/", "*\\/")
}
