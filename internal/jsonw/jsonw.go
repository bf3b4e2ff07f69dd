// Package jsonw appends JSON without reflection, byte for byte as
// encoding/json's Marshal writes it: strings HTML-escaped, invalid UTF-8 as
// \ufffd, U+2028 and U+2029 escaped, raw values compacted and escaped alike,
// map keys sorted. It is for the few fixed, small shapes a page writes before
// its first result (the exec result, a run's data for the guest, init's
// answer): in a page V8 compiles every Go function on its first call, and
// encoding/json's reflection builds an encoder per type on first use, so a
// first result that never enters it skips tens of milliseconds of both.
// Callers keep encoding/json as the reference their tests and fuzz targets
// compare with.
package jsonw

import (
	"bytes"
	stdjson "encoding/json"
	"maps"
	"slices"
	"strconv"
	"unicode/utf8"
)

const hex = "0123456789abcdef"

// String appends s as a JSON string.
func String(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		if b := s[i]; b < utf8.RuneSelf {
			if safe(b) {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch b {
			case '\\', '"':
				dst = append(dst, '\\', b)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default: // other control bytes, and <, > and & (HTML-safe)
				dst = append(dst, '\\', 'u', '0', '0', hex[b>>4], hex[b&0xF])
			}
			i++
			start = i
			continue
		}
		c, size := utf8.DecodeRuneInString(s[i:])
		if c == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if c == '\u2028' || c == '\u2029' {
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hex[c&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// safe reports whether an ASCII byte stands for itself in a JSON string
// that is HTML-escaped.
func safe(b byte) bool {
	return b >= 0x20 && b != '"' && b != '\\' && b != '<' && b != '>' && b != '&'
}

// Strings appends ss as a JSON array of strings; nil is null, as
// encoding/json writes a nil slice.
func Strings(dst []byte, ss []string) []byte {
	if ss == nil {
		return append(dst, "null"...)
	}
	dst = append(dst, '[')
	for i, s := range ss {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = String(dst, s)
	}
	return append(dst, ']')
}

// StringMap appends m as a JSON object, keys sorted; nil is null.
func StringMap(dst []byte, m map[string]string) []byte {
	if m == nil {
		return append(dst, "null"...)
	}
	dst = append(dst, '{')
	for i, k := range slices.Sorted(maps.Keys(m)) {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(String(dst, k), ':')
		dst = String(dst, m[k])
	}
	return append(dst, '}')
}

// Int appends n.
func Int[T ~int | ~int64](dst []byte, n T) []byte {
	return strconv.AppendInt(dst, int64(n), 10)
}

// Key appends a member's name and colon, after a comma unless first.
func Key(dst []byte, name string, first bool) []byte {
	if !first {
		dst = append(dst, ',')
	}
	return append(String(dst, name), ':')
}

// Raw appends a raw JSON value (a json.RawMessage) as encoding/json writes
// one: compacted, HTML-escaped, nil as null. It reports false, leaving dst
// as it was, when raw is not one valid JSON value: encoding/json fails then,
// and the caller lets it, so the error is encoding/json's own.
func Raw(dst []byte, raw []byte) ([]byte, bool) {
	if raw == nil {
		return append(dst, "null"...), true
	}
	// What JSON.stringify hands over (a client tool's answer) has nothing to
	// compact or escape: once valid it is copied as it is, without Compact's
	// buffer.
	if !needsCompactOrEscape(raw) && stdjson.Valid(raw) {
		return append(dst, raw...), true
	}
	var compact bytes.Buffer
	if err := stdjson.Compact(&compact, raw); err != nil {
		return dst, false
	}
	if !needsEscape(compact.Bytes()) {
		return append(dst, compact.Bytes()...), true
	}
	out := bytes.NewBuffer(dst)
	stdjson.HTMLEscape(out, compact.Bytes())
	return out.Bytes(), true
}

// needsEscape reports whether HTMLEscape would change b: it has <, >, & or
// the first byte of U+2028/U+2029.
func needsEscape(b []byte) bool {
	for _, c := range b {
		if c == '<' || c == '>' || c == '&' || c == 0xe2 {
			return true
		}
	}
	return false
}

// needsCompactOrEscape reports whether Compact or HTMLEscape could change b:
// it has whitespace (Compact drops it between tokens), <, >, & or the first
// byte of U+2028/U+2029.
func needsCompactOrEscape(b []byte) bool {
	for _, c := range b {
		switch c {
		case ' ', '\t', '\n', '\r', '<', '>', '&', 0xe2:
			return true
		}
	}
	return false
}
