package namespace

import (
	"bytes"
	"encoding"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Serializer bounds; a scope is a small API surface, not a data transfer.
const (
	PathSeparator      = "."
	MaxDepth           = 64
	MaxNodes           = 100_000
	MaxDescriptorBytes = 4 << 20
	maxSafeInteger     = 1<<53 - 1
)

var (
	callableType   = reflect.TypeFor[Callable]()
	timeType       = reflect.TypeFor[time.Time]()
	rawMessageType = reflect.TypeFor[json.RawMessage]()
	numberType     = reflect.TypeFor[json.Number]()
	bigIntType     = reflect.TypeFor[big.Int]()
	bigFloatType   = reflect.TypeFor[big.Float]()
	bigRatType     = reflect.TypeFor[big.Rat]()
	marshalerType  = reflect.TypeFor[json.Marshaler]()
	textMarshType  = reflect.TypeFor[encoding.TextMarshaler]()
)

// SerializeError says which namespace and scope path a serialization rule hit.
type SerializeError struct {
	// Namespace is the namespace id.
	Namespace string
	Path      string // e.g. "Issues.list"
	// Reason says which rule the value broke.
	Reason string
}

// Error names the namespace, the path and the rule the value broke.
func (e *SerializeError) Error() string {
	return fmt.Sprintf("namespace %q: scope path %s: %s", e.Namespace, e.Path, e.Reason)
}

type cycleKey struct {
	kind reflect.Kind
	ptr  uintptr
	n    int
	typ  reflect.Type
}

// serializer turns a scope into JSON plus callable paths.
type serializer struct {
	ns        string
	global    string
	allowed   map[string]bool
	onStack   map[cycleKey]bool
	nodes     int
	buf       bytes.Buffer
	callables [][]string
	byPath    map[string]Callable
}

// within runs f with key on the stack of values being written, refusing a
// value that is already on it (a reference cycle).
func (s *serializer) within(key cycleKey, path []string, f func() error) error {
	if s.onStack[key] {
		return s.fail(path, "reference cycle")
	}
	s.onStack[key] = true
	defer delete(s.onStack, key)
	return f()
}

func (s *serializer) fail(path []string, format string, args ...any) error {
	p := s.global
	for _, seg := range path {
		p += "." + seg
	}
	return &SerializeError{Namespace: s.ns, Path: p, Reason: fmt.Sprintf(format, args...)}
}

// checkKey enforces the path-segment rules on an object key.
func (s *serializer) checkKey(path []string, key string) error {
	switch {
	case key == "":
		return s.fail(path, "empty key")
	case key == "__proto__" || key == "constructor" || key == "prototype":
		return s.fail(append(path, key), "unsafe key %q", key)
	case strings.Contains(key, PathSeparator):
		return s.fail(path, "key %q contains the path separator %q", key, PathSeparator)
	case !utf8.ValidString(key):
		return s.fail(path, "key %q is not valid UTF-8", key)
	}
	return nil
}

func (s *serializer) writeJSON(v any) {
	raw, _ := json.Marshal(v) // only called with strings, bools and finite numbers
	s.buf.Write(raw)
}

func (s *serializer) value(v reflect.Value, path []string) (err error) {
	if s.nodes++; s.nodes > MaxNodes {
		return s.fail(path, "more than %d values", MaxNodes)
	}
	if len(path) > MaxDepth {
		return s.fail(path, "nested deeper than %d levels", MaxDepth)
	}
	if s.buf.Len() > MaxDescriptorBytes {
		return s.fail(path, "descriptor exceeds %d bytes", MaxDescriptorBytes)
	}
	if !v.IsValid() {
		s.buf.WriteString("null")
		return nil
	}
	t := v.Type()
	switch t {
	case callableType:
		return s.callable(v.Interface().(Callable), path)
	case timeType:
		s.writeJSON(v.Interface().(time.Time).Format(time.RFC3339Nano))
		return nil
	case rawMessageType:
		return s.raw(v.Bytes(), path)
	case numberType:
		return s.number(v.String(), path)
	case bigIntType, bigFloatType, bigRatType:
		return s.bigValue(v, path)
	}
	switch t.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			s.buf.WriteString("null")
			return nil
		}
		switch t.Elem() {
		case bigIntType, bigFloatType, bigRatType, callableType, timeType:
			return s.value(v.Elem(), path)
		}
		if done, err := s.marshaler(v, path); done {
			return err
		}
		return s.within(cycleKey{kind: reflect.Pointer, ptr: v.Pointer(), typ: t}, path, func() error { return s.value(v.Elem(), path) })
	case reflect.Interface:
		if v.IsNil() {
			s.buf.WriteString("null")
			return nil
		}
		return s.value(v.Elem(), path)
	}
	if done, err := s.marshaler(v, path); done {
		return err
	}
	switch t.Kind() {
	case reflect.Bool:
		s.writeJSON(v.Bool())
	case reflect.String:
		s.writeJSON(v.String())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n := v.Int()
		if n > maxSafeInteger || n < -maxSafeInteger {
			s.writeJSON(strconv.FormatInt(n, 10))
		} else {
			s.buf.WriteString(strconv.FormatInt(n, 10))
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		n := v.Uint()
		if n > maxSafeInteger {
			s.writeJSON(strconv.FormatUint(n, 10))
		} else {
			s.buf.WriteString(strconv.FormatUint(n, 10))
		}
	case reflect.Float32, reflect.Float64:
		f := v.Float()
		if math.IsNaN(f) || math.IsInf(f, 0) {
			s.buf.WriteString("null")
		} else {
			s.writeJSON(f)
		}
	case reflect.Slice:
		if v.IsNil() {
			s.buf.WriteString("null")
			return nil
		}
		if t.Elem().Kind() == reflect.Uint8 {
			s.writeJSON(base64.StdEncoding.EncodeToString(v.Bytes()))
			return nil
		}
		return s.within(cycleKey{kind: reflect.Slice, ptr: v.Pointer(), n: v.Len(), typ: t}, path, func() error { return s.array(v, path) })
	case reflect.Array:
		return s.array(v, path)
	case reflect.Map:
		if v.IsNil() {
			s.buf.WriteString("null")
			return nil
		}
		return s.within(cycleKey{kind: reflect.Map, ptr: v.Pointer(), typ: t}, path, func() error { return s.mapValue(v, path) })
	case reflect.Struct:
		return s.structValue(v, path)
	case reflect.Func:
		return s.fail(path, "raw function (%s): use namespace.Tool to expose a catalog tool", t)
	default:
		return s.fail(path, "value of type %s is not JSON-compatible", t)
	}
	return nil
}

