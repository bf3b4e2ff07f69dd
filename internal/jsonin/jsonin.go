// Package jsonin is the one strict decoder for JSON that arrives from outside
// the process: the HTTP API's request bodies (edge), the wasip1 ABI's requests
// and the GOOS=js exports' options, inputs and scopes. Each of them sits under
// a caller that may send anything, and each answers in the caller's terms, so
// every host words a refusal alike and refuses the same things.
//
// Decode walks the value's tokens against the Go type before anything is
// built: syntax errors, trailing data, unknown or duplicate fields (names match
// case-sensitively, unlike encoding/json), values of the wrong JSON type,
// numbers out of the field's range and free-form values nested too deep are
// refused with the field's path and, for syntax, the byte offset. Messages use
// JSON words only; no Go type name or decoder wording reaches the caller.
package jsonin

import (
	"bytes"
	stdjson "encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	json "github.com/codemode-go/codemode/internal/jsonx"
)

// MaxDepth bounds the nesting of a value: deeper input is refused before
// anything builds it.
const MaxDepth = 128

// Kind says which rule a refusal broke, so a host can map it to its own
// error codes (the HTTP API has one per kind).
type Kind int

const (
	// Malformed: not UTF-8, not JSON, empty or cut short.
	Malformed Kind = iota
	// Trailing: more data after the one JSON value.
	Trailing
	// UnknownField: a member the type does not describe.
	UnknownField
	// DuplicateField: a member given twice.
	DuplicateField
	// WrongType: a value of another JSON type, or a number out of range.
	WrongType
	// TooDeep: nesting past MaxDepth.
	TooDeep
)

// Error is a refusal.
type Error struct {
	Kind Kind
	// Msg names the value, the field and the problem in JSON terms.
	Msg string
}

// Error returns Msg.
func (e *Error) Error() string { return e.Msg }

// rawMessageType is the free-form field type (goccy's RawMessage is an alias
// of encoding/json's).
var rawMessageType = reflect.TypeOf(json.RawMessage(nil))

// Decode reads the one JSON value in b into v (a pointer) and refuses anything
// v's type does not describe exactly. what names the value in messages
// ("request body", "options"). The error, when there is one, is an *Error.
func Decode(b []byte, v any, what string) error {
	if !utf8.Valid(b) {
		return &Error{Malformed, what + " is not valid UTF-8"}
	}
	rv := reflect.ValueOf(v).Elem()
	if rv.IsZero() {
		if plainDecode(b, rv) {
			return nil
		}
		rv.SetZero()
	}
	return walk(b, v, what)
}

// walk is Decode by encoding/json's tokenizer: every message plainDecode
// leaves, and every refusal with its exact wording.
func walk(b []byte, v any, what string) error {
	dec := stdjson.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	rv := reflect.ValueOf(v).Elem()
	// The walk builds into a zero value only: Unmarshal merges into what v
	// holds, which is its to do.
	w := walker{dec: dec, b: b, what: what, fill: rv.IsZero()}
	filling := w.fill
	if err := w.value(rv.Type(), rv, "", 0); err != nil {
		if filling {
			rv.SetZero() // a refused message leaves v as it was
		}
		return err
	}
	end := int(dec.InputOffset())
	if _, err := dec.Token(); err != io.EOF {
		for end < len(b) && strings.IndexByte(" \t\r\n", b[end]) >= 0 {
			end++
		}
		if filling {
			rv.SetZero()
		}
		return &Error{Trailing, fmt.Sprintf("%s has data after the JSON value (at byte %d)", what, end)}
	}
	if w.fill {
		return nil
	}
	// The walk met a type it does not build itself (fills): the checked
	// value is built by Unmarshal (goccy/go-json natively, the faster).
	if filling {
		rv.SetZero()
	}
	if err := json.Unmarshal(b, v); err != nil {
		return &Error{Malformed, what + " could not be decoded"} // unreachable after the walk
	}
	return nil
}

// The walk builds the value as it checks it, as encoding/json's Unmarshal
// would build it: a second pass over the message by Unmarshal cost a page's
// first exec encoding/json's decoder and its per-type field tables (V8
// compiles each on first use). The types Unmarshal treats specially are left
// to it (fills).
var (
	unmarshalerType     = reflect.TypeFor[stdjson.Unmarshaler]()
	textUnmarshalerType = reflect.TypeFor[interface{ UnmarshalText([]byte) error }]()
)

