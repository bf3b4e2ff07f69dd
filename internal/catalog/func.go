package catalog

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"

	json "github.com/codemode-go/codemode/internal/jsonx"
	"github.com/google/jsonschema-go/jsonschema"
)

// Func makes a Tool of a spec and a function, so a tool needs no named type.
// fn receives the call's JSON input; what it returns becomes Result.Details
// (what tools.callValue hands the guest), marshalled as JSON. A returned Result
// is used as it is, for tools that also want content blocks or IsError.
//
// The spec is the tool's static description as for any Tool; Source defaults to
// SourceOpenClaw and, for OriginCore tools, Owner to "core".
func Func(spec Spec, fn func(ctx context.Context, input json.RawMessage) (any, error)) Tool {
	return funcTool{spec: spec, fn: fn}
}

// TypedFunc makes a Tool of a function over Go types. The call's input is
// decoded into In; a field of the wrong JSON type or one In does not have is
// refused with the field named. The output is marshalled as Result.Details.
//
// When spec.Parameters or spec.OutputSchema is empty, TypedFunc derives it from
// In or Out (github.com/google/jsonschema-go: json tags name the properties,
// fields without omitempty are required, a `jsonschema:"..."` tag is the
// property's description). It returns an error only when a type has no JSON
// Schema (channels, functions, maps with non-string keys, cycles).
func TypedFunc[In, Out any](spec Spec, fn func(ctx context.Context, in In) (Out, error)) (Tool, error) {
	if len(spec.Parameters) == 0 {
		s, err := schemaOf[In]()
		if err != nil {
			return nil, fmt.Errorf("catalog: tool %q: input type: %w", spec.Name, err)
		}
		spec.Parameters = s
	}
	if len(spec.OutputSchema) == 0 {
		s, err := schemaOf[Out]()
		if err != nil {
			return nil, fmt.Errorf("catalog: tool %q: output type: %w", spec.Name, err)
		}
		spec.OutputSchema = s
	}
	name := spec.Name
	return funcTool{spec: spec, fn: func(ctx context.Context, input json.RawMessage) (any, error) {
		var in In
		if err := decodeInput(input, &in); err != nil {
			return nil, fmt.Errorf("tool %s: %w", name, err)
		}
		return fn(ctx, in)
	}}, nil
}

// MustTypedFunc is TypedFunc for tools defined at package level, where a type
// without a JSON Schema is a programming error: it panics instead of returning it.
func MustTypedFunc[In, Out any](spec Spec, fn func(ctx context.Context, in In) (Out, error)) Tool {
	t, err := TypedFunc(spec, fn)
	if err != nil {
		panic(err)
	}
	return t
}

type funcTool struct {
	spec Spec
	fn   func(ctx context.Context, input json.RawMessage) (any, error)
}

func (f funcTool) Spec() Spec { return f.spec }

func (f funcTool) Execute(ctx context.Context, call Call) (Result, error) {
	v, err := f.fn(ctx, call.Input)
	if err != nil {
		return Result{}, err
	}
	switch r := v.(type) {
	case Result:
		return r, nil
	case *Result:
		if r != nil {
			return *r, nil
		}
	}
	b, err := json.Marshal(v)
	if err != nil {
		return Result{}, fmt.Errorf("tool %s returned a value that is not JSON-serializable", f.spec.Name)
	}
	return Result{Details: b}, nil
}

// schemaOf renders the JSON Schema of T. An interface type (any) has no schema
// worth stating, so it yields none rather than `{}`.
func schemaOf[T any]() (json.RawMessage, error) {
	if t := reflect.TypeFor[T](); t.Kind() == reflect.Interface {
		return nil, nil
	}
	s, err := jsonschema.For[T](nil)
	if err != nil {
		return nil, err
	}
	return json.Marshal(s)
}

// decodeInput decodes a tool input strictly and words the failure for the
// model: JSON field names and JSON types, never Go types.
func decodeInput(input json.RawMessage, dst any) error {
	if len(strings.TrimSpace(string(input))) == 0 {
		input = json.RawMessage(`{}`)
	}
	dec := json.NewDecoder(strings.NewReader(string(input)))
	dec.DisallowUnknownFields()
	err := dec.Decode(dst)
	if err == nil {
		return nil
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		where := "the input"
		if te.Field != "" {
			where = "field " + te.Field
		}
		got, _, _ := strings.Cut(te.Value, " ") // "number 1.5": the kind, never the value
		return fmt.Errorf("%s must be %s, not %s", where, jsonKind(te.Type), got)
	}
	if msg := err.Error(); strings.Contains(msg, "unknown field") {
		if i := strings.Index(msg, `"`); i >= 0 {
			return fmt.Errorf("unknown field %s", msg[i:])
		}
	}
	return errors.New("the input is not a JSON object of the expected shape")
}

// jsonKind names the JSON type a Go type decodes from.
func jsonKind(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Bool:
		return "a boolean"
	case reflect.String:
		return "a string"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Map, reflect.Struct:
		return "an object"
	}
	return "another JSON type"
}
