package core

import (
	"strconv"

	json "github.com/codemode-go/codemode/internal/jsonx"
)

// decodeRequest is readRequest's decoder for the messages the prelude writes:
// one object of the request's exact keys, each with a value of its field's
// type, over text strictjson has already made canonical (compact, valid, no
// duplicate keys). Everything else (another spelling of a key, an unknown
// key, null, a string with an escape where a string field wants plain text, a
// number that does not fit) answers false, and the caller decodes with
// encoding/json, whose result stays the contract: this only skips its
// reflection for the common case. On V8 that matters beyond its own cost:
// encoding/json's struct decoder (decodeState.object, literalStore) is among
// the largest functions of codemode.wasm, and a page's tool calls were what
// made V8 compile it with TurboFan, on a core the page and its worker share.
func decodeRequest(b []byte, req *request) bool {
	d := reqScanner{b: b}
	if !d.eat('{') {
		return false
	}
	if d.eat('}') {
		return d.i == len(b)
	}
	for {
		key, ok := d.plain()
		if !ok || !d.eat(':') || !d.field(key, req) {
			return false
		}
		if d.eat(',') {
			continue
		}
		return d.eat('}') && d.i == len(b)
	}
}

// reqScanner walks canonical JSON text (no white space, valid throughout).
type reqScanner struct {
	b []byte
	i int
}

func (d *reqScanner) eat(c byte) bool {
	if d.i < len(d.b) && d.b[d.i] == c {
		d.i++
		return true
	}
	return false
}

// plain reads a string without escapes; false for any other value.
func (d *reqScanner) plain() (string, bool) {
	if !d.eat('"') {
		return "", false
	}
	start := d.i
	for d.i < len(d.b) {
		switch d.b[d.i] {
		case '"':
			s := string(d.b[start:d.i])
			d.i++
			return s, true
		case '\\':
			return "", false
		}
		d.i++
	}
	return "", false
}

// raw reads any value but null and returns its text.
func (d *reqScanner) raw() ([]byte, bool) {
	v, ok := d.any()
	return v, ok && string(v) != "null"
}

// any reads any value and returns its text: canonical text ends a value at
// the first ',', '}' or ']' outside a string and outside its own brackets.
func (d *reqScanner) any() ([]byte, bool) {
	start, depth := d.i, 0
	for d.i < len(d.b) {
		switch c := d.b[d.i]; {
		case c == '"':
			d.i++
			for d.i < len(d.b) && d.b[d.i] != '"' {
				if d.b[d.i] == '\\' {
					d.i++
				}
				d.i++
			}
			d.i++
		case c == '{' || c == '[':
			depth++
			d.i++
		case c == '}' || c == ']':
			if depth == 0 {
				return d.b[start:d.i], d.i > start
			}
			depth--
			d.i++
		case c == ',' && depth == 0:
			return d.b[start:d.i], d.i > start
		default:
			d.i++
		}
	}
	return d.b[start:min(d.i, len(d.b))], d.i > start && d.i <= len(d.b)
}

// number reads a number's text.
func (d *reqScanner) number() (string, bool) {
	start := d.i
	for d.i < len(d.b) {
		c := d.b[d.i]
		if (c < '0' || c > '9') && c != '-' && c != '+' && c != '.' && c != 'e' && c != 'E' {
			break
		}
		d.i++
	}
	return string(d.b[start:d.i]), d.i > start
}

// list reads an array, each element with elem.
func (d *reqScanner) list(elem func() bool) bool {
	if !d.eat('[') {
		return false
	}
	if d.eat(']') {
		return true
	}
	for elem() {
		if !d.eat(',') {
			return d.eat(']')
		}
	}
	return false
}

// strings reads an array of plain strings ([] is an empty, non-nil slice, as
// encoding/json makes it).
func (d *reqScanner) strings() ([]string, bool) {
	out := []string{}
	ok := d.list(func() bool {
		s, ok := d.plain()
		out = append(out, s)
		return ok
	})
	return out, ok
}

// raws reads an array of values (null ones included, as encoding/json keeps
// them in a RawMessage).
func (d *reqScanner) raws() ([]json.RawMessage, bool) {
	out := []json.RawMessage{}
	ok := d.list(func() bool {
		v, ok := d.any()
		out = append(out, json.RawMessage(v))
		return ok
	})
	return out, ok
}

// field reads the value of key into req; false for a key or value shape the
// fast path leaves to encoding/json.
func (d *reqScanner) field(key string, req *request) bool {
	var ok bool
	switch key {
	case "op":
		req.Op, ok = d.plain()
	case "text":
		req.Text, ok = d.plain()
	case "query":
		req.Query, ok = d.plain()
	case "id":
		req.ID, ok = d.plain()
	case "mode":
		req.Mode, ok = d.plain()
	case "reason":
		req.Reason, ok = d.plain()
	case "server":
		req.Server, ok = d.plain()
	case "uri":
		req.URI, ok = d.plain()
	case "name":
		req.Name, ok = d.plain()
	case "ns":
		req.NS, ok = d.plain()
	case "kind":
		req.Kind, ok = d.plain()
	case "where":
		req.Where, ok = d.plain()
	case "tool":
		var s string
		if s, ok = d.plain(); ok {
			req.Tool = &s
		}
	case "value":
		req.Value, ok = d.raw()
	case "input":
		req.Input, ok = d.raw()
	case "arguments":
		req.Arguments, ok = d.raw()
	case "path":
		req.Path, ok = d.strings()
	case "have":
		req.Have, ok = d.strings()
	case "args":
		req.Args, ok = d.raws()
	case "schema":
		switch {
		case d.i+4 <= len(d.b) && string(d.b[d.i:d.i+4]) == "true":
			req.Schema, ok = true, true
			d.i += 4
		case d.i+5 <= len(d.b) && string(d.b[d.i:d.i+5]) == "false":
			req.Schema, ok = false, true
			d.i += 5
		}
	case "limit":
		var s string
		if s, ok = d.number(); ok {
			var n int64
			n, ok = intOf(s)
			v := int(n)
			req.Limit = &v
		}
	case "token":
		var s string
		if s, ok = d.number(); ok {
			req.Token, ok = intOf(s)
		}
	case "ms":
		var s string
		if s, ok = d.number(); ok {
			var err error
			req.Ms, err = strconv.ParseFloat(s, 64)
			ok = err == nil
		}
	}
	return ok
}

// intOf parses an integer as encoding/json does for an int field (no
// fraction or exponent).
func intOf(s string) (int64, bool) {
	n, err := strconv.ParseInt(s, 10, 64)
	return n, err == nil
}