// fills reports whether the walk builds a value of type t itself: not for a
// type with its own UnmarshalJSON or UnmarshalText (except RawMessage, which
// the walk copies as Unmarshal does), a fixed-size array or an interface with
// methods.
func fills(t reflect.Type) bool {
	if t == rawMessageType {
		return true
	}
	switch {
	case t.Kind() == reflect.Array || (t.Kind() == reflect.Interface && t.NumMethod() > 0):
		return false
	case t.Kind() == reflect.Pointer || (t.Name() == "" && t.Kind() != reflect.Struct) || (t.Name() != "" && t.PkgPath() == ""):
		// No methods: a pointer's are its element's (checked after it), an
		// unnamed type other than a struct (with embedded fields) has none,
		// nor has a predeclared one. The rest asks reflect for *t, which may
		// have to search the binary's types.
		return true
	}
	pt := reflect.PointerTo(t)
	return !pt.Implements(unmarshalerType) && !pt.Implements(textUnmarshalerType)
}

type walker struct {
	dec  *stdjson.Decoder
	b    []byte // the message, for the raw bytes of free-form values
	what string
	// fill is true while the walk builds the value it checks; false once it
	// met a type it leaves to Unmarshal (fills).
	fill bool
}

// rawStart is the offset of the next value's first byte: past the
// whitespace and the ':' or ',' the decoder has not consumed yet.
func (w *walker) rawStart() int {
	i := int(w.dec.InputOffset())
	for i < len(w.b) && strings.IndexByte(" \t\r\n:,", w.b[i]) >= 0 {
		i++
	}
	return i
}

func (w *walker) token() (stdjson.Token, *Error) {
	off := w.dec.InputOffset()
	t, err := w.dec.Token()
	if err == nil {
		return t, nil
	}
	var se *stdjson.SyntaxError
	switch {
	case errors.As(err, &se):
		return nil, &Error{Malformed, fmt.Sprintf("%s is not valid JSON: %s (at byte %d)", w.what, se.Error(), se.Offset)}
	case err == io.EOF && off == 0:
		return nil, &Error{Malformed, w.what + " is empty; send a JSON object"}
	default:
		return nil, &Error{Malformed, fmt.Sprintf("%s is not valid JSON: it ends early (at byte %d)", w.what, w.dec.InputOffset())}
	}
}

