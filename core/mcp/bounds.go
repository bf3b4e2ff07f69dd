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
	MaxServerNameBytes  = 64
	MaxNameBytes        = 128
	MaxDescriptionBytes = 4 << 10
	MaxSchemaBytes      = 64 << 10
	MaxSchemaDepth      = 32
	MaxItems            = 512
	MaxPayloadBytes     = 8 << 20
	MaxURIBytes         = 8 << 10
)

// ValidateServerName checks a host-chosen server name. It becomes the catalog owner
// and part of catalog ids, so it must not contain the id separator ':'.
func ValidateServerName(name string) error {
	if name == "" || len(name) > MaxServerNameBytes {
		return fmt.Errorf("mcp: server name must be 1..%d bytes, got %d", MaxServerNameBytes, len(name))
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		alnum := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
		if i == 0 && !alnum {
			return fmt.Errorf("mcp: server name %q must start with a letter or digit", name)
		}
		if !alnum && c != '_' && c != '-' && c != '.' {
			return fmt.Errorf("mcp: server name %q may only contain letters, digits, '_', '-' and '.'", name)
		}
	}
	return nil
}

// checkName validates a remote-supplied name (tool, prompt, resource).
func checkName(name string) error {
	if name == "" {
		return fmt.Errorf("empty name")
	}
	if len(name) > MaxNameBytes {
		return fmt.Errorf("name is %d bytes, limit %d", len(name), MaxNameBytes)
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
	return text.Clip(s, MaxDescriptionBytes)
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
	if len(raw) > MaxSchemaBytes {
		return nil, fmt.Errorf("schema is %d bytes, limit %d", len(raw), MaxSchemaBytes)
	}
	if !json.Valid(raw) {
		return nil, fmt.Errorf("schema is not valid JSON")
	}
	if d := jsonDepth(raw); d > MaxSchemaDepth {
		return nil, fmt.Errorf("schema nests %d levels, limit %d", d, MaxSchemaDepth)
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
