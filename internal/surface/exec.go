package surface

import (
	"strconv"
	"strings"

	json "github.com/codemode-go/codemode/internal/jsonx"

	"github.com/codemode-go/codemode/internal/catalog"
	"github.com/codemode-go/codemode/internal/config"
)

// NamespaceInfo is what the exec description shows of a visible plugin namespace.
type NamespaceInfo struct {
	// GlobalName is the namespace's guest global.
	GlobalName string `json:"globalName"`
	// Description is the namespace description.
	Description string `json:"description"`
	// Prompt is its usage hint.
	Prompt string `json:"prompt,omitempty"`
}

// IndexLimits bound the quick index in the exec description.
type IndexLimits struct {
	MaxLines     int // index lines before the "… N more" line; default 40
	MaxBytes     int // bytes of all index lines; default 4096
	MaxLineBytes int // bytes of one input hint within a line; default 160
}

func (l IndexLimits) withDefaults() IndexLimits {
	if l.MaxLines <= 0 {
		l.MaxLines = 40
	}
	if l.MaxBytes <= 0 {
		l.MaxBytes = 4096
	}
	if l.MaxLineBytes <= 0 {
		l.MaxLineBytes = 160
	}
	return l
}

// maxNamespaceText bounds each namespace description and prompt.
const maxNamespaceText = 600

const execIntro = `Run a JavaScript program in an isolated QuickJS sandbox to find, call and combine this run's hidden tools. exec runs JavaScript, not a shell command: there is no shell, file system, network, environment, import or require. Put the program in "code"; its return value (JSON-compatible) becomes the result.

Guest API:
- ALL_TOOLS: compact entries {id, name, label?, description, source, sourceName?, input, output?} for every catalogued tool except MCP tools.
- await tools.search(query, {limit}) ranks entries; await tools.describe(id) returns one entry with its full parameters and outputSchema.
- await tools.callValue(id, input) returns the tool's structured value; await tools.call(id, input) returns the raw {tool, result} envelope. tools.<name>(input) exists only for unique safe tool names.
- await API.read("tools/index.d.ts") returns TypeScript declarations of the catalogued tools (typed inputs and declared outputs).
- MCP tools are called only as await MCP.<server>.<tool>({...}); read their TypeScript declarations with await API.list("mcp") and await API.read("mcp/<server>.d.ts"), or MCP.<server>.$api() inline.
- The program is the body of an async function: use top-level await and return.
- Plugin namespaces (listed below, if any) are globals and also namespaces.<Name>.
- text(value), json(value) and console.log(...) append to the output; await yield_control(reason) pauses the program; setTimeout works (a timer still pending at the deadline suspends the run like a slow tool).
If exec returns status "waiting", call wait with its runId to resume.

Output hints: "-> T" is the declared shape of the tools.callValue(...) value. "-> ?" means the output is unknown: return the raw value of await tools.callValue(...) unchanged first, inspect it, and filter or transform it in a later exec instead of guessing field names. This also applies when a declared read feeds a final "-> ?" call: return that call's raw value without wrapping it in the answer shape you want.`

// ExecTool builds the model-visible exec definition. The quick index lists exact
// OpenClaw/plugin ids with compact input and output hints only: no descriptions
// (hostile catalog text must not steer the model), no MCP or client entries.
// The work is linear in len(entries) and the text is bounded by limits.
func ExecTool(entries []catalog.Entry, languages []string, namespaces []NamespaceInfo, limits IndexLimits) ToolDef {
	var b strings.Builder
	b.WriteString(execIntro)
	if len(languages) == 1 {
		b.WriteString("\nLanguage: " + languages[0] + " only (the default).")
	} else {
		b.WriteString("\nLanguage: javascript (default) or typescript (types are stripped, not checked).")
	}
	b.WriteString("\n\n")
	b.WriteString(QuickIndex(entries, limits))
	if ns := namespaceText(namespaces); ns != "" {
		b.WriteString("\n\n" + ns)
	}
	return ToolDef{Name: ExecToolName, Description: b.String(), InputSchema: execSchema(languages)}
}

