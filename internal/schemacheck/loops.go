package schemacheck

import (
	"errors"
	"reflect"
	"strings"
)

// inPlaceLoop refuses a schema whose references lead back to the same schema
// without descending into the instance ({"anyOf":[{"$ref":"#"}]}): the
// library would recurse until the Go stack overflows, which ends the process
// and no recover can catch. Such a schema matches nothing anyway.
func inPlaceLoop(root any) error {
	ids := map[string]any{}
	collectIDs(root, ids, 0)
	state := map[uintptr]int{} // 1: on the current path, 2: done
	var visit func(s any, depth int) bool
	visit = func(s any, depth int) bool {
		m, ok := s.(map[string]any)
		if !ok || depth > maxDepth {
			return false
		}
		key := reflect.ValueOf(m).Pointer()
		switch state[key] {
		case 1:
			return true
		case 2:
			return false
		}
		state[key] = 1
		for _, next := range inPlace(m, root, ids) {
			if visit(next, depth+1) {
				return true
			}
		}
		state[key] = 2
		return false
	}
	if visit(root, 0) {
		return errors.New("its $ref chain loops back to the same schema without descending into the value (for example {\"anyOf\":[{\"$ref\":\"#\"}]}), so it can match nothing")
	}
	return nil
}

// inPlace lists the subschemas that apply to the same instance as m.
func inPlace(m map[string]any, root any, ids map[string]any) []any {
	var out []any
	for _, kw := range []string{"$ref", "$dynamicRef", "$recursiveRef"} {
		if ref, ok := m[kw].(string); ok {
			if t, ok := resolveRef(root, ids, ref); ok {
				out = append(out, t)
			}
		}
	}
	for _, kw := range []string{"allOf", "anyOf", "oneOf"} {
		if arr, ok := m[kw].([]any); ok {
			out = append(out, arr...)
		}
	}
	for _, kw := range []string{"not", "if", "then", "else"} {
		if s, ok := m[kw]; ok {
			out = append(out, s)
		}
	}
	for _, kw := range []string{"dependentSchemas", "dependencies"} {
		if d, ok := m[kw].(map[string]any); ok {
			for _, k := range sortedKeys(d) {
				out = append(out, d[k])
			}
		}
	}
	return out
}

// resolveRef finds a $ref's target: a fragment of the root, or of a subschema
// whose $id the reference names (exactly, or as its last path segments).
func resolveRef(root any, ids map[string]any, ref string) (any, bool) {
	base, frag, _ := strings.Cut(ref, "#")
	doc := root
	if base != "" {
		doc = nil
		for id, s := range ids {
			if id == base || strings.HasSuffix(id, "/"+strings.TrimPrefix(base, "/")) {
				doc = s
				break
			}
		}
		if doc == nil {
			return nil, false
		}
	}
	return (&explainer{root: doc}).resolve("#" + frag)
}

func collectIDs(s any, ids map[string]any, depth int) {
	if depth > maxDepth {
		return
	}
	switch c := s.(type) {
	case map[string]any:
		if id, ok := c["$id"].(string); ok && id != "" {
			ids[strings.TrimSuffix(id, "#")] = c
		}
		for _, v := range c {
			collectIDs(v, ids, depth+1)
		}
	case []any:
		for _, v := range c {
			collectIDs(v, ids, depth+1)
		}
	}
}