func (s *serializer) array(v reflect.Value, path []string) error {
	s.buf.WriteByte('[')
	for i := range v.Len() {
		if i > 0 {
			s.buf.WriteByte(',')
		}
		if err := s.value(v.Index(i), append(path, strconv.Itoa(i))); err != nil {
			return err
		}
	}
	s.buf.WriteByte(']')
	return nil
}

func (s *serializer) mapValue(v reflect.Value, path []string) error {
	type kv struct {
		key string
		val reflect.Value
	}
	var entries []kv
	iter := v.MapRange()
	for iter.Next() {
		k := iter.Key()
		var key string
		switch k.Kind() {
		case reflect.String:
			key = k.String()
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			key = strconv.FormatInt(k.Int(), 10)
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
			key = strconv.FormatUint(k.Uint(), 10)
		default:
			return s.fail(path, "map key type %s is not a string or integer", k.Type())
		}
		if err := s.checkKey(path, key); err != nil {
			return err
		}
		entries = append(entries, kv{key, iter.Value()})
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].key < entries[j].key })
	s.buf.WriteByte('{')
	for i, e := range entries {
		if i > 0 {
			s.buf.WriteByte(',')
		}
		s.writeJSON(e.key)
		s.buf.WriteByte(':')
		if err := s.value(e.val, append(path, e.key)); err != nil {
			return err
		}
	}
	s.buf.WriteByte('}')
	return nil
}

// structFields lists exported fields by encoding/json's naming rules (tags,
// "-", omitempty, embedded structs flattened; the first field of a name wins).
type field struct {
	name      string
	index     []int
	omitEmpty bool
}

func structFields(t reflect.Type, index []int, seen map[string]bool, out *[]field, depth int) {
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		idx := append(append([]int(nil), index...), i)
		ft := f.Type
		if f.Anonymous && name == "" {
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct && depth < 8 {
				structFields(ft, idx, seen, out, depth+1)
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		if seen[name] {
			continue
		}
		seen[name] = true
		*out = append(*out, field{name: name, index: idx, omitEmpty: strings.Contains(","+opts+",", ",omitempty,")})
	}
}

func isEmpty(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Interface, reflect.Pointer:
		return v.IsZero()
	}
	return false
}

func (s *serializer) structValue(v reflect.Value, path []string) error {
	var fields []field
	structFields(v.Type(), nil, map[string]bool{}, &fields, 0)
	s.buf.WriteByte('{')
	first := true
	for _, f := range fields {
		fv, err := v.FieldByIndexErr(f.index)
		if err != nil { // nil embedded pointer: encoding/json skips it too
			continue
		}
		if f.omitEmpty && isEmpty(fv) {
			continue
		}
		if err := s.checkKey(path, f.name); err != nil {
			return err
		}
		if !first {
			s.buf.WriteByte(',')
		}
		first = false
		s.writeJSON(f.name)
		s.buf.WriteByte(':')
		if err := s.value(fv, append(path, f.name)); err != nil {
			return err
		}
	}
	s.buf.WriteByte('}')
	return nil
}

