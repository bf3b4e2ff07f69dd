package openapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v4"

	"github.com/codemode-go/codemode/internal/schemacheck"
)

// decodeTree reads a JSON or YAML document into plain JSON values
// (map[string]any, []any, string, float64 or json.Number, bool, nil): the
// tree $refs are checked and resolved against.
func decodeTree(data []byte) (any, error) {
	trimmed := bytes.TrimLeft(data, " \t\r\n\ufeff")
	if len(trimmed) > 0 && (trimmed[0] == '{' || trimmed[0] == '[') {
		dec := json.NewDecoder(bytes.NewReader(trimmed))
		dec.UseNumber()
		var v any
		if err := dec.Decode(&v); err == nil {
			return v, nil
		} else if se, ok := err.(*json.SyntaxError); ok {
			line := 1 + bytes.Count(trimmed[:min(int(se.Offset), len(trimmed))], []byte("\n"))
			return nil, fmt.Errorf("is not valid JSON (line %d): %v", line, se)
		}
	}
	var v any
	if err := yaml.Unmarshal(data, &v); err != nil {
		return nil, fmt.Errorf("is not valid YAML or JSON: %s", clip(err.Error(), 300))
	}
	return normalize(v, 0)
}

// normalize turns YAML's values into JSON's: map keys become strings (a
// response code 200 is "200"), integers numbers.
func normalize(v any, depth int) (any, error) {
	if depth > maxDepth {
		return nil, fmt.Errorf("nests deeper than %d levels", maxDepth)
	}
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			n, err := normalize(e, depth+1)
			if err != nil {
				return nil, err
			}
			x[k] = n
		}
		return x, nil
	case map[any]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			n, err := normalize(e, depth+1)
			if err != nil {
				return nil, err
			}
			m[fmt.Sprint(k)] = n
		}
		return m, nil
	case []any:
		for i, e := range x {
			n, err := normalize(e, depth+1)
			if err != nil {
				return nil, err
			}
			x[i] = n
		}
		return x, nil
	case int:
		return json.Number(strconv.Itoa(x)), nil
	case int64:
		return json.Number(strconv.FormatInt(x, 10)), nil
	case uint64:
		return json.Number(strconv.FormatUint(x, 10)), nil
	case float64:
		if math.IsInf(x, 0) || math.IsNaN(x) {
			return nil, fmt.Errorf("holds a number JSON cannot express (%v)", x)
		}
		return x, nil
	default:
		return x, nil
	}
}

// maxDepth bounds nesting everywhere a document is walked.
const maxDepth = 128

// checkRefs walks the document and refuses a $ref that leaves it or points
// at nothing, naming the pointer where the $ref is written.
func checkRefs(doc any) *Error {
	var walk func(v any, at string, depth int) *Error
	walk = func(v any, at string, depth int) *Error {
		if depth > maxDepth {
			return &Error{Pointer: at, Msg: fmt.Sprintf("nests deeper than %d levels", maxDepth)}
		}
		switch x := v.(type) {
		case map[string]any:
			if ref, ok := x["$ref"].(string); ok {
				if !strings.HasPrefix(ref, "#") {
					return &Error{Pointer: at + "/$ref", Msg: fmt.Sprintf("%q leaves this document; external references are not followed: copy the referenced part into components", clip(ref, 200))}
				}
				if _, ok := resolve(doc, ref); !ok {
					return &Error{Pointer: at + "/$ref", Msg: fmt.Sprintf("%q points at nothing in this document", clip(ref, 200))}
				}
			}
			for _, k := range sortedKeys(x) {
				if valueKeys[k] {
					continue // instance values, not document structure
				}
				if err := walk(x[k], at+"/"+escapePointer(k), depth+1); err != nil {
					return err
				}
			}
		case []any:
			for i, e := range x {
				if err := walk(e, at+"/"+strconv.Itoa(i), depth+1); err != nil {
					return err
				}
			}
		}
		return nil
	}
	return walk(doc, "", 0)
}

// valueKeys hold example and schema values, where a "$ref" key is data.
var valueKeys = map[string]bool{"example": true, "default": true, "const": true, "enum": true}

// resolve follows a local reference ("#/components/schemas/Pet") in root.
func resolve(root any, ref string) (any, bool) { return schemacheck.ResolveLocal(root, ref) }

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
