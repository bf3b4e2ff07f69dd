package apifiles

import (
	"bytes"
	"encoding/json"
	"sort"
	"strings"
)

const (
	maxTypeDepth      = 8
	maxUnionMembers   = 24
	maxPropDocBytes   = 300
	maxToolDocBytes   = 2000
	maxToolDocLines   = 24
	maxToolDeclBytes  = 16 << 10
	maxSchemaForTypes = 256 << 10
)

// parseSchema decodes a JSON schema keeping numbers exact; nil when unusable.
func parseSchema(raw json.RawMessage) map[string]any {
	if len(raw) == 0 || len(raw) > maxSchemaForTypes {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var m map[string]any
	if dec.Decode(&m) != nil {
		return nil
	}
	return m
}

// typeWriter renders JSON Schema as a TypeScript type, bounded in depth and size.
type typeWriter struct {
	b      strings.Builder
	budget int // bytes left; when exhausted, types degrade to unknown
}

func (w *typeWriter) write(s string) { w.b.WriteString(s); w.budget -= len(s) }

func (w *typeWriter) typeOf(schema any, depth int, indent string) {
	m, ok := schema.(map[string]any)
	if !ok || depth > maxTypeDepth || w.budget <= 0 {
		if b, isBool := schema.(bool); isBool && !b {
			w.write("never")
			return
		}
		w.write("unknown")
		return
	}
	if c, has := m["const"]; has {
		w.write(literal(c))
		return
	}
	if enum, has := m["enum"].([]any); has && len(enum) > 0 && len(enum) <= maxUnionMembers {
		for i, v := range enum {
			if i > 0 {
				w.write(" | ")
			}
			w.write(literal(v))
		}
		return
	}
	for _, key := range []string{"anyOf", "oneOf"} {
		if alts, has := m[key].([]any); has && len(alts) > 0 && len(alts) <= maxUnionMembers {
			w.union(alts, depth, indent)
			return
		}
	}
	switch t := m["type"].(type) {
	case string:
		w.simple(t, m, depth, indent)
	case []any:
		if len(t) == 0 || len(t) > maxUnionMembers {
			w.write("unknown")
			return
		}
		for i, v := range t {
			if i > 0 {
				w.write(" | ")
			}
			s, _ := v.(string)
			w.simple(s, m, depth, indent)
		}
	default:
		if _, has := m["properties"]; has {
			w.object(m, depth, indent)
			return
		}
		w.write("unknown")
	}
}

func (w *typeWriter) union(alts []any, depth int, indent string) {
	for i, a := range alts {
		if i > 0 {
			w.write(" | ")
		}
		w.write("(")
		w.typeOf(a, depth+1, indent)
		w.write(")")
	}
}

func (w *typeWriter) simple(t string, m map[string]any, depth int, indent string) {
	switch t {
	case "string", "boolean", "null":
		w.write(t)
	case "number", "integer":
		w.write("number")
	case "array":
		w.write("Array<")
		if items, ok := m["items"]; ok {
			w.typeOf(items, depth+1, indent)
		} else {
			w.write("unknown")
		}
		w.write(">")
	case "object":
		w.object(m, depth, indent)
	default:
		w.write("unknown")
	}
}

func (w *typeWriter) object(m map[string]any, depth int, indent string) {
	props, _ := m["properties"].(map[string]any)
	if len(props) == 0 {
		w.write("Record<string, unknown>")
		return
	}
	required := map[string]bool{}
	if req, ok := m["required"].([]any); ok {
		for _, r := range req {
			if s, ok := r.(string); ok {
				required[s] = true
			}
		}
	}
	keys := make([]string, 0, len(props))
	for k := range props {
		keys = append(keys, k)
	}
	// Required properties first, then optional ones, each in byte order.
	sort.Slice(keys, func(i, j int) bool {
		if required[keys[i]] != required[keys[j]] {
			return required[keys[i]]
		}
		return keys[i] < keys[j]
	})
	inner := indent + "  "
	w.write("{\n")
	for _, k := range keys {
		if w.budget <= 0 {
			w.write(inner + "[key: string]: unknown;\n")
			break
		}
		if depth > 0 {
			if pm, ok := props[k].(map[string]any); ok {
				if d, ok := pm["description"].(string); ok {
					if d = strings.TrimSpace(cleanText(d, maxPropDocBytes, false)); d != "" {
						w.write(inner + "/** " + d + " */\n")
					}
				}
			}
		}
		opt := "?"
		if required[k] {
			opt = ""
		}
		w.write(inner + propKey(k) + opt + ": ")
		w.typeOf(props[k], depth+1, inner)
		w.write(";\n")
	}
	if ap, ok := m["additionalProperties"]; ok && ap != false {
		w.write(inner + "[key: string]: unknown;\n")
	}
	w.write(indent + "}")
}

// literal renders a JSON value as a TS literal type; composite values are unknown.
func literal(v any) string {
	switch x := v.(type) {
	case string:
		return jsString(x)
	case json.Number:
		return x.String()
	case bool:
		if x {
			return "true"
		}
		return "false"
	case nil:
		return "null"
	default:
		return "unknown"
	}
}

// paramDocs returns "@param name description" lines for top-level properties.
func paramDocs(schema map[string]any) []string {
	props, _ := schema["properties"].(map[string]any)
	keys := make([]string, 0, len(props))
	for k := range props {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var out []string
	for _, k := range keys {
		pm, _ := props[k].(map[string]any)
		d, _ := pm["description"].(string)
		d = strings.TrimSpace(cleanText(d, maxPropDocBytes, false))
		if d == "" {
			continue
		}
		out = append(out, "@param "+cleanText(k, 128, false)+" "+d)
	}
	return out
}
