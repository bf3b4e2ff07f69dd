package openapi

import (
	"encoding/json"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// converter turns OpenAPI schema objects into self-contained JSON Schema
// 2020-12: every $ref becomes "#/$defs/<key>" with the target converted once
// into defs (so recursive schemas stay finite), OpenAPI 3.0's dialect is
// rewritten (nullable, boolean exclusive bounds), annotations no validator
// reads are dropped, and readOnly/writeOnly properties leave "required" on
// the side where the server ignores them.
type converter struct {
	doc    any  // the document tree $refs resolve against
	is30   bool // OpenAPI 3.0: nullable and boolean exclusive bounds
	output bool // a response schema: writeOnly leaves required; else readOnly
	defs   map[string]any
	keys   map[string]string // $ref -> defs key
}

func newConverter(doc any, is30, output bool) *converter {
	return &converter{doc: doc, is30: is30, output: output, defs: map[string]any{}, keys: map[string]string{}}
}

// convert converts one schema given as JSON (kin-openapi's marshalling of a
// SchemaRef: a $ref stays a $ref).
func (c *converter) convertJSON(raw []byte) any {
	var v any
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.UseNumber()
	if dec.Decode(&v) != nil {
		return map[string]any{}
	}
	return c.schema(v, 0)
}

// finish adds the collected $defs to a top-level schema.
func (c *converter) finish(top map[string]any) map[string]any {
	if len(c.defs) > 0 {
		top["$defs"] = c.defs
	}
	return top
}

// dropped are OpenAPI annotations that no JSON Schema validator reads.
var dropped = map[string]bool{"example": true, "discriminator": true, "xml": true, "externalDocs": true, "nullable": true}

// subschemaMaps, subschemaLists and subschemas name where schemas nest.
var (
	subschemaMaps  = []string{"properties", "patternProperties", "dependentSchemas", "$defs", "definitions"}
	subschemaLists = []string{"allOf", "anyOf", "oneOf", "prefixItems"}
	subschemas     = []string{"items", "additionalProperties", "not", "if", "then", "else", "contains", "propertyNames",
		"unevaluatedProperties", "unevaluatedItems", "additionalItems"}
)

func (c *converter) schema(v any, depth int) any {
	m, ok := v.(map[string]any)
	if !ok {
		if b, isBool := v.(bool); isBool {
			return b // a boolean schema (3.1)
		}
		return map[string]any{}
	}
	if depth > maxDepth {
		return map[string]any{}
	}
	if ref, ok := m["$ref"].(string); ok {
		out := map[string]any{"$ref": "#/$defs/" + c.def(ref, depth)}
		if c.is30 {
			return out // 3.0: siblings of $ref are ignored
		}
		for k, e := range c.schema(without(m, "$ref"), depth+1).(map[string]any) {
			out[k] = e
		}
		return out
	}
	out := make(map[string]any, len(m))
	for k, e := range m {
		if dropped[k] || strings.HasPrefix(k, "x-") {
			continue
		}
		out[k] = e
	}
	for _, k := range subschemaMaps {
		if sm, ok := m[k].(map[string]any); ok {
			conv := make(map[string]any, len(sm))
			for name, s := range sm {
				conv[name] = c.schema(s, depth+1)
			}
			out[k] = conv
		}
	}
	for _, k := range subschemaLists {
		if l, ok := m[k].([]any); ok {
			conv := make([]any, len(l))
			for i, s := range l {
				conv[i] = c.schema(s, depth+1)
			}
			out[k] = conv
		}
	}
	for _, k := range subschemas {
		if s, ok := m[k]; ok {
			if _, isBool := s.(bool); isBool {
				continue
			}
			out[k] = c.schema(s, depth+1)
		}
	}
	if c.is30 {
		exclusiveBound(out, "exclusiveMinimum", "minimum")
		exclusiveBound(out, "exclusiveMaximum", "maximum")
		if n, _ := m["nullable"].(bool); n {
			return nullable(out)
		}
	}
	c.dropIgnoredRequired(out)
	return out
}

// def converts the target of ref once and returns its $defs key.
func (c *converter) def(ref string, depth int) string {
	if k, ok := c.keys[ref]; ok {
		return k
	}
	key := defKey(ref)
	for n := 2; c.defs[key] != nil; n++ {
		key = defKey(ref) + "_" + strconv.Itoa(n)
	}
	c.keys[ref] = key
	c.defs[key] = map[string]any{} // placeholder: a recursive $ref finds the key
	target, _ := resolve(c.doc, ref)
	c.defs[key] = c.schema(target, depth+1)
	return key
}

var unsafeKey = regexp.MustCompile(`[^A-Za-z0-9_.-]+`)

// defKey names a $defs entry after the last segment of its pointer.
func defKey(ref string) string {
	seg := ref[strings.LastIndex(ref, "/")+1:]
	seg = unsafeKey.ReplaceAllString(strings.ReplaceAll(strings.ReplaceAll(seg, "~1", "/"), "~0", "~"), "_")
	if seg == "" {
		seg = "def"
	}
	return clipKey(seg)
}

func clipKey(s string) string {
	if len(s) > 64 {
		return s[:64]
	}
	return s
}

// exclusiveBound rewrites 3.0's {minimum: 5, exclusiveMinimum: true} as
// 2020-12's {exclusiveMinimum: 5}.
func exclusiveBound(m map[string]any, exclusive, bound string) {
	b, ok := m[exclusive].(bool)
	if !ok {
		return
	}
	delete(m, exclusive)
	if v, has := m[bound]; b && has {
		m[exclusive] = v
		delete(m, bound)
	}
}

// nullable rewrites 3.0's nullable: true: "null" joins the type (and the
// enum); a schema without a type becomes anyOf [schema, {type: null}].
func nullable(m map[string]any) map[string]any {
	switch t := m["type"].(type) {
	case string:
		m["type"] = []any{t, "null"}
	case []any:
		m["type"] = append(t, "null")
	default:
		return map[string]any{"anyOf": []any{m, map[string]any{"type": "null"}}}
	}
	if e, ok := m["enum"].([]any); ok {
		m["enum"] = append(e, nil)
	}
	return m
}

// dropIgnoredRequired takes readOnly properties out of a request's required
// list and writeOnly ones out of a response's: the server ignores the one and
// never sends the other.
func (c *converter) dropIgnoredRequired(m map[string]any) {
	req, ok := m["required"].([]any)
	props, _ := m["properties"].(map[string]any)
	if !ok || props == nil {
		return
	}
	flag := "readOnly"
	if c.output {
		flag = "writeOnly"
	}
	kept := make([]any, 0, len(req))
	for _, r := range req {
		name, _ := r.(string)
		if p, ok := props[name].(map[string]any); ok {
			if f, _ := p[flag].(bool); f {
				continue
			}
		}
		kept = append(kept, r)
	}
	if len(kept) == 0 {
		delete(m, "required")
	} else {
		m["required"] = kept
	}
}

func without(m map[string]any, key string) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		if k != key {
			out[k] = v
		}
	}
	return out
}

// sortedStrings sorts a required list for deterministic output.
func sortedStrings(s []string) []any {
	sort.Strings(s)
	out := make([]any, len(s))
	for i, x := range s {
		out[i] = x
	}
	return out
}
