// Package strictjson checks and re-serializes JSON text that crosses from the
// guest to the host. The guest's JSON.stringify is guest code, and a guest that
// reached the raw bridge could hand the host any bytes; the host therefore
// never passes guest-serialized JSON on as it is. Canonical accepts only what
// every consumer reads the same way and writes it compactly:
//
//   - valid UTF-8 and no lone surrogate escapes (\ud800 alone would become
//     U+FFFD in one decoder and an error in another);
//   - finite numbers (1e400 is +Inf to a float64 decoder, an error to others);
//   - no duplicate object keys (decoders disagree on which one wins);
//   - at most MaxDepth levels of nesting, and nothing after the value.
//
// encoding/json accepts all three of the first kinds silently, which is why
// this is a separate, small scanner rather than a json.Valid call.
//
// CanonicalWellFormed is the one relaxation, for text the guest's own
// JSON.stringify wrote: a JavaScript string may hold a lone surrogate, which
// JSON.stringify writes as a \uXXXX escape. It becomes U+FFFD, as the WHATWG
// rule for well-formed strings (USVString, String.prototype.toWellFormed)
// says, so every decoder reads the same character and the cell does not fail
// for a broken emoji. Everything else stays refused.
package strictjson

import (
	"fmt"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// MaxDepth bounds nesting (the guest's output adapter stops at 64 levels).
const MaxDepth = 256

// Error says what is wrong and where (byte offset in the input).
type Error struct {
	Offset int
	Msg    string
}

func (e *Error) Error() string { return fmt.Sprintf("not strict JSON: %s at byte %d", e.Msg, e.Offset) }

// Canonical validates src and returns it without insignificant white space.
func Canonical(src []byte) ([]byte, error) { return canonical(src, false) }

// CanonicalWellFormed is Canonical, except that a lone surrogate escape
// (\ud800 without its pair, or \udc00 alone) becomes the escape of U+FFFD
// instead of an error. Raw bytes that are not UTF-8 are still refused.
func CanonicalWellFormed(src []byte) ([]byte, error) { return canonical(src, true) }

func canonical(src []byte, wellFormed bool) ([]byte, error) {
	p := &parser{src: src, out: make([]byte, 0, len(src)), wellFormed: wellFormed}
	p.ws()
	if err := p.value(0); err != nil {
		return nil, err
	}
	p.ws()
	if p.pos != len(src) {
		return nil, p.fail("unexpected data after the value")
	}
	return p.out, nil
}

// CanonicalString is Canonical for a string.
func CanonicalString(src string) (string, error) {
	b, err := Canonical([]byte(src))
	return string(b), err
}

// CanonicalWellFormedString is CanonicalWellFormed for a string.
func CanonicalWellFormedString(src string) (string, error) {
	b, err := CanonicalWellFormed([]byte(src))
	return string(b), err
}

type parser struct {
	src        []byte
	pos        int
	out        []byte
	wellFormed bool // lone surrogate escapes become U+FFFD
}

// replacement is what a lone surrogate escape becomes in well-formed mode.
const replacement = `\ufffd`

func (p *parser) fail(msg string) error { return &Error{Offset: p.pos, Msg: msg} }

func (p *parser) ws() {
	for p.pos < len(p.src) {
		switch p.src[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

func (p *parser) value(depth int) error {
	if depth > MaxDepth {
		return p.fail("nested too deeply")
	}
	if p.pos >= len(p.src) {
		return p.fail("unexpected end")
	}
	switch c := p.src[p.pos]; {
	case c == '{':
		return p.object(depth)
	case c == '[':
		return p.array(depth)
	case c == '"':
		_, err := p.str()
		return err
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number()
	default:
		for _, lit := range []string{"true", "false", "null"} {
			if len(p.src)-p.pos >= len(lit) && string(p.src[p.pos:p.pos+len(lit)]) == lit {
				p.out = append(p.out, lit...)
				p.pos += len(lit)
				return nil
			}
		}
		return p.fail("invalid value")
	}
}

func (p *parser) object(depth int) error {
	p.pos++
	p.out = append(p.out, '{')
	p.ws()
	if p.pos < len(p.src) && p.src[p.pos] == '}' {
		p.pos++
		p.out = append(p.out, '}')
		return nil
	}
	seen := map[string]struct{}{}
	for {
		p.ws()
		if p.pos >= len(p.src) || p.src[p.pos] != '"' {
			return p.fail("expected an object key")
		}
		at := p.pos
		key, err := p.str()
		if err != nil {
			return err
		}
		if _, dup := seen[key]; dup {
			return &Error{Offset: at, Msg: "duplicate key " + strconv.Quote(key)}
		}
		seen[key] = struct{}{}
		p.ws()
		if p.pos >= len(p.src) || p.src[p.pos] != ':' {
			return p.fail("expected ':'")
		}
		p.pos++
		p.out = append(p.out, ':')
		p.ws()
		if err := p.value(depth + 1); err != nil {
			return err
		}
		p.ws()
		if p.pos >= len(p.src) {
			return p.fail("unexpected end")
		}
		switch p.src[p.pos] {
		case ',':
			p.pos++
			p.out = append(p.out, ',')
		case '}':
			p.pos++
			p.out = append(p.out, '}')
			return nil
		default:
			return p.fail("expected ',' or '}'")
		}
	}
}

func (p *parser) array(depth int) error {
	p.pos++
	p.out = append(p.out, '[')
	p.ws()
	if p.pos < len(p.src) && p.src[p.pos] == ']' {
		p.pos++
		p.out = append(p.out, ']')
		return nil
	}
	for {
		p.ws()
		if err := p.value(depth + 1); err != nil {
			return err
		}
		p.ws()
		if p.pos >= len(p.src) {
			return p.fail("unexpected end")
		}
		switch p.src[p.pos] {
		case ',':
			p.pos++
			p.out = append(p.out, ',')
		case ']':
			p.pos++
			p.out = append(p.out, ']')
			return nil
		default:
			return p.fail("expected ',' or ']'")
		}
	}
}

// str copies a string literal and returns its decoded value (for key checks).
// from is where the next copy to out starts: a replaced escape is skipped.
func (p *parser) str() (string, error) {
	from := p.pos
	p.pos++
	var dec []byte
	for {
		if p.pos >= len(p.src) {
			return "", p.fail("unterminated string")
		}
		c := p.src[p.pos]
		switch {
		case c == '"':
			p.pos++
			p.out = append(p.out, p.src[from:p.pos]...)
			return string(dec), nil
		case c < 0x20:
			return "", p.fail("control character in a string")
		case c == '\\':
			if p.pos+1 >= len(p.src) {
				return "", p.fail("unterminated escape")
			}
			e := p.src[p.pos+1]
			switch e {
			case '"', '\\', '/':
				dec = append(dec, e)
			case 'b':
				dec = append(dec, '\b')
			case 'f':
				dec = append(dec, '\f')
			case 'n':
				dec = append(dec, '\n')
			case 'r':
				dec = append(dec, '\r')
			case 't':
				dec = append(dec, '\t')
			case 'u':
				r, n, err := p.unicodeEscape()
				if err != nil {
					return "", err
				}
				if n == 0 { // a lone surrogate, replaced
					p.out = append(p.out, p.src[from:p.pos]...)
					p.out = append(p.out, replacement...)
					n, from = 6, p.pos+6
				}
				dec = utf8.AppendRune(dec, r)
				p.pos += n
				continue
			default:
				return "", p.fail("invalid escape")
			}
			p.pos += 2
		case c < utf8.RuneSelf:
			dec = append(dec, c)
			p.pos++
		default:
			r, n := utf8.DecodeRune(p.src[p.pos:])
			if r == utf8.RuneError && n <= 1 {
				return "", p.fail("invalid UTF-8")
			}
			if r >= 0xD800 && r <= 0xDFFF { // never decoded by Go, kept for clarity
				return "", p.fail("lone surrogate")
			}
			dec = append(dec, p.src[p.pos:p.pos+n]...)
			p.pos += n
		}
	}
}

// unicodeEscape decodes \uXXXX (and a following low surrogate) at p.pos; n
// is how many bytes it used. In well-formed mode a lone surrogate answers
// U+FFFD with n == 0: the caller writes the replacement and skips 6 bytes.
func (p *parser) unicodeEscape() (rune, int, error) {
	hex := func(at int) (rune, bool) {
		if at+6 > len(p.src) || p.src[at] != '\\' || p.src[at+1] != 'u' {
			return 0, false
		}
		v, err := strconv.ParseUint(string(p.src[at+2:at+6]), 16, 32)
		return rune(v), err == nil
	}
	r, ok := hex(p.pos)
	if !ok {
		return 0, 0, p.fail("invalid \\u escape")
	}
	lone := func() (rune, int, error) {
		if p.wellFormed {
			return utf8.RuneError, 0, nil
		}
		return 0, 0, p.fail("lone surrogate")
	}
	switch {
	case r >= 0xDC00 && r <= 0xDFFF:
		return lone()
	case r >= 0xD800 && r <= 0xDBFF:
		lo, ok := hex(p.pos + 6)
		if !ok || lo < 0xDC00 || lo > 0xDFFF {
			return lone()
		}
		return utf16.DecodeRune(r, lo), 12, nil
	}
	return r, 6, nil
}

func (p *parser) number() error {
	start := p.pos
	if p.src[p.pos] == '-' {
		p.pos++
	}
	digits := func() int {
		n := 0
		for p.pos < len(p.src) && p.src[p.pos] >= '0' && p.src[p.pos] <= '9' {
			p.pos++
			n++
		}
		return n
	}
	if p.pos < len(p.src) && p.src[p.pos] == '0' {
		p.pos++
	} else if digits() == 0 {
		return p.fail("invalid number")
	}
	if p.pos < len(p.src) && p.src[p.pos] == '.' {
		p.pos++
		if digits() == 0 {
			return p.fail("invalid number")
		}
	}
	if p.pos < len(p.src) && (p.src[p.pos] == 'e' || p.src[p.pos] == 'E') {
		p.pos++
		if p.pos < len(p.src) && (p.src[p.pos] == '+' || p.src[p.pos] == '-') {
			p.pos++
		}
		if digits() == 0 {
			return p.fail("invalid number")
		}
	}
	text := p.src[start:p.pos]
	if _, err := strconv.ParseFloat(string(text), 64); err != nil {
		return &Error{Offset: start, Msg: "number out of range " + strconv.Quote(string(text))}
	}
	p.out = append(p.out, text...)
	return nil
}
