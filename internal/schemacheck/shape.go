package schemacheck

import (
	"bytes"
	"encoding/json"
	"strconv"
)

// shapes is a set of JSON types, one bit each ("integer" is not one: it
// needs the number's value).
type shapes uint8

const (
	shapeNull shapes = 1 << iota
	shapeBoolean
	shapeObject
	shapeArray
	shapeNumber
	shapeString
	shapeAll = shapeNull | shapeBoolean | shapeObject | shapeArray | shapeNumber | shapeString
)

// shapeOfType is the shape of a type name; 0 for "integer" (no shortcut)
// and for anything that is not a type name.
func shapeOfType(t string) shapes {
	switch t {
	case "null":
		return shapeNull
	case "boolean":
		return shapeBoolean
	case "object":
		return shapeObject
	case "array":
		return shapeArray
	case "number":
		return shapeNumber
	case "string":
		return shapeString
	}
	return 0
}

// ByShape reports whether the schema accepts every instance of some JSON
// types whatever it holds (acceptedShapes): Validate then decides a valid
// instance by its first byte, without the validator.
func (s *Schema) ByShape() bool { return s.accepts != 0 }

// AllByShape reports whether every schema given is empty (no check) or
// compiles to one that is ByShape: calls of tools with these parameters
// never run the validator on a valid input.
func AllByShape(schemas ...[]byte) bool {
	for _, raw := range schemas {
		if len(bytes.TrimSpace(raw)) == 0 {
			continue
		}
		if s, err := Compile(raw); err != nil || !s.ByShape() {
			return false
		}
	}
	return true
}

// annotation reports a keyword that never refuses an instance (draft-07 and
// 2020-12 alike). Anything not listed here, format included, keeps a schema
// off the shortcut.
func annotation(kw string) bool {
	switch kw {
	case "$schema", "$comment", "title", "description", "examples", "default", "deprecated", "readOnly", "writeOnly":
		return true
	}
	return false
}

// acceptedShapes is the set of top-level JSON types of which the schema
// accepts every instance, whatever it holds: `true`, `{}`, `{"type":
// "object"}`, `{"type": "object", "properties": {}}` (what most page and MCP
// tools without parameters declare), annotations beside them. It is 0 for
// every schema that looks inside an instance or knows "integer": those are
// decided by the validator alone. A tool call's check is then a scan of the
// input instead of a decode of it and a walk of the validator, the largest
// function a call runs (RESULTS.md, calls-4).
func acceptedShapes(doc any) shapes {
	if b, ok := doc.(bool); ok {
		if b {
			return shapeAll
		}
		return 0
	}
	m, ok := doc.(map[string]any)
	if !ok {
		return 0
	}
	accepted := shapeAll
	for kw, v := range m {
		switch {
		case annotation(kw):
		case kw == "type":
			accepted = typeShapes(v)
		case kw == "properties":
			// Properties whose schemas accept anything constrain nothing.
			props, ok := v.(map[string]any)
			if !ok {
				return 0
			}
			for _, p := range props {
				if acceptedShapes(p) != shapeAll {
					return 0
				}
			}
		case kw == "additionalProperties":
			if b, ok := v.(bool); !ok || !b {
				return 0
			}
		default:
			return 0
		}
		if accepted == 0 {
			return 0
		}
	}
	return accepted
}

// typeShapes is the type keyword's set; 0 (no shortcut) for "integer" or a
// value that is not a type name or a list of them.
func typeShapes(v any) shapes {
	switch t := v.(type) {
	case string:
		return shapeOfType(t)
	case []any:
		var s shapes
		for _, e := range t {
			n, _ := e.(string)
			b := shapeOfType(n)
			if b == 0 {
				return 0
			}
			s |= b
		}
		return s
	}
	return 0
}

// shapeOf is the JSON type of instance when it is exactly what decode reads
// without error through its first path (one valid JSON value whose every
// number is a float64), else 0: the instance then takes the validator's path,
// which says what is wrong with it.
func shapeOf(instance []byte) shapes {
	if !json.Valid(instance) || !numbersFit(instance) {
		return 0
	}
	for _, c := range instance {
		switch c {
		case ' ', '\t', '\n', '\r':
			continue
		case '{':
			return shapeObject
		case '[':
			return shapeArray
		case '"':
			return shapeString
		case 't', 'f':
			return shapeBoolean
		case 'n':
			return shapeNull
		}
		return shapeNumber
	}
	return 0
}

// numbersFit reports whether every number of a valid JSON text parses as a
// float64, as decoding it into an interface value requires (1e400 does not).
func numbersFit(valid []byte) bool {
	inString := false
	for i := 0; i < len(valid); i++ {
		c := valid[i]
		switch {
		case inString:
			if c == '\\' {
				i++
			} else if c == '"' {
				inString = false
			}
		case c == '"':
			inString = true
		case c == '-' || c >= '0' && c <= '9':
			j := i + 1
			for j < len(valid) && isNumberByte(valid[j]) {
				j++
			}
			if tok := valid[i:j]; len(tok) > 300 || hasExponent(tok) {
				// Only an exponent or some 300 digits leave float64's range.
				if _, err := strconv.ParseFloat(string(tok), 64); err != nil {
					return false
				}
			}
			i = j - 1
		}
	}
	return true
}

func hasExponent(tok []byte) bool {
	for _, c := range tok {
		if c == 'e' || c == 'E' {
			return true
		}
	}
	return false
}

func isNumberByte(c byte) bool {
	return c >= '0' && c <= '9' || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-'
}
