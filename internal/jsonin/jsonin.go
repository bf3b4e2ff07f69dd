// Package jsonin decodes the JSON that a host hands to a Go entry point (the
// wasip1 ABI's requests, the GOOS=js exports' options and inputs). Both sit
// under a host that may pass anything, and both answer in the host's terms:
// one strict decoder, so the two word every refusal alike.
package jsonin

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

// Decode reads one JSON value into v, refusing invalid UTF-8, unknown fields,
// trailing data and wrong types. what names the value in the messages
// (request, options): they speak of fields and JSON kinds, never of Go types
// or encoding/json's own wording.
func Decode(b []byte, v any, what string) error {
	if !utf8.Valid(b) {
		return errors.New(what + " is not valid UTF-8")
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return describe(err, what)
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New(what + " has data after the JSON value")
	}
	return nil
}

func describe(err error, what string) error {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return errors.New(what + " is not complete JSON")
	case errors.As(err, &se):
		return fmt.Errorf("%s is malformed JSON at byte %d", what, se.Offset)
	case errors.As(err, &te):
		field := te.Field
		if field == "" {
			return fmt.Errorf("%s must be a JSON object, not %s", what, te.Value)
		}
		return fmt.Errorf("%s field %q must be %s, not %s", what, field, jsonKind(te.Type), te.Value)
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		return fmt.Errorf("%s has an unknown field %s", what, strings.TrimPrefix(err.Error(), "json: unknown field "))
	}
	return errors.New(what + " could not be decoded")
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