// QuickIndex renders the bounded index of exact OpenClaw/plugin ids:
//
//	openclaw:core:message { text: string; to: string } -> ?
//
// and, when entries are left out, a final "… N more: use tools.search(query)".
func QuickIndex(entries []catalog.Entry, limits IndexLimits) string {
	limits = limits.withDefaults()
	var b strings.Builder
	b.WriteString("Tools (exact ids; input -> callValue output):\n")
	shown, total, used, full := 0, 0, 0, false
	for _, e := range entries {
		if e.Source != catalog.SourceOpenClaw {
			continue
		}
		total++
		if full {
			continue // index is full: only count what is left out
		}
		line := indexLine(e, limits.MaxLineBytes)
		if shown >= limits.MaxLines || used+len(line) > limits.MaxBytes {
			full = true
			continue
		}
		b.WriteString(line)
		used += len(line)
		shown++
	}
	if total == 0 {
		b.WriteString("(none; use ALL_TOOLS or tools.search(query))\n")
	}
	if more := total - shown; more > 0 {
		b.WriteString("… " + strconv.Itoa(more) + " more: use tools.search(query)\n")
	}
	return strings.TrimSuffix(b.String(), "\n")
}

func indexLine(e catalog.Entry, maxInput int) string { return e.IndexLine(maxInput) + "\n" }

func namespaceText(ns []NamespaceInfo) string {
	var b strings.Builder
	for _, n := range ns {
		if !isIdent(n.GlobalName) {
			continue
		}
		if b.Len() == 0 {
			b.WriteString("Namespaces:")
		}
		b.WriteString("\n- " + n.GlobalName + ": " + cutText(n.Description, maxNamespaceText))
		if n.Prompt != "" {
			b.WriteString("\n  " + cutText(n.Prompt, maxNamespaceText))
		}
	}
	return b.String()
}

func cutText(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > n {
		return cut(s, n) + "…"
	}
	return s
}

// cut shortens s to at most n bytes on a rune boundary.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n]
}

func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, c := range s {
		if !(c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// schemaProp and objectSchema marshal to fixed key order, so definitions are
// byte-for-byte deterministic.
type schemaProp struct {
	Type        string   `json:"type"`
	Enum        []string `json:"enum,omitempty"`
	Default     any      `json:"default,omitempty"`
	Description string   `json:"description,omitempty"`
}

// execProps is what the model sees of CodeModeExecInput. command is not in it:
// the spec keeps that alias for hook policies and trusted rewrites.
type execProps struct {
	Code        schemaProp `json:"code"`
	Language    schemaProp `json:"language"`
	RestartSafe schemaProp `json:"restartSafe"`
}

type objectSchema[P any] struct {
	Type                 string   `json:"type"`
	Properties           P        `json:"properties"`
	Required             []string `json:"required"`
	AdditionalProperties bool     `json:"additionalProperties"`
}

// execSchema is {code, language?, restartSafe?}. language is a flat string enum
// of the enabled languages, never a oneOf/anyOf: some providers reject unions.
// Its default is the runtime's (config.DefaultLanguage), so the two agree.
func execSchema(languages []string) json.RawMessage {
	def := config.Config{Languages: languages}.DefaultLanguage()
	p := execProps{
		Code:     schemaProp{Type: "string", Description: "JavaScript or TypeScript program to run. Use return to produce the result."},
		Language: schemaProp{Type: "string", Enum: languages, Default: def, Description: "Source language; defaults to " + def + "."},
		RestartSafe: schemaProp{Type: "boolean", Default: false, Description: "Declare read-only work: calls not known to be free of side effects and plugin namespaces are refused, " +
			"pending calls are never auto-pumped (call wait), and the run is marked safe to repeat after a restart."},
	}
	b, _ := json.Marshal(objectSchema[execProps]{Type: "object", Properties: p, Required: []string{"code"}})
	return b
}

type waitProps struct {
	RunID schemaProp `json:"runId"`
}

// WaitTool is the model-visible wait definition: {runId: string}.
func WaitTool() ToolDef {
	b, _ := json.Marshal(objectSchema[waitProps]{Type: "object",
		Properties: waitProps{RunID: schemaProp{Type: "string", Description: "The runId of a waiting exec or wait result."}},
		Required:   []string{"runId"}})
	return ToolDef{Name: WaitToolName, Description: "Resume a suspended Code Mode run. Call it only when exec or wait returned status \"waiting\"; it returns the same result shape as exec.", InputSchema: b}
}