// marshaler handles values with their own JSON or text encoding; the output is
// decoded and walked again so its keys obey the same rules.
func (s *serializer) marshaler(v reflect.Value, path []string) (done bool, err error) {
	t := v.Type()
	if t.Kind() != reflect.Pointer && !t.Implements(marshalerType) && !t.Implements(textMarshType) {
		return false, nil
	}
	defer func() {
		if r := recover(); r != nil {
			done, err = true, s.fail(path, "%s encoding panicked: %v", t, r)
		}
	}()
	if t.Implements(marshalerType) {
		raw, err := v.Interface().(json.Marshaler).MarshalJSON()
		if err != nil {
			return true, s.fail(path, "%s.MarshalJSON: %v", t, err)
		}
		return true, s.raw(raw, path)
	}
	if t.Implements(textMarshType) {
		text, err := v.Interface().(encoding.TextMarshaler).MarshalText()
		if err != nil {
			return true, s.fail(path, "%s.MarshalText: %v", t, err)
		}
		s.writeJSON(string(text))
		return true, nil
	}
	return false, nil
}

// raw re-walks JSON bytes (json.RawMessage, MarshalJSON output).
func (s *serializer) raw(raw []byte, path []string) error {
	if len(bytes.TrimSpace(raw)) == 0 {
		s.buf.WriteString("null")
		return nil
	}
	if len(raw) > MaxDescriptorBytes {
		return s.fail(path, "JSON value exceeds %d bytes", MaxDescriptorBytes)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var x any
	if err := dec.Decode(&x); err != nil {
		return s.fail(path, "invalid JSON: %v", err)
	}
	if dec.More() {
		return s.fail(path, "invalid JSON: trailing data")
	}
	return s.value(reflect.ValueOf(x), path)
}

// number keeps a JSON number when a JS number holds it exactly enough, and
// otherwise substitutes a decimal string.
func (s *serializer) number(n string, path []string) error {
	if n == "" {
		s.buf.WriteString("0")
		return nil
	}
	if !json.Valid([]byte(n)) {
		return s.fail(path, "invalid number %q", n)
	}
	if i, err := strconv.ParseInt(n, 10, 64); err == nil {
		if i > maxSafeInteger || i < -maxSafeInteger {
			s.writeJSON(n)
		} else {
			s.buf.WriteString(n)
		}
		return nil
	}
	f, err := strconv.ParseFloat(n, 64)
	if err != nil || math.IsInf(f, 0) {
		s.writeJSON(n)
		return nil
	}
	if !strings.ContainsAny(n, ".eE") { // integer beyond int64
		s.writeJSON(n)
		return nil
	}
	s.buf.WriteString(n)
	return nil
}

func (s *serializer) bigValue(v reflect.Value, path []string) error {
	if !v.CanAddr() {
		c := reflect.New(v.Type()).Elem()
		c.Set(v)
		v = c
	}
	switch x := v.Addr().Interface().(type) {
	case *big.Int:
		s.writeJSON(x.String())
	case *big.Float:
		if x.IsInf() {
			s.buf.WriteString("null")
		} else {
			s.writeJSON(x.Text('g', -1))
		}
	case *big.Rat:
		s.writeJSON(x.RatString())
	default:
		return s.fail(path, "unsupported big value")
	}
	return nil
}

func (s *serializer) callable(c Callable, path []string) error {
	if c.toolName == "" {
		return s.fail(path, "zero Callable: make callables with namespace.Tool")
	}
	if !s.allowed[c.toolName] {
		return s.fail(path, "callable points at tool %q, which is not in requiredToolNames", c.toolName)
	}
	if len(path) == 0 {
		return s.fail(path, "the scope itself cannot be a callable; use an object")
	}
	for _, seg := range path {
		if err := s.checkKey(nil, seg); err != nil {
			return s.fail(path, "callable path segment %q is unsafe", seg)
		}
	}
	p := append([]string(nil), path...)
	s.callables = append(s.callables, p)
	s.byPath[strings.Join(p, PathSeparator)] = c
	s.buf.WriteString("null")
	return nil
}

// serializeScope runs the serializer over one scope value.
func serializeScope(ns, global string, allowed map[string]bool, scope any) (value json.RawMessage, callables [][]string, byPath map[string]Callable, err error) {
	s := &serializer{ns: ns, global: global, allowed: allowed, onStack: map[cycleKey]bool{}, byPath: map[string]Callable{}}
	defer func() {
		if r := recover(); r != nil {
			err = s.fail(nil, "serializer panicked: %v", r)
		}
	}()
	if err := s.value(reflect.ValueOf(scope), nil); err != nil {
		return nil, nil, nil, err
	}
	if s.buf.Len() > MaxDescriptorBytes {
		return nil, nil, nil, s.fail(nil, "descriptor exceeds %d bytes", MaxDescriptorBytes)
	}
	if s.callables == nil {
		s.callables = [][]string{}
	}
	return json.RawMessage(s.buf.Bytes()), s.callables, s.byPath, nil
}
