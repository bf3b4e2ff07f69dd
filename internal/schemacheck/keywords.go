package schemacheck

import (
	"fmt"
	"sort"
)

// maxDepth bounds how deep the schema and explain walks nest, so a hostile
// schema or instance cannot exhaust the stack.
const maxDepth = 200

// jsonType reports one of JSON Schema's type names. The package's word
// lists are switches, not map literals that package init would build at
// every start (a page's core links this package).
func jsonType(t string) bool {
	return t == "integer" || shapeOfType(t) != 0
}

// checkKeywords refuses what the library accepts but cannot mean anything: an
// unknown type name (it would refuse every instance, blaming the caller).
func checkKeywords(s any, at string, depth int) error {
	if depth > maxDepth {
		return fmt.Errorf("the schema nests deeper than %d levels", maxDepth)
	}
	m, ok := s.(map[string]any)
	if !ok {
		return nil
	}
	switch t := m["type"].(type) {
	case string:
		if !jsonType(t) {
			return fmt.Errorf("%s: type %s is not a JSON type (null, boolean, object, array, number, string, integer)", pointerOrRoot(at), quote(cut(t)))
		}
	case nil:
	case []any:
		for _, e := range t {
			if n, _ := e.(string); !jsonType(n) {
				return fmt.Errorf("%s: type lists %s, which is not a JSON type (null, boolean, object, array, number, string, integer)", pointerOrRoot(at), quote(cut(fmt.Sprint(e))))
			}
		}
	default:
		return fmt.Errorf("%s: type must be a JSON type name or an array of them", pointerOrRoot(at))
	}
	for _, kw := range sortedKeys(m) {
		v := m[kw]
		switch kw {
		case "properties", "patternProperties", "$defs", "definitions", "dependentSchemas":
			sub, _ := v.(map[string]any)
			for _, k := range sortedKeys(sub) {
				if err := checkKeywords(sub[k], at+"/"+kw+"/"+escape(k), depth+1); err != nil {
					return err
				}
			}
		case "items", "prefixItems", "allOf", "anyOf", "oneOf":
			if arr, ok := v.([]any); ok {
				for i, e := range arr {
					if err := checkKeywords(e, fmt.Sprintf("%s/%s/%d", at, kw, i), depth+1); err != nil {
						return err
					}
				}
				continue
			}
			fallthrough
		case "additionalProperties", "additionalItems", "not", "if", "then", "else", "contains",
			"propertyNames", "unevaluatedProperties", "unevaluatedItems":
			if err := checkKeywords(v, at+"/"+kw, depth+1); err != nil {
				return err
			}
		}
	}
	return nil
}

func pointerOrRoot(at string) string {
	if at == "" {
		return "at the root"
	}
	return "at " + at
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