// value checks the next value against t and, while w.fill, stores it in v
// (settable, of type t). Pointers, maps, slices and free-form values allow
// null, as encoding/json does.
func (w *walker) value(t reflect.Type, v reflect.Value, path string, depth int) *Error {
	start := 0
	if w.fill {
		start = w.rawStart()
	}
	tok, err := w.token()
	if err != nil {
		return err
	}
	if w.fill && !fills(t) {
		w.fill = false
	}
	if t.Kind() == reflect.Pointer {
		if tok == nil {
			w.set(v, reflect.Value{})
			return nil
		}
		t = t.Elem()
		if w.fill && !fills(t) {
			w.fill = false
		}
		if w.fill {
			if v.IsNil() {
				v.Set(reflect.New(t))
			}
			v = v.Elem()
		}
	}
	if t == rawMessageType || t.Kind() == reflect.Interface {
		if err := w.skip(tok, path, depth); err != nil {
			return err
		}
		if w.fill {
			w.setRaw(t, v, w.b[start:w.dec.InputOffset()])
		}
		return nil
	}
	if _, ok := tok.(stdjson.Delim); ok && depth >= MaxDepth {
		return w.tooDeep(path)
	}
	want := ""
	switch t.Kind() {
	case reflect.Struct:
		if tok == stdjson.Delim('{') {
			return w.object(t, v, path, depth)
		}
		want = "an object"
	case reflect.Map: // string keys
		switch tok {
		case nil:
			w.set(v, reflect.Value{})
			return nil
		case stdjson.Delim('{'):
			return w.mapObject(t, v, path, depth)
		}
		want = "an object"
	case reflect.Slice, reflect.Array:
		switch tok {
		case nil:
			w.set(v, reflect.Value{})
			return nil
		case stdjson.Delim('['):
			return w.array(t, v, path, depth)
		}
		want = "an array"
	case reflect.String:
		if s, ok := tok.(string); !ok {
			want = "a string"
		} else if w.fill {
			v.SetString(s)
		}
	case reflect.Bool:
		if b, ok := tok.(bool); !ok {
			want = "a boolean"
		} else if w.fill {
			v.SetBool(b)
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		n, ok := tok.(stdjson.Number)
		if !ok {
			want = "an integer"
			break
		}
		if !fitsInteger(t, string(n)) {
			return &Error{WrongType, fmt.Sprintf("%s must be an integer in range (got %s)", w.field(path), cut(string(n)))}
		}
		if w.fill {
			setInteger(v, string(n))
		}
	case reflect.Float32, reflect.Float64:
		n, ok := tok.(stdjson.Number)
		if !ok {
			want = "a number"
			break
		}
		f, err := strconv.ParseFloat(string(n), t.Bits())
		if err != nil {
			return &Error{WrongType, fmt.Sprintf("%s must be a number in range (got %s)", w.field(path), cut(string(n)))}
		}
		if w.fill {
			v.SetFloat(f)
		}
	default:
		return &Error{Malformed, w.field(path) + " has no JSON shape"}
	}
	if want == "" {
		return nil
	}
	return &Error{WrongType, fmt.Sprintf("%s must be %s (got %s)", w.field(path), want, describeToken(tok))}
}

// object checks a struct's members: each key must name one of its fields.
func (w *walker) object(t reflect.Type, v reflect.Value, path string, depth int) *Error {
	return w.members(path, depth, func(key, sub string) (reflect.Type, reflect.Value, func(), *Error) {
		f, ok := fieldByTag(t, key)
		if !ok {
			return nil, reflect.Value{}, nil, &Error{UnknownField, fmt.Sprintf("%s is not a known field (known: %s)", w.field(sub), knownFields(t, path))}
		}
		if f.quoted {
			w.fill = false // the ",string" option: Unmarshal's
		}
		if !w.fill {
			return f.Type, reflect.Value{}, nil, nil
		}
		return f.Type, v.FieldByIndex(f.index), nil, nil
	})
}

// mapObject checks an object whose members all have t's element type.
func (w *walker) mapObject(t reflect.Type, v reflect.Value, path string, depth int) *Error {
	if t.Key().Kind() != reflect.String {
		return &Error{Malformed, w.field(path) + " has no JSON shape"}
	}
	if w.fill && !fills(t.Key()) {
		w.fill = false
	}
	if w.fill && v.IsNil() {
		v.Set(reflect.MakeMap(t))
	}
	return w.members(path, depth, func(key, _ string) (reflect.Type, reflect.Value, func(), *Error) {
		if !w.fill {
			return t.Elem(), reflect.Value{}, nil, nil
		}
		elem := reflect.New(t.Elem()).Elem()
		k := reflect.New(t.Key()).Elem()
		k.SetString(key)
		return t.Elem(), elem, func() {
			if w.fill {
				v.SetMapIndex(k, elem)
			}
		}, nil
	})
}

// members walks an object's members up to its closing brace; typeOf says
// what a key's value must be and where it goes (or refuses the key), and
// done, when set, stores it after the walk filled it. A key that appears
// twice is refused, in a struct and in a map alike.
func (w *walker) members(path string, depth int, typeOf func(key, sub string) (reflect.Type, reflect.Value, func(), *Error)) *Error {
	seen := map[string]bool{}
	for w.dec.More() {
		tok, err := w.token()
		if err != nil {
			return err
		}
		key := tok.(string) // encoding/json only hands out string keys here
		sub := joinPath(path, key)
		vt, fv, done, err := typeOf(key, sub)
		if err != nil {
			return err
		}
		if seen[key] {
			return &Error{DuplicateField, w.field(sub) + " appears more than once"}
		}
		seen[key] = true
		if err := w.value(vt, fv, sub, depth+1); err != nil {
			return err
		}
		if done != nil {
			done()
		}
	}
	_, err := w.token() // the closing brace
	return err
}

func (w *walker) array(t reflect.Type, v reflect.Value, path string, depth int) *Error {
	n := 0
	if w.fill { // a slice: arrays are Unmarshal's (fills)
		v.Set(reflect.MakeSlice(t, 0, 0)) // [] is an empty slice, not nil
	}
	for w.dec.More() {
		if t.Kind() == reflect.Array && n == t.Len() {
			return &Error{WrongType, fmt.Sprintf("%s must have at most %d items", w.field(path), t.Len())}
		}
		var elem reflect.Value
		if w.fill {
			elem = reflect.New(t.Elem()).Elem()
		}
		if err := w.value(t.Elem(), elem, fmt.Sprintf("%s[%d]", path, n), depth+1); err != nil {
			return err
		}
		if w.fill {
			v.Set(reflect.Append(v, elem))
		}
		n++
	}
	_, err := w.token()
	return err
}

// set stores x in v (the zero value when x is invalid) while the walk fills.
func (w *walker) set(v reflect.Value, x reflect.Value) {
	if !w.fill {
		return
	}
	if !x.IsValid() {
		v.SetZero()
		return
	}
	v.Set(x)
}

// setRaw stores a free-form value: RawMessage's bytes copied, as Unmarshal
// copies them; an interface's value as Unmarshal builds one (maps, slices,
// float64), by Unmarshal of those bytes alone.
func (w *walker) setRaw(t reflect.Type, v reflect.Value, raw []byte) {
	if t == rawMessageType {
		v.SetBytes(append([]byte(nil), raw...))
		return
	}
	var x any
	if err := stdjson.Unmarshal(raw, &x); err != nil {
		w.fill = false // unreachable after the walk; Unmarshal decides then
		return
	}
	w.set(v, reflect.ValueOf(x))
}

// setInteger stores a number the walk found in range for v's type.
func setInteger(v reflect.Value, n string) {
	if v.Kind() >= reflect.Uint && v.Kind() <= reflect.Uint64 {
		u, _ := strconv.ParseUint(n, 10, 64)
		v.SetUint(u)
		return
	}
	i, _ := strconv.ParseInt(n, 10, 64)
	v.SetInt(i)
}

// skip consumes a free-form value whose first token is tok.
func (w *walker) skip(tok stdjson.Token, path string, depth int) *Error {
	d, ok := tok.(stdjson.Delim)
	if !ok || (d != '{' && d != '[') {
		return nil
	}
	if depth >= MaxDepth {
		return w.tooDeep(path)
	}
	for w.dec.More() {
		t, err := w.token()
		if err != nil {
			return err
		}
		if d == '{' { // t was the key; the value follows
			if t, err = w.token(); err != nil {
				return err
			}
		}
		if err := w.skip(t, path, depth+1); err != nil {
			return err
		}
	}
	_, err := w.token()
	return err
}

func (w *walker) tooDeep(path string) *Error {
	return &Error{TooDeep, fmt.Sprintf("%s nests deeper than %d levels", w.field(path), MaxDepth)}
}

// field renders a field path for a message; keys come from the caller, so
// long or odd ones are quoted and cut rather than pasted in whole.
func (w *walker) field(path string) string {
	if path == "" {
		return "the " + w.what
	}
	return "field " + Quote(path)
}

// Quote renders a caller's string for a message: quoted, and cut to 80 bytes
// on a rune boundary, so a long or odd key is never pasted in whole.
func Quote(s string) string { return strconv.Quote(cut(s)) }

func fitsInteger(t reflect.Type, n string) bool {
	v := reflect.New(t).Elem()
	if t.Kind() >= reflect.Uint && t.Kind() <= reflect.Uint64 {
		u, err := strconv.ParseUint(n, 10, 64)
		return err == nil && !v.OverflowUint(u)
	}
	i, err := strconv.ParseInt(n, 10, 64)
	return err == nil && !v.OverflowInt(i)
}

func fieldByTag(t reflect.Type, key string) (namedMember, bool) {
	for _, f := range namedMembers(t) {
		if f.name == key {
			return f, true
		}
	}
	return namedMember{}, false
}

// namedMember is one of members(t) with its tagName, its index from t (through
// promoting embedded structs) and whether its tag has the ",string" option.
type namedMember struct {
	reflect.StructField
	name   string
	index  []int
	quoted bool
}

// memberCache holds namedMembers by struct type: a request type's fields and
// tags are parsed once per process, not for every key of every message (tag
// lookups unquote the whole tag, a measurable part of a small exec's
// decoding under GOOS=js).
var memberCache sync.Map // reflect.Type -> []namedMember

// namedMembers is members(t) with their names, computed once per type.
func namedMembers(t reflect.Type) []namedMember {
	if v, ok := memberCache.Load(t); ok {
		return v.([]namedMember)
	}
	fs, idx := members(t, nil)
	out := make([]namedMember, len(fs))
	for i, f := range fs {
		_, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		out[i] = namedMember{f, tagName(f), idx[i], slices.Contains(strings.Split(opts, ","), "string")}
	}
	memberCache.Store(t, out)
	return out
}

// members are the fields a struct's JSON object may hold, in order: its own
// exported fields, and the fields of an untagged embedded struct promoted in
// its place, as encoding/json promotes them (so a request type can embed the
// arguments it shares with another front).
// The second result is each field's index from t; at is the index of t
// itself within the outermost struct.
func members(t reflect.Type, at []int) ([]reflect.StructField, [][]int) {
	var out []reflect.StructField
	var idx [][]int
	for i := range t.NumField() {
		f := t.Field(i)
		fi := append(slices.Clip(at), i)
		if f.Anonymous && f.Type.Kind() == reflect.Struct && f.Tag.Get("json") == "" {
			fs, is := members(f.Type, fi)
			out, idx = append(out, fs...), append(idx, is...)
			continue
		}
		if f.IsExported() && f.Tag.Get("json") != "-" {
			out, idx = append(out, f), append(idx, fi)
		}
	}
	return out, idx
}

// tagName is the member name encoding/json gives f: its tag, else its name.
func tagName(f reflect.StructField) string {
	name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
	if name == "" {
		return f.Name
	}
	return name
}

func knownFields(t reflect.Type, path string) string {
	var names []string
	for _, f := range namedMembers(t) {
		names = append(names, joinPath(path, f.name))
	}
	return strings.Join(names, ", ")
}

func joinPath(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// cut shortens s to 80 bytes on a rune boundary.
func cut(s string) string {
	if len(s) <= 80 {
		return s
	}
	n := 80
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
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
