package edge

import (
	"bytes"
	stdjson "encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"

	json "github.com/goccy/go-json"
)

// maxRawDepth bounds the nesting of free-form values (a tool's input): deeper
// input is refused before anything builds it.
const maxRawDepth = 128

// rawMessageType is the one free-form field type of the request structs.
var rawMessageType = reflect.TypeOf(json.RawMessage(nil))

// decodeStrict decodes body into v (a pointer to a request struct) and refuses
// anything the struct does not describe exactly: syntax errors, trailing data,
// unknown or duplicate fields (names match case-sensitively, unlike
// encoding/json), and values of the wrong JSON type. Each refusal names the
// problem, the field path and the byte offset, in JSON terms only.
//
// The shape check walks encoding/json's tokenizer because it reports exact
// syntax errors with offsets (goccy/go-json's Token accepts an unterminated
// object); the checked body is then decoded with goccy/go-json.
func decodeStrict(body []byte, v any) *apiError {
	if !utf8.Valid(body) {
		return badRequest(CodeInvalidJSON, "request body is not valid UTF-8")
	}
	dec := stdjson.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	w := walker{dec: dec}
	if err := w.value(reflect.TypeOf(v).Elem(), "", 0); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return badRequest(CodeTrailingData, fmt.Sprintf("request body has data after the JSON value (at byte %d)", dec.InputOffset()))
	}
	if err := json.Unmarshal(body, v); err != nil {
		// Unreachable after the walk; answered without the decoder's wording.
		return badRequest(CodeInvalidJSON, "request body could not be decoded")
	}
	return nil
}

type walker struct{ dec *stdjson.Decoder }

func (w *walker) token(path string) (stdjson.Token, *apiError) {
	off := w.dec.InputOffset()
	t, err := w.dec.Token()
	if err == nil {
		return t, nil
	}
	var se *stdjson.SyntaxError
	switch {
	case errors.As(err, &se):
		return nil, badRequest(CodeInvalidJSON, fmt.Sprintf("request body is not valid JSON: %s (at byte %d)", se.Error(), se.Offset))
	case err == io.EOF && path == "" && off == 0:
		return nil, badRequest(CodeInvalidJSON, "request body is empty; send a JSON object")
	default:
		return nil, badRequest(CodeInvalidJSON, fmt.Sprintf("request body is not valid JSON: it ends early (at byte %d)", w.dec.InputOffset()))
	}
}

// value checks the next value against t. Pointers allow null.
func (w *walker) value(t reflect.Type, path string, depth int) *apiError {
	tok, err := w.token(path)
	if err != nil {
		return err
	}
	if t.Kind() == reflect.Pointer {
		if tok == nil {
			return nil
		}
		t = t.Elem()
	}
	if t == rawMessageType {
		return w.skip(tok, path, depth)
	}
	want := ""
	switch t.Kind() {
	case reflect.Struct:
		if tok != stdjson.Delim('{') {
			want = "an object"
			break
		}
		return w.object(t, path, depth)
	case reflect.Map: // string keys (MCP prompt arguments); null is an empty map
		if tok == nil {
			return nil
		}
		if tok != stdjson.Delim('{') {
			want = "an object"
			break
		}
		return w.mapObject(t, path, depth)
	case reflect.String:
		if _, ok := tok.(string); !ok {
			want = "a string"
		}
	case reflect.Bool:
		if _, ok := tok.(bool); !ok {
			want = "a boolean"
		}
	default:
		return badRequest(CodeInvalidJSON, "request field "+quoteField(path)+" has no JSON shape")
	}
	if want == "" {
		return nil
	}
	return badRequest(CodeWrongType, fmt.Sprintf("%s must be %s (got %s)", fieldName(path), want, describeToken(tok)))
}

func (w *walker) object(t reflect.Type, path string, depth int) *apiError {
	seen := map[string]bool{}
	for w.dec.More() {
		tok, err := w.token(path)
		if err != nil {
			return err
		}
		key := tok.(string) // encoding/json only hands out string keys here
		sub := joinPath(path, key)
		f, ok := fieldByTag(t, key)
		if !ok {
			return badRequest(CodeUnknownField, fmt.Sprintf("%s is not a known field (known: %s)", fieldName(sub), knownFields(t, path)))
		}
		if seen[key] {
			return badRequest(CodeDuplicateField, fieldName(sub)+" appears more than once")
		}
		seen[key] = true
		if err := w.value(f.Type, sub, depth+1); err != nil {
			return err
		}
	}
	_, err := w.token(path) // the closing brace
	return err
}

// mapObject checks an object whose members all have t's element type; a key
// that appears twice is refused, as in a struct.
func (w *walker) mapObject(t reflect.Type, path string, depth int) *apiError {
	seen := map[string]bool{}
	for w.dec.More() {
		tok, err := w.token(path)
		if err != nil {
			return err
		}
		key := tok.(string)
		sub := joinPath(path, key)
		if seen[key] {
			return badRequest(CodeDuplicateField, fieldName(sub)+" appears more than once")
		}
		seen[key] = true
		if err := w.value(t.Elem(), sub, depth+1); err != nil {
			return err
		}
	}
	_, err := w.token(path)
	return err
}

// skip consumes a free-form value whose first token is tok.
func (w *walker) skip(tok stdjson.Token, path string, depth int) *apiError {
	if d, ok := tok.(stdjson.Delim); ok && (d == '{' || d == '[') {
		if depth >= maxRawDepth {
			return badRequest(CodeTooDeep, fmt.Sprintf("%s nests deeper than %d levels", fieldName(path), maxRawDepth))
		}
		for w.dec.More() {
			t, err := w.token(path)
			if err != nil {
				return err
			}
			if d == '{' { // t was the key; the value follows
				if t, err = w.token(path); err != nil {
					return err
				}
			}
			if err := w.skip(t, path, depth+1); err != nil {
				return err
			}
		}
		_, err := w.token(path)
		return err
	}
	return nil
}

func fieldByTag(t reflect.Type, key string) (reflect.StructField, bool) {
	for i := range t.NumField() {
		f := t.Field(i)
		if tagName(f) == key {
			return f, true
		}
	}
	return reflect.StructField{}, false
}

func tagName(f reflect.StructField) string {
	name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
	return name
}

func knownFields(t reflect.Type, path string) string {
	var names []string
	for i := range t.NumField() {
		names = append(names, joinPath(path, tagName(t.Field(i))))
	}
	return strings.Join(names, ", ")
}

func joinPath(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// fieldName renders a field path for a message; keys come from the client, so
// long or odd ones are quoted and cut rather than pasted in whole.
func fieldName(path string) string {
	if path == "" {
		return "the request body"
	}
	return "field " + quoteField(path)
}

func quoteField(path string) string {
	if len(path) > 80 {
		cut := 80
		for cut > 0 && !utf8.RuneStart(path[cut]) {
			cut--
		}
		path = path[:cut] + "…"
	}
	return strconv.Quote(path)
}

func describeToken(tok stdjson.Token) string {
	switch x := tok.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case stdjson.Number:
		return "a number"
	case string:
		return "a string"
	case stdjson.Delim:
		if x == '[' {
			return "an array"
		}
		return "an object"
	}
	return "another value"
}
