package jsonin

import (
	"reflect"
	"strconv"
	"unicode/utf8"
)

// plainDecode decodes the common message without encoding/json's tokenizer:
// keys and strings without escapes, integers, booleans, null, objects and
// arrays, into the types the walk fills (fills), every key known and given
// once. It answers false for anything else, having perhaps filled part of
// rv (which Decode then zeroes), and the walk decides, refusals included; so
// it accepts nothing the walk refuses and builds what the walk builds
// (FuzzPlainDecode). A page's first exec then never compiles encoding/json's
// decoder, whose Token decodes every scalar through the struct decoder.
func plainDecode(b []byte, rv reflect.Value) bool {
	p := plain{b: b}
	if !p.value(rv.Type(), rv, 0) {
		return false
	}
	p.ws()
	return p.i == len(b)
}

// plain reads valid UTF-8 (Decode checked it) from i.
type plain struct {
	b []byte
	i int
}

func (p *plain) ws() {
	for p.i < len(p.b) && (p.b[p.i] == ' ' || p.b[p.i] == '\t' || p.b[p.i] == '\n' || p.b[p.i] == '\r') {
		p.i++
	}
}

// eat skips white space and then c, if c is next.
func (p *plain) eat(c byte) bool {
	p.ws()
	if p.i < len(p.b) && p.b[p.i] == c {
		p.i++
		return true
	}
	return false
}

// word skips white space and then w, if w is next.
func (p *plain) word(w string) bool {
	p.ws()
	if len(p.b)-p.i >= len(w) && string(p.b[p.i:p.i+len(w)]) == w {
		p.i += len(w)
		return true
	}
	return false
}

// str reads a string without control characters; its escapes are the
// short ones and \uXXXX outside the surrogates (a cell's newlines and
// quotes), decoded as encoding/json decodes them.
func (p *plain) str() (string, bool) {
	if !p.eat('"') {
		return "", false
	}
	start := p.i
	var buf []byte // the decoded string once it has an escape
	for p.i < len(p.b) {
		c := p.b[p.i]
		switch {
		case c == '"':
			p.i++
			if buf == nil {
				return string(p.b[start : p.i-1]), true
			}
			return string(append(buf, p.b[start:p.i-1]...)), true
		case c < 0x20:
			return "", false
		case c != '\\':
			p.i++
			continue
		}
		buf = append(buf, p.b[start:p.i]...)
		if p.i+1 >= len(p.b) {
			return "", false
		}
		if r, ok := shortEscape(p.b[p.i+1]); ok {
			buf = append(buf, r)
			p.i += 2
		} else if p.b[p.i+1] == 'u' && p.i+6 <= len(p.b) {
			r, err := strconv.ParseUint(string(p.b[p.i+2:p.i+6]), 16, 32)
			if err != nil || r >= 0xd800 && r < 0xe000 {
				return "", false // surrogates (pairs, lone ones) and the rest are the walk's
			}
			buf = utf8.AppendRune(buf, rune(r))
			p.i += 6
		} else {
			return "", false
		}
		start = p.i
	}
	return "", false
}

// shortEscape is what JSON's one-letter escape \c stands for.
func shortEscape(c byte) (byte, bool) {
	switch c {
	case '"', '\\', '/':
		return c, true
	case 'b':
		return '\b', true
	case 'f':
		return '\f', true
	case 'n':
		return '\n', true
	case 'r':
		return '\r', true
	case 't':
		return '\t', true
	}
	return 0, false
}

// number reads a JSON number's text; integer false when it has a fraction or
// an exponent.
func (p *plain) number() (text string, integer, ok bool) {
	p.ws()
	start := p.i
	p.eatByte('-')
	if !p.digits() {
		return "", false, false
	}
	if p.b[start] == '-' && p.b[start+1] == '0' && p.i-start > 2 || p.b[start] == '0' && p.i-start > 1 {
		return "", false, false // a leading zero
	}
	integer = true
	if p.eatByte('.') {
		if !p.digits() {
			return "", false, false
		}
		integer = false
	}
	if p.eatByte('e') || p.eatByte('E') {
		if !p.eatByte('+') {
			p.eatByte('-')
		}
		if !p.digits() {
			return "", false, false
		}
		integer = false
	}
	return string(p.b[start:p.i]), integer, true
}

