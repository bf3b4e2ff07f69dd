package catalog

import (
	"encoding/json"

	"github.com/codemode-go/codemode/internal/jsonw"
	"github.com/codemode-go/codemode/internal/text"
	"github.com/codemode-go/codemode/internal/tsschema"
)

// Entry is the compact ToolCatalogEntry the guest sees in ALL_TOOLS and from
// tools.search, exactly the spec's JSON shape.
type Entry struct {
	// ID is the catalog id `<source>:<owner>:<name>` (with a ~N suffix for duplicates).
	ID string `json:"id"`
	// Name is the tool's own name.
	Name string `json:"name"`
	// Label is the tool's display name, if it has one.
	Label string `json:"label,omitempty"`
	// Description is the tool's description, bounded.
	Description string `json:"description"`
	// Source is where the tool comes from.
	Source Source `json:"source"`
	// SourceName is the plugin id, MCP server or client app; empty for core tools.
	SourceName string `json:"sourceName,omitempty"`
	// Input is a bounded TypeScript-like signature; "unknown" for MCP and client
	// tools, whose untrusted schemas stay deferred until describe.
	Input string `json:"input"`
	// Output is present only for a complete hint from a trusted outputSchema.
	Output string `json:"output,omitempty"`
}

// AppendJSON appends e as encoding/json writes it, without reflection (see
// the jsonw package: every run hands its entries to the guest as JSON).
func (e Entry) AppendJSON(dst []byte) []byte {
	dst = jsonw.String(append(dst, `{"id":`...), e.ID)
	dst = jsonw.String(append(dst, `,"name":`...), e.Name)
	if e.Label != "" {
		dst = jsonw.String(append(dst, `,"label":`...), e.Label)
	}
	dst = jsonw.String(append(dst, `,"description":`...), e.Description)
	dst = jsonw.String(append(dst, `,"source":`...), string(e.Source))
	if e.SourceName != "" {
		dst = jsonw.String(append(dst, `,"sourceName":`...), e.SourceName)
	}
	dst = jsonw.String(append(dst, `,"input":`...), e.Input)
	if e.Output != "" {
		dst = jsonw.String(append(dst, `,"output":`...), e.Output)
	}
	return append(dst, '}')
}

// IndexLine is the entry's line in the exec tool's quick index,
// `openclaw:core:sleep_ms { ms: number } -> { slept: number }`, with its input
// signature cut to maxInput bytes (0: not cut). A tool's input error quotes
// the same line, so the model reads one signature everywhere.
func (e Entry) IndexLine(maxInput int) string {
	in := e.Input
	if maxInput > 0 && len(in) > maxInput {
		in = text.Cut(in, maxInput) + text.Ellipsis
	}
	out := "?"
	if e.Output != "" {
		out = e.Output
	}
	return e.ID + " " + in + " -> " + out
}

// EntryWithSchema is ToolCatalogEntryWithSchema: what tools.describe returns.
type EntryWithSchema struct {
	Entry
	// Parameters is the tool's input JSON Schema.
	Parameters json.RawMessage `json:"parameters"`
	// OutputSchema is the declared output schema (trusted tools only).
	OutputSchema json.RawMessage `json:"outputSchema,omitempty"`
}

// maxDescriptionBytes bounds each entry description so ALL_TOOLS stays bounded
// whatever a tool claims about itself.
const maxDescriptionBytes = 1024

func makeEntry(id string, s Spec, memo *RenderCache) Entry {
	e := Entry{
		ID:          id,
		Name:        s.Name,
		Label:       s.Label,
		Description: boundText(s.Description, maxDescriptionBytes),
		Source:      s.Source,
		Input:       "unknown",
	}
	if s.Owner != "core" || s.Source != SourceOpenClaw {
		e.SourceName = s.Owner
	}
	if !s.trusted() {
		// MCP, client and Untrusted schemas: no input hint, never an output hint.
		return e
	}
	e.Input = memo.Render(s.Parameters, tsschema.Hint).Text
	if len(s.OutputSchema) > 0 {
		if out := memo.Render(s.OutputSchema, tsschema.Hint); out.Complete {
			e.Output = out.Text
		}
	}
	return e
}

// trusted reports whether the spec's schemas may shape hints and contracts:
// openclaw tools not marked Untrusted.
func (s Spec) trusted() bool { return s.Source == SourceOpenClaw && !s.Untrusted }

func boundText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return text.Cut(s, n) + ellipsis
}

// ellipsis marks every elision in catalog text.
const ellipsis = text.Ellipsis
