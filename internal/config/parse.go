package config

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/codemode-go/codemode/internal/text"
)

// JSON5, not encoding/json: the spec writes every config example in JSON5
// (unquoted keys, trailing commas, comments), and that is what operators copy
// into their files. The decoder is our own (DecodeJSON5, json5node.go): the
// JSON5 packages the Go proxy serves are unmaintained forks, and a config
// reader needs each key's line and column to name what it refuses, which none
// of them keep. Plain JSON is valid JSON5, so one parser serves both.

// Input bounds. A config is a few hundred bytes; these exist so that a hostile or
// broken file cannot make Parse allocate without bound or recurse deeply
// (DecodeJSON5 enforces both).
const (
	maxInputBytes = 1 << 20
	maxDepth      = 64
)

// Parse reads tools.codeMode from JSON or JSON5. data is either the codeMode
// value itself (true, false, null or an object) or a whole config document whose
// top level has a "tools" key, i.e. {tools: {codeMode: ...}}; in a document
// everything except tools.codeMode is ignored, because it belongs to others.
//
// Empty input, null, false, a missing codeMode and an object without
// `enabled: true` all give the disabled Default; true is shorthand for
// Default with Enabled set. Unknown fields, wrong types, non-integers and
// out-of-range values are errors (*Error); nothing is clamped or ignored.
func Parse(data []byte) (Config, error) {
	if len(data) > maxInputBytes {
		return Config{}, &Error{Msg: fmt.Sprintf("config is too large (%d bytes, at most %d)", len(data), maxInputBytes)}
	}
	// Nothing, or an empty object: what the parser and fromObject make of {}
	// (TestEmptyObjectIsDefault), without them, so a page's core without a
	// config never compiles the JSON5 parser.
	if t := string(bytes.TrimSpace(data)); t == "" || t == "{}" {
		return Default(), nil
	}
	n, err := DecodeJSON5(data)
	if err != nil {
		return Config{}, syntaxErr(err)
	}
	v := plain(n)
	if doc, ok := v.(map[string]any); ok {
		if tools, ok := doc["tools"]; ok {
			return fromDocument(tools)
		}
	}
	return fromValue(v)
}

// fromDocument extracts codeMode from the value of a document's "tools" key.
func fromDocument(tools any) (Config, error) {
	m, ok := tools.(map[string]any)
	if !ok {
		return Config{}, &Error{Field: "tools", Msg: "must be an object (got " + describe(tools) + ")"}
	}
	cm, ok := m["codeMode"]
	if !ok {
		return Default(), nil
	}
	return fromValue(cm)
}

// fromValue interprets the codeMode value itself.
func fromValue(v any) (Config, error) {
	switch x := v.(type) {
	case nil:
		return Default(), nil
	case bool:
		c := Default()
		c.Enabled = x
		return c, nil
	case map[string]any:
		return fromObject(x)
	}
	return Config{}, fieldErr("", "must be true, false or an object (got "+describe(v)+")")
}

// knownFields are the JSON names of Config, in the spec's table order.
var knownFields = []string{
	"enabled", "runtime", "mode", "languages", "timeoutMs", "memoryLimitBytes",
	"maxOutputBytes", "maxSnapshotBytes", "maxPendingToolCalls", "snapshotTtlSeconds",
	"searchDefaultLimit", "maxSearchLimit",
}