func (p *plain) eatByte(c byte) bool {
	if p.i < len(p.b) && p.b[p.i] == c {
		p.i++
		return true
	}
	return false
}

func (p *plain) digits() bool {
	start := p.i
	for p.i < len(p.b) && p.b[p.i] >= '0' && p.b[p.i] <= '9' {
		p.i++
	}
	return p.i > start
}

// value reads one value of type t into v (settable, zero).
func (p *plain) value(t reflect.Type, v reflect.Value, depth int) bool {
	if depth >= MaxDepth-1 || !fills(t) {
		return false
	}
	if t.Kind() == reflect.Pointer {
		if p.word("null") {
			return true
		}
		t = t.Elem()
		if t.Kind() == reflect.Pointer || !fills(t) {
			return false
		}
		v.Set(reflect.New(t))
		v = v.Elem()
	}
	switch {
	case t == rawMessageType:
		p.ws()
		start := p.i
		if !p.skip(depth) {
			return false
		}
		v.SetBytes(append([]byte(nil), p.b[start:p.i]...))
		return true
	case t.Kind() == reflect.Struct:
		return p.object(func(key string) bool {
			f, ok := fieldByTag(t, key)
			return ok && !f.quoted && p.value(f.Type, v.FieldByIndex(f.index), depth+1)
		})
	case t.Kind() == reflect.Map:
		if t.Key().Kind() != reflect.String || !fills(t.Key()) {
			return false
		}
		if p.word("null") {
			return true
		}
		v.Set(reflect.MakeMap(t))
		return p.object(func(key string) bool {
			elem := reflect.New(t.Elem()).Elem()
			if !p.value(t.Elem(), elem, depth+1) {
				return false
			}
			k := reflect.New(t.Key()).Elem()
			k.SetString(key)
			v.SetMapIndex(k, elem)
			return true
		})
	case t.Kind() == reflect.Slice:
		if p.word("null") {
			return true
		}
		v.Set(reflect.MakeSlice(t, 0, 0))
		return p.array(func() bool {
			elem := reflect.New(t.Elem()).Elem()
			if !p.value(t.Elem(), elem, depth+1) {
				return false
			}
			v.Set(reflect.Append(v, elem))
			return true
		})
	case t.Kind() == reflect.String:
		s, ok := p.str()
		if ok {
			v.SetString(s)
		}
		return ok
	case t.Kind() == reflect.Bool:
		switch {
		case p.word("true"):
			v.SetBool(true)
		case !p.word("false"):
			return false
		}
		return true
	case t.Kind() >= reflect.Int && t.Kind() <= reflect.Uint64:
		n, integer, ok := p.number()
		if !ok || !integer || !fitsInteger(t, n) {
			return false
		}
		setInteger(v, n)
		return true
	}
	return false // floats, interfaces, anything else: the walk's
}

// object reads {"key": value, ...}; member reads each value, keys given once.
func (p *plain) object(member func(key string) bool) bool {
	if !p.eat('{') {
		return false
	}
	if p.eat('}') {
		return true
	}
	seen := map[string]bool{}
	for {
		key, ok := p.str()
		if !ok || seen[key] || !p.eat(':') || !member(key) {
			return false
		}
		seen[key] = true
		if p.eat('}') {
			return true
		}
		if !p.eat(',') {
			return false
		}
	}
}

// array reads [value, ...].
func (p *plain) array(elem func() bool) bool {
	if !p.eat('[') {
		return false
	}
	if p.eat(']') {
		return true
	}
	for {
		if !elem() {
			return false
		}
		if p.eat(']') {
			return true
		}
		if !p.eat(',') {
			return false
		}
	}
}

// skip reads any value of the plain subset (a free-form one).
func (p *plain) skip(depth int) bool {
	if depth >= MaxDepth-1 {
		return false
	}
	p.ws()
	if p.i >= len(p.b) {
		return false
	}
	switch p.b[p.i] {
	case '{':
		return p.object(func(string) bool { return p.skip(depth + 1) })
	case '[':
		return p.array(func() bool { return p.skip(depth + 1) })
	case '"':
		_, ok := p.str()
		return ok
	case 't':
		return p.word("true")
	case 'f':
		return p.word("false")
	case 'n':
		return p.word("null")
	}
	_, _, ok := p.number()
	return ok
}
