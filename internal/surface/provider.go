package surface

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"

	json "github.com/codemode-go/codemode/internal/jsonx"
)

// Provider shapes. Quirks handled for every emitted definition (exec and wait are
// built that way; direct-only tools are normalised by providerSchema):
//   - the top level is always {"type":"object","properties":{...}}; a top-level
//     anyOf/oneOf (rejected by several providers) is flattened into one object
//     whose properties are the union of the variants' and whose required list
//     is what every variant requires;
//   - a property whose anyOf/oneOf only lists string consts becomes a flat
//     {"type":"string","enum":[...]};
//   - exec and wait are closed with additionalProperties:false.

// Formats are the provider shapes Surface.Format renders: "plain" (ToolDef),
// "anthropic" (Messages API), "openai" (Chat Completions) and
// "openai-responses" (Responses API). Every host takes its format name and
// refuses unknown ones through Format, so the list lives here only.
var Formats = []string{"plain", "anthropic", "openai", "openai-responses"}

// FormatList is Formats for messages: "plain", "anthropic", ... or "openai-responses".
func FormatList() string {
	q := make([]string, len(Formats))
	for i, f := range Formats {
		q[i] = strconv.Quote(f)
	}
	return strings.Join(q[:len(q)-1], ", ") + " or " + q[len(q)-1]
}

// ValidFormat reports whether name is one of Formats or "" (plain).
func ValidFormat(name string) bool { return name == "" || slices.Contains(Formats, name) }

// Format renders the tools in the named shape ("" is plain). An unknown name
// is an error listing the known ones.
func (s Surface) Format(name string) (any, error) {
	switch name {
	case "", "plain":
		return s.Tools, nil
	case "anthropic":
		return s.Anthropic(), nil
	case "openai":
		return s.OpenAI(), nil
	case "openai-responses":
		return s.OpenAIResponses(), nil
	}
	return nil, fmt.Errorf("format must be %s (got %s)", FormatList(), strconv.Quote(cut(name, 64)))
}

// AnthropicTool is {name, description, input_schema}.
type AnthropicTool struct {
	// Name is the tool name.
	Name string `json:"name"`
	// Description is the tool description.
	Description string `json:"description"`
	// InputSchema is the input JSON Schema.
	InputSchema json.RawMessage `json:"input_schema"`
}

// OpenAITool is {type:"function", function:{name, description, parameters}}.
type OpenAITool struct {
	// Type is always "function".
	Type string `json:"type"`
	// Function is the function definition.
	Function OpenAIFunction `json:"function"`
}

// OpenAIFunction is the function part of an OpenAITool.
type OpenAIFunction struct {
	// Name is the function name.
	Name string `json:"name"`
	// Description is the function description.
	Description string `json:"description"`
	// Parameters is the input JSON Schema.
	Parameters json.RawMessage `json:"parameters"`
}

// OpenAIResponsesTool is a function tool of OpenAI's Responses API: flat
// {type: "function", name, description, parameters, strict}, unlike Chat
// Completions' nested function. strict is false: the Responses API defaults
// it to true, which requires every property to be required and would refuse
// exec's optional language and restartSafe.
type OpenAIResponsesTool struct {
	// Type is always "function".
	Type string `json:"type"`
	// Name is the function name.
	Name string `json:"name"`
	// Description is the function description.
	Description string `json:"description"`
	// Parameters is the input JSON Schema.
	Parameters json.RawMessage `json:"parameters"`
	// Strict is always false (see above).
	Strict bool `json:"strict"`
}

// OpenAIResponses returns the surface as Responses API function tools.
func (s Surface) OpenAIResponses() []OpenAIResponsesTool {
	out := make([]OpenAIResponsesTool, len(s.Tools))
	for i, t := range s.Tools {
		out[i] = OpenAIResponsesTool{Type: "function", Name: t.Name, Description: t.Description, Parameters: providerSchema(t.InputSchema)}
	}
	return out
}

// Anthropic returns the surface as Anthropic-style tool definitions.
func (s Surface) Anthropic() []AnthropicTool {
	out := make([]AnthropicTool, len(s.Tools))
	for i, t := range s.Tools {
		out[i] = AnthropicTool{Name: t.Name, Description: t.Description, InputSchema: providerSchema(t.InputSchema)}
	}
	return out
}

// OpenAI returns the surface as OpenAI-style function tools.
func (s Surface) OpenAI() []OpenAITool {
	out := make([]OpenAITool, len(s.Tools))
	for i, t := range s.Tools {
		out[i] = OpenAITool{Type: "function", Function: OpenAIFunction{Name: t.Name, Description: t.Description,
			Parameters: providerSchema(t.InputSchema)}}
	}
	return out
}

var emptyObjectSchema = json.RawMessage(`{"type":"object","properties":{}}`)

// providerSchema normalises one input schema as described above. Schemas that
// already conform are returned byte-for-byte.
func providerSchema(raw json.RawMessage) json.RawMessage {
	if len(bytes.TrimSpace(raw)) == 0 {
		return emptyObjectSchema
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil || m == nil {
		return emptyObjectSchema
	}
	changed := false
	for _, kw := range []string{"anyOf", "oneOf"} {
		if variants, ok := m[kw].([]any); ok {
			flattenVariants(m, variants)
			delete(m, kw)
			changed = true
		}
	}
	if m["type"] != "object" {
		m["type"] = "object"
		changed = true
	}
	props, ok := m["properties"].(map[string]any)
	if !ok {
		props = map[string]any{}
		m["properties"] = props
		changed = true
	}
	for k, p := range props {
		if pm, ok := p.(map[string]any); ok {
			if flat, ok := flatEnum(pm); ok {
				props[k] = flat
				changed = true
			}
		}
	}
	if !changed {
		return raw
	}
	b, err := json.Marshal(m)
	if err != nil {
		return emptyObjectSchema
	}
	return b
}

func flattenVariants(m map[string]any, variants []any) {
	props, _ := m["properties"].(map[string]any)
	if props == nil {
		props = map[string]any{}
	}
	var required []string
	for i, v := range variants {
		vm, _ := v.(map[string]any)
		vp, _ := vm["properties"].(map[string]any)
		for k, s := range vp {
			if _, ok := props[k]; !ok {
				props[k] = s
			}
		}
		var req []string
		if r, ok := vm["required"].([]any); ok {
			for _, x := range r {
				if s, ok := x.(string); ok {
					req = append(req, s)
				}
			}
		}
		if i == 0 {
			required = req
		} else {
			required = slices.DeleteFunc(required, func(s string) bool { return !slices.Contains(req, s) })
		}
	}
	if r, ok := m["required"].([]any); ok {
		for _, x := range r {
			if s, ok := x.(string); ok && !slices.Contains(required, s) {
				required = append(required, s)
			}
		}
	}
	m["properties"] = props
	if len(required) > 0 {
		m["required"] = required
	} else {
		delete(m, "required")
	}
}

// flatEnum turns {"anyOf":[{"const":"a"},{"const":"b"}]} into a flat string enum.
func flatEnum(p map[string]any) (map[string]any, bool) {
	for _, kw := range []string{"anyOf", "oneOf"} {
		variants, ok := p[kw].([]any)
		if !ok || len(variants) == 0 {
			continue
		}
		var values []any
		for _, v := range variants {
			vm, _ := v.(map[string]any)
			s, ok := vm["const"].(string)
			if !ok {
				return nil, false
			}
			values = append(values, s)
		}
		out := map[string]any{"type": "string", "enum": values}
		if d, ok := p["description"]; ok {
			out["description"] = d
		}
		return out, true
	}
	return nil, false
}
