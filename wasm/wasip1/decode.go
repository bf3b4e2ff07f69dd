package wasip1

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"unicode/utf8"
)

// decode reads one JSON request into v, refusing unknown fields, trailing data
// and wrong types with a message in JSON terms (never a Go type name).
func decode(b []byte, v any) error {
	if !utf8.Valid(b) {
		return errors.New("request is not valid UTF-8")
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return describeJSON(err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("request has data after the JSON value")
	}
	return nil
}

func describeJSON(err error) error {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return errors.New("request is not complete JSON")
	case errors.As(err, &se):
		return fmt.Errorf("request is malformed JSON at byte %d", se.Offset)
	case errors.As(err, &te):
		field := te.Field
		if field == "" {
			return fmt.Errorf("request must be a JSON object, not %s", te.Value)
		}
		return fmt.Errorf("request field %q must be %s, not %s", field, jsonKind(te.Type), te.Value)
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		return fmt.Errorf("request has an unknown field %s", strings.TrimPrefix(err.Error(), "json: unknown field "))
	}
	return errors.New("request could not be decoded")
}

// jsonKind names a Go type's JSON shape.
func jsonKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Pointer:
		return jsonKind(t.Elem())
	}
	return "an object"
}
