package mcp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"unicode"
	"unicode/utf8"

	"github.com/codemode-go/codemode/internal/text"
)

// Bounds on untrusted server metadata; see the package documentation for why.
const (
	maxNameBytes        = 128
	maxDescriptionBytes = 4 << 10
	maxSchemaBytes      = 64 << 10
	maxSchemaDepth      = 32
	maxItems            = 512
	maxPayloadBytes     = 8 << 20
	maxURIBytes         = 8 << 10
)

// checkName validates a remote-supplied name (tool, prompt, resource).
func checkName(name string) error {
	if name == "" {
		return fmt.Errorf("empty name")
	}
	if len(name) > maxNameBytes {
		return fmt.Errorf("name is %d bytes, limit %d", len(name), maxNameBytes)
	}
	if !utf8.ValidString(name) {
		return fmt.Errorf("name is not valid UTF-8")
	}
	for _, r := range name {
		if unicode.IsControl(r) || unicode.IsSpace(r) {
			return fmt.Errorf("name %q contains whitespace or control characters", name)
		}
	}
	return nil
}

// clip bounds a description; a long description is still useful when cut, so it is
// shortened rather than dropped.
func clip(s string) string {
	if !utf8.ValidString(s) {
		s = string(bytes.ToValidUTF8([]byte(s), []byte("\uFFFD")))
	}
	return text.Clip(s, maxDescriptionBytes)
}

// checkSchema marshals a schema the SDK decoded and enforces the object, size and
// depth bounds, so later consumers (renderers, validators) can recurse safely.
func checkSchema(schema any) (json.RawMessage, error) {
	if schema == nil {
		return nil, fmt.Errorf("schema is missing")
	}
	raw, err := json.Marshal(schema)
	if err != nil {
		return nil, fmt.Errorf("schema is not JSON: %v", err)
	}
	return checkRawSchema(raw)
}

func checkRawSchema(raw json.RawMessage) (json.RawMessage, error) {
	if len(raw) > maxSchemaBytes {
		return nil, fmt.Errorf("schema is %d bytes, limit %d", len(raw), maxSchemaBytes)
	}
	if !json.Valid(raw) {
		return nil, fmt.Errorf("schema is not valid JSON")
	}
	if d := jsonDepth(raw); d > maxSchemaDepth {
		return nil, fmt.Errorf("schema nests %d levels, limit %d", d, maxSchemaDepth)
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil || obj == nil {
		return nil, fmt.Errorf("schema is not a JSON object")
	}
	return raw, nil
}

// jsonDepth returns the maximum nesting of objects and arrays in valid JSON without
// building a tree (it only tracks brackets outside strings).
func jsonDepth(raw []byte) int {
	depth, maxDepth, inString, escaped := 0, 0, false, false
	for _, c := range raw {
		switch {
		case inString && escaped:
			escaped = false
		case inString && c == '\\':
			escaped = true
		case inString && c == '"':
			inString = false
		case inString:
		case c == '"':
			inString = true
		case c == '{' || c == '[':
			depth++
			maxDepth = max(maxDepth, depth)
		case c == '}' || c == ']':
			depth--
		}
	}
	return maxDepth
}