func fromObject(m map[string]any) (Config, error) {
	// Unknown fields first, sorted, so the reported one does not depend on map
	// order. Names are exact: unlike encoding/json we do not match case-
	// insensitively, because "TimeoutMS" in a file is a typo worth reporting.
	var unknown []string
	for k := range m {
		if !slices.Contains(knownFields, k) {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) > 0 {
		slices.Sort(unknown)
		return Config{}, &Error{Field: unknownFieldPath(unknown[0]),
			Msg: "is not a known field (known: " + strings.Join(knownFields, ", ") + ")"}
	}

	c := Default()
	if v, ok := m["enabled"]; ok {
		b, ok := v.(bool)
		if !ok {
			return Config{}, typeErr("enabled", "a boolean", v)
		}
		c.Enabled = b
	}
	for _, f := range []struct {
		name string
		dst  *string
	}{{"runtime", &c.Runtime}, {"mode", &c.Mode}} {
		if v, ok := m[f.name]; ok {
			s, ok := v.(string)
			if !ok {
				return Config{}, typeErr(f.name, "a string", v)
			}
			*f.dst = s
		}
	}
	if v, ok := m["languages"]; ok {
		langs, err := parseLanguages(v)
		if err != nil {
			return Config{}, err
		}
		c.Languages = langs
	}
	for _, b := range intFields {
		v, ok := m[b.name]
		if !ok {
			continue
		}
		n, err := parseInt(b.name, v, b.min, b.max, func(got string) *Error { return rangeErr(b.name, b.min, b.max, got) })
		if err != nil {
			return Config{}, err
		}
		b.set(&c, n)
	}
	if v, ok := m[searchDefaultLimitField]; ok {
		n, err := parseInt(searchDefaultLimitField, v, 1, maxSearchDefault, func(got string) *Error {
			return rangeErr(searchDefaultLimitField, 1, maxSearchDefault, got)
		})
		if err != nil {
			return Config{}, err
		}
		c.SearchDefaultLimit = int(n)
	}
	// The spec caps searchDefaultLimit to maxSearchLimit (it does not refuse it):
	// lowering maxSearchLimit alone lowers the default with it.
	c.SearchDefaultLimit = c.EffectiveSearchDefaultLimit()
	if err := c.Validate(); err != nil {
		return Config{}, err
	}
	return c, nil
}

func parseLanguages(v any) ([]string, error) {
	arr, ok := v.([]any)
	if !ok {
		return nil, typeErr("languages", "an array of strings", v)
	}
	langs := make([]string, 0, len(arr))
	for i, e := range arr {
		s, ok := e.(string)
		if !ok {
			return nil, typeErr(fmt.Sprintf("languages[%d]", i), "a string", e)
		}
		langs = append(langs, s)
	}
	if err := validateLanguages(langs); err != nil {
		return nil, err
	}
	return langs, nil
}

// parseInt accepts a JSON number that is an integer (1, 1.0, 1e3, 0x10 are;
// 1.5, NaN and Infinity are not) within [min, max]. Out-of-range values, even
// those beyond int64, are reported by outOfRange with the literal as written.
func parseInt(field string, v any, min, max int64, outOfRange func(got string) *Error) (int64, error) {
	var lit string
	switch x := v.(type) {
	case number:
		lit = string(x)
	case float64: // the decoder hands Infinity and NaN over as float64
		return 0, typeErr(field, "an integer", v)
	default:
		return 0, typeErr(field, "an integer", v)
	}
	n, ok, inRange := numberToInt(lit)
	if !ok {
		return 0, typeErr(field, "an integer", v)
	}
	if !inRange || n < min || n > max {
		return 0, outOfRange(text.Clip(lit, 32))
	}
	return n, nil
}

// numberToInt converts a JSON5 number literal the scanner has already accepted.
// ok is false for non-integers; inRange is false when the integer does not fit
// in an int64.
func numberToInt(lit string) (n int64, ok, inRange bool) {
	s, neg := lit, false
	if s != "" && (s[0] == '+' || s[0] == '-') {
		neg = s[0] == '-'
		s = s[1:]
	}
	if len(s) > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') {
		u, err := strconv.ParseUint(s[2:], 16, 64)
		if err != nil || u > math.MaxInt64 {
			return 0, true, false
		}
		if neg {
			return -int64(u), true, true
		}
		return int64(u), true, true
	}
	if i, err := strconv.ParseInt(lit, 10, 64); err == nil {
		return i, true, true
	}
	f, err := strconv.ParseFloat(lit, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return 0, false, false
	}
	if math.IsInf(f, 0) {
		// 1e400: certainly an integer value, certainly out of range.
		return 0, true, false
	}
	if f != math.Trunc(f) {
		return 0, false, false
	}
	if f >= math.MaxInt64 || f < math.MinInt64 {
		return 0, true, false
	}
	return int64(f), true, true
}

func typeErr(field, want string, got any) *Error {
	return fieldErr(field, "must be "+want+" (got "+describe(got)+")")
}

// describe names a decoded JSON value for an error message, with a short
// rendering of scalars.
func describe(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return strconv.FormatBool(x)
	case string:
		return "string " + quote(x)
	case number:
		return "number " + text.Clip(string(x), 32)
	case float64:
		return "number " + strconv.FormatFloat(x, 'g', -1, 64)
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}

// syntaxErr reports a JSON5 syntax error with its line and column, because a
// byte offset is useless to a person editing a file.
func syntaxErr(err error) *Error {
	var se *SyntaxError
	if errors.As(err, &se) {
		return &Error{Msg: fmt.Sprintf("config is not valid JSON5: %s (line %d, column %d)", se.Msg, se.Pos.Line, se.Pos.Col)}
	}
	return &Error{Msg: "config is not valid JSON5"}
}

// number is a JSON5 number literal as written, so integer fields can be
// checked exactly ("1.5", "1e400", "0x10") instead of via float64.
type number string

// plain turns a Node into the values the field readers take: maps, slices,
// strings, bools, nil, number literals; Infinity and NaN become float64,
// which no integer field accepts.
func plain(n *Node) any {
	switch n.Kind {
	case KindBool:
		return n.Bool
	case KindNumber:
		if strings.HasSuffix(n.Num, "Infinity") || strings.HasSuffix(n.Num, "NaN") {
			f, _ := n.Float()
			return f
		}
		return number(n.Num)
	case KindString:
		return n.Str
	case KindArray:
		out := make([]any, len(n.Elems))
		for i, e := range n.Elems {
			out[i] = plain(e)
		}
		return out
	case KindObject:
		out := make(map[string]any, len(n.Keys))
		for i, k := range n.Keys {
			out[k] = plain(n.Values[i])
		}
		return out
	}
	return nil
}
