// Package schemacheck is the one JSON Schema validator of every host: a tool's
// parameters and outputSchema, and the schemas an OpenAPI source derives.
//
// Whether an instance is valid is decided by github.com/google/jsonschema-go
// (draft 2020-12 and draft-07; it is linked anyway for catalog.TypedFunc and,
// unlike santhosh-tekuri/jsonschema, compiles no meta-schemas at package init,
// which cost the page ~100 ms of its start). Its errors are sentences that
// quote the instance value and carry no instance location, so they never reach
// a caller: when it refuses an instance, explain walks the schema beside the
// instance and names each problem by its JSON pointer, keyword and the
// schema's expectation, never by the instance's value (a secret in a tool's
// input must not reach the model).
package schemacheck

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// Schema is a compiled, self-contained JSON Schema. It is safe for concurrent use.
type Schema struct {
	resolved *jsonschema.Resolved
	doc      any    // the schema as decoded JSON, for explain
	accepts  shapes // the instances' JSON types it accepts whatever they hold (acceptedShapes)
}

// Compile parses and resolves a schema. Every $ref must point inside the schema:
// compiling never reads a file or the network. A schema that names draft-04,
// draft-06 or 2019-09 in $schema is read as 2020-12 (their common keywords mean
// the same; draft-04's boolean exclusiveMinimum is refused as a wrong type).
func Compile(raw []byte) (*Schema, error) {
	var doc any
	if err := decode(raw, &doc); err != nil {
		return nil, errors.New("it is not valid JSON")
	}
	if err := checkKeywords(doc, "", 0); err != nil {
		return nil, err
	}
	if err := inPlaceLoop(doc); err != nil {
		return nil, err
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(stripDraft(raw, doc), &s); err != nil {
		return nil, unmarshalError(err)
	}
	r, err := s.Resolve(&jsonschema.ResolveOptions{})
	if err != nil {
		return nil, resolveError(err)
	}
	return &Schema{resolved: r, doc: doc, accepts: acceptedShapes(doc)}, nil
}

// Problem is one way an instance fails its schema.
type Problem struct {
	At      string // JSON pointer into the instance ("" is the whole instance)
	Keyword string // the schema keyword that failed, e.g. "type", "required"
	Message string // what the schema expects, in words; never the instance's value
}

// Pointer is At as written in messages: "/" for the whole instance.
func (p Problem) Pointer() string {
	if p.At == "" {
		return "/"
	}
	return p.At
}

// ErrNotJSON is returned by Validate for an instance that does not parse.
var ErrNotJSON = errors.New("not valid JSON")

// Validate checks a JSON instance. It returns nil when the instance is valid,
// otherwise at least one Problem (the innermost ones first found, in schema
// order), or ErrNotJSON.
func (s *Schema) Validate(instance []byte) ([]Problem, error) {
	if s.accepts != 0 && s.accepts&shapeOf(instance) != 0 {
		return nil, nil // what the validator would answer, without decoding the instance
	}
	return s.validate(instance)
}

// validate is Validate without the shortcut: decode, validate, explain.
func (s *Schema) validate(instance []byte) ([]Problem, error) {
	var v any
	if err := decode(instance, &v); err != nil {
		return nil, ErrNotJSON
	}
	if s.resolved.Validate(v) == nil {
		return nil, nil
	}
	probs := newExplainer(s.doc).walk(s.doc, v, "", 0)
	if len(probs) == 0 {
		// The library refused something explain does not model (unevaluated*,
		// $dynamicRef, an $id-based $ref): say so without its words.
		probs = []Problem{{Keyword: "", Message: "does not match the schema"}}
	}
	return probs, nil
}

// decode parses exactly one JSON value. Text that is one valid JSON value
// (every instance a tool call checks: the catalog has validated it) takes
// one json.Unmarshal, which checks the text before it stores anything; the
// rest takes the stream decoder, whose reading of what follows a value
// (another value is refused, anything else is not) stays as it was. The
// stream decoder's buffer and its look for a trailing token were half of a
// small input's check.
func decode(raw []byte, v any) error {
	if json.Unmarshal(raw, v) == nil {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if err := dec.Decode(v); err != nil {
		return err
	}
	if _, err := dec.Token(); err == nil {
		return errors.New("trailing data")
	}
	return nil
}

// stripDraft drops a $schema the library does not validate (it refuses every
// instance then), so such a schema is read as 2020-12.
func stripDraft(raw []byte, doc any) []byte {
	m, ok := doc.(map[string]any)
	if !ok {
		return raw
	}
	d, ok := m["$schema"].(string)
	if !ok {
		return raw
	}
	d = strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(d, "https://"), "http://"), "#")
	if d == "json-schema.org/draft-07/schema" || d == "json-schema.org/draft/2020-12/schema" {
		return raw
	}
	c := make(map[string]any, len(m))
	for k, v := range m {
		if k != "$schema" {
			c[k] = v
		}
	}
	b, err := json.Marshal(c)
	if err != nil {
		return raw
	}
	return b
}

// unmarshalError names the keyword whose value has the wrong JSON type, without
// the library's Go struct and type names.
func unmarshalError(err error) error {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) && te.Field != "" {
		kw := te.Field[strings.LastIndexByte(te.Field, '.')+1:]
		return fmt.Errorf("keyword %q has a %s value, which it does not take", kw, te.Value)
	}
	return errors.New("a keyword has a value of the wrong JSON type")
}

// resolveError words the library's resolution errors without its API names.
func resolveError(err error) error {
	msg := err.Error()
	switch {
	case strings.Contains(msg, "cannot resolve remote"), strings.Contains(msg, "loading "):
		return errors.New("a $ref points outside the schema; only references inside the schema itself are followed")
	case strings.Contains(msg, "error parsing regexp"):
		return errors.New("a pattern is not a regular expression this validator reads (RE2 syntax)")
	}
	if i := strings.LastIndex(msg, "<anonymous schema>: "); i >= 0 {
		msg = msg[i+len("<anonymous schema>: "):]
	}
	return errors.New(strings.TrimPrefix(msg, "jsonschema: "))
}
