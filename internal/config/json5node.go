package config

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// Kind is the JSON type of a Node.
type Kind int

// The kinds of Node, one per JSON type.
const (
	KindNull Kind = iota
	KindBool
	KindNumber
	KindString
	KindArray
	KindObject
)

// String names the kind as a person editing a file would.
func (k Kind) String() string {
	return [...]string{"null", "a boolean", "a number", "a string", "an array", "an object"}[k]
}

// Pos is a 1-based line and column (in bytes) of an input.
type Pos struct {
	// Line is 1-based.
	Line int
	// Col is 1-based, in bytes.
	Col int
}

// String renders "line:col".
func (p Pos) String() string { return strconv.Itoa(p.Line) + ":" + strconv.Itoa(p.Col) }

// Node is one decoded JSON5 value with the position it starts at, so a config
// reader can report "file:line:col: key" for a value it refuses. Objects keep
// their keys in input order.
type Node struct {
	// Kind is the value's JSON type.
	Kind Kind
	// Pos is where the value starts.
	Pos Pos
	// Bool is a boolean's value.
	Bool bool
	// Num is the number's literal as written (hex, signs, Infinity included).
	Num string
	// Str is a string's value.
	Str string
	// Elems are an array's elements.
	Elems []*Node
	// Keys and Values are an object's members in order; KeyPos[i] is where
	// Keys[i] starts.
	Keys []string
	// KeyPos[i] is where Keys[i] starts.
	KeyPos []Pos
	// Values[i] is the value of Keys[i].
	Values []*Node
}

// Get returns the value of key in an object node, or nil.
func (n *Node) Get(key string) *Node {
	for i, k := range n.Keys {
		if k == key {
			return n.Values[i]
		}
	}
	return nil
}

// Float is a number node's value.
func (n *Node) Float() (float64, bool) {
	s := strings.TrimPrefix(n.Num, "+")
	neg := strings.HasPrefix(s, "-")
	u := strings.TrimPrefix(s, "-")
	switch {
	case u == "Infinity":
		if neg {
			return math.Inf(-1), true
		}
		return math.Inf(1), true
	case u == "NaN":
		return math.NaN(), true
	case strings.HasPrefix(u, "0x") || strings.HasPrefix(u, "0X"):
		v, err := strconv.ParseUint(u[2:], 16, 64)
		if neg {
			return -float64(v), err == nil
		}
		return float64(v), err == nil
	}
	f, err := strconv.ParseFloat(s, 64)
	return f, err == nil
}

// JSON renders the node as plain JSON (for handing a subtree to a JSON
// decoder); non-finite numbers, which JSON cannot hold, become null.
func (n *Node) JSON() string {
	var b strings.Builder
	n.writeJSON(&b)
	return b.String()
}

func (n *Node) writeJSON(b *strings.Builder) {
	switch n.Kind {
	case KindNull:
		b.WriteString("null")
	case KindBool:
		b.WriteString(strconv.FormatBool(n.Bool))
	case KindNumber:
		f, _ := n.Float()
		if math.IsInf(f, 0) || math.IsNaN(f) {
			b.WriteString("null")
		} else if json.Valid([]byte(n.Num)) {
			b.WriteString(n.Num) // the source text keeps its precision
		} else { // JSON5-only spellings: 0x10, +1, .5, 5., 1.e3
			b.WriteString(strconv.FormatFloat(f, 'g', -1, 64))
		}
	case KindString:
		writeJSONString(b, n.Str)
	case KindArray:
		b.WriteByte('[')
		for i, e := range n.Elems {
			if i > 0 {
				b.WriteByte(',')
			}
			e.writeJSON(b)
		}
		b.WriteByte(']')
	case KindObject:
		b.WriteByte('{')
		for i, k := range n.Keys {
			if i > 0 {
				b.WriteByte(',')
			}
			writeJSONString(b, k)
			b.WriteByte(':')
			n.Values[i].writeJSON(b)
		}
		b.WriteByte('}')
	}
}

// writeJSONString writes s as a JSON string literal.
func writeJSONString(b *strings.Builder, s string) {
	const hexDigits = "0123456789abcdef"
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20:
			b.WriteString(`\u00`)
			b.WriteByte(hexDigits[r>>4])
			b.WriteByte(hexDigits[r&0xf])
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
}

// SyntaxError is malformed JSON5 input, with where it went wrong.
type SyntaxError struct {
	// Pos is where the input went wrong.
	Pos Pos
	// Msg says what was wrong.
	Msg string
}

// Error renders "line:col: message".
func (e *SyntaxError) Error() string { return e.Pos.String() + ": " + e.Msg }

// DecodeJSON5 parses one JSON5 document (plain JSON included) into a Node
// tree: comments, unquoted and single-quoted keys, single-quoted strings,
// trailing commas, hex numbers, leading or trailing decimal points, explicit
// plus signs, Infinity and NaN. Duplicate keys, trailing data, nesting deeper
// than 64 levels and input over 1 MiB are errors.
func DecodeJSON5(data []byte) (*Node, error) {
	if len(data) > maxInputBytes {
		return nil, &SyntaxError{Pos{1, 1}, fmt.Sprintf("input is too large (%d bytes, at most %d)", len(data), maxInputBytes)}
	}
	if !utf8.Valid(data) {
		return nil, &SyntaxError{Pos{1, 1}, "input is not valid UTF-8"}
	}
	p := &parser{src: string(data), line: 1, lineStart: 0}
	p.space()
	if p.err != nil {
		return nil, p.err
	}
	if p.i >= len(p.src) {
		p.fail("input is empty; expected a JSON5 value")
		return nil, p.err
	}
	n := p.value(0)
	if p.err != nil {
		return nil, p.err
	}
	p.space()
	if p.err == nil && p.i < len(p.src) {
		p.fail("unexpected " + p.what() + " after the value")
	}
	if p.err != nil {
		return nil, p.err
	}
	return n, nil
}

type parser struct {
	src       string
	i         int
	line      int
	lineStart int
	err       *SyntaxError
}

func (p *parser) pos() Pos { return Pos{p.line, p.i - p.lineStart + 1} }

func (p *parser) fail(msg string) *Node {
	if p.err == nil {
		p.err = &SyntaxError{p.pos(), msg}
	}
	return nil
}

// what describes the input at the cursor for an error message.
func (p *parser) what() string {
	if p.i >= len(p.src) {
		return "end of input"
	}
	r, _ := utf8.DecodeRuneInString(p.src[p.i:])
	if unicode.IsPrint(r) {
		return strconv.QuoteRune(r)
	}
	return fmt.Sprintf("character U+%04X", r)
}

func (p *parser) newline(at int) { p.line++; p.lineStart = at + 1 }

// space skips whitespace and comments.
func (p *parser) space() {
	for p.i < len(p.src) {
		c := p.src[p.i]
		switch {
		case c == '\n':
			p.newline(p.i)
			p.i++
		case c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f':
			p.i++
		case c == '/' && p.i+1 < len(p.src) && p.src[p.i+1] == '/':
			for p.i < len(p.src) && p.src[p.i] != '\n' {
				p.i++
			}
		case c == '/' && p.i+1 < len(p.src) && p.src[p.i+1] == '*':
			end := strings.Index(p.src[p.i+2:], "*/")
			if end < 0 {
				p.fail("unterminated /* comment")
				return
			}
			stop := p.i + 2 + end + 2
			for ; p.i < stop; p.i++ {
				if p.src[p.i] == '\n' {
					p.newline(p.i)
				}
			}
		case c >= 0x80:
			r, size := utf8.DecodeRuneInString(p.src[p.i:])
			if r != '\u00a0' && r != '\ufeff' && r != '\u2028' && r != '\u2029' && !unicode.Is(unicode.Zs, r) {
				return
			}
			p.i += size
		default:
			return
		}
	}
}

func (p *parser) value(depth int) *Node {
	if depth >= maxDepth {
		return p.fail(fmt.Sprintf("nesting is deeper than %d levels", maxDepth))
	}
	if p.i >= len(p.src) {
		return p.fail("unexpected end of input; expected a value")
	}
	start := p.pos()
	switch c := p.src[p.i]; {
	case c == '{':
		return p.object(depth, start)
	case c == '[':
		return p.array(depth, start)
	case c == '"' || c == '\'':
		s, ok := p.str()
		if !ok {
			return nil
		}
		return &Node{Kind: KindString, Pos: start, Str: s}
	case c == '-' || c == '+' || c == '.' || c >= '0' && c <= '9':
		return p.number(start)
	}
	word := p.ident()
	switch word {
	case "true", "false":
		return &Node{Kind: KindBool, Pos: start, Bool: word == "true"}
	case "null":
		return &Node{Kind: KindNull, Pos: start}
	case "Infinity", "NaN":
		return &Node{Kind: KindNumber, Pos: start, Num: word}
	}
	p.i = p.lineStart + start.Col - 1
	return p.fail("unexpected " + p.what() + "; expected a value")
}

func (p *parser) object(depth int, start Pos) *Node {
	n := &Node{Kind: KindObject, Pos: start}
	p.i++
	seen := map[string]bool{}
	for {
		p.space()
		if p.err != nil {
			return nil
		}
		if p.i < len(p.src) && p.src[p.i] == '}' {
			p.i++
			return n
		}
		kpos := p.pos()
		var key string
		if p.i < len(p.src) && (p.src[p.i] == '"' || p.src[p.i] == '\'') {
			s, ok := p.str()
			if !ok {
				return nil
			}
			key = s
		} else if key = p.ident(); key == "" {
			return p.fail("unexpected " + p.what() + "; expected a key or '}'")
		}
		if seen[key] {
			p.i = p.lineStart + kpos.Col - 1
			return p.fail("key " + quote(key) + " appears more than once")
		}
		seen[key] = true
		p.space()
		if p.err != nil {
			return nil
		}
		if p.i >= len(p.src) || p.src[p.i] != ':' {
			return p.fail("unexpected " + p.what() + "; expected ':' after key " + quote(key))
		}
		p.i++
		p.space()
		v := p.value(depth + 1)
		if p.err != nil {
			return nil
		}
		n.Keys, n.KeyPos, n.Values = append(n.Keys, key), append(n.KeyPos, kpos), append(n.Values, v)
		p.space()
		if p.err != nil {
			return nil
		}
		switch {
		case p.i < len(p.src) && p.src[p.i] == ',':
			p.i++
		case p.i < len(p.src) && p.src[p.i] == '}':
		default:
			return p.fail("unexpected " + p.what() + "; expected ',' or '}'")
		}
	}
}

func (p *parser) array(depth int, start Pos) *Node {
	n := &Node{Kind: KindArray, Pos: start}
	p.i++
	for {
		p.space()
		if p.err != nil {
			return nil
		}
		if p.i < len(p.src) && p.src[p.i] == ']' {
			p.i++
			return n
		}
		v := p.value(depth + 1)
		if p.err != nil {
			return nil
		}
		n.Elems = append(n.Elems, v)
		p.space()
		if p.err != nil {
			return nil
		}
		switch {
		case p.i < len(p.src) && p.src[p.i] == ',':
			p.i++
		case p.i < len(p.src) && p.src[p.i] == ']':
		default:
			return p.fail("unexpected " + p.what() + "; expected ',' or ']'")
		}
	}
}

// ident reads an ECMAScript identifier name (ASCII letters, digits, _ and $,
// and non-ASCII letters); "" when there is none.
func (p *parser) ident() string {
	start := p.i
	for p.i < len(p.src) {
		r, size := utf8.DecodeRuneInString(p.src[p.i:])
		if r == '_' || r == '$' || unicode.IsLetter(r) || (p.i > start && (unicode.IsDigit(r) || unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Pc, r))) {
			p.i += size
			continue
		}
		break
	}
	return p.src[start:p.i]
}

func (p *parser) number(start Pos) *Node {
	from := p.i
	if c := p.src[p.i]; c == '+' || c == '-' {
		p.i++
	}
	if w := p.ident(); w == "Infinity" || w == "NaN" {
		return &Node{Kind: KindNumber, Pos: start, Num: p.src[from:p.i]}
	} else if w != "" {
		p.i -= len(w)
	}
	digits := func() int {
		s := p.i
		for p.i < len(p.src) && p.src[p.i] >= '0' && p.src[p.i] <= '9' {
			p.i++
		}
		return p.i - s
	}
	if p.i+1 < len(p.src) && p.src[p.i] == '0' && (p.src[p.i+1] == 'x' || p.src[p.i+1] == 'X') {
		p.i += 2
		s := p.i
		for p.i < len(p.src) && strings.IndexByte("0123456789abcdefABCDEF", p.src[p.i]) >= 0 {
			p.i++
		}
		if p.i == s {
			return p.fail("hexadecimal number without digits")
		}
	} else {
		intStart := p.i
		n := digits()
		if n > 1 && p.src[intStart] == '0' {
			p.i = intStart
			return p.fail("numbers must not have leading zeros")
		}
		frac := 0
		if p.i < len(p.src) && p.src[p.i] == '.' {
			p.i++
			frac = digits()
		}
		if n == 0 && frac == 0 {
			return p.fail("malformed number")
		}
		if p.i < len(p.src) && (p.src[p.i] == 'e' || p.src[p.i] == 'E') {
			p.i++
			if p.i < len(p.src) && (p.src[p.i] == '+' || p.src[p.i] == '-') {
				p.i++
			}
			if digits() == 0 {
				return p.fail("malformed exponent")
			}
		}
	}
	if p.i < len(p.src) {
		if r, _ := utf8.DecodeRuneInString(p.src[p.i:]); r == '_' || r == '$' || unicode.IsLetter(r) || unicode.IsDigit(r) {
			return p.fail("unexpected " + p.what() + " in a number")
		}
	}
	return &Node{Kind: KindNumber, Pos: start, Num: p.src[from:p.i]}
}

// str reads a single- or double-quoted string with JSON5 escapes.
func (p *parser) str() (string, bool) {
	q := p.src[p.i]
	p.i++
	var b strings.Builder
	for {
		if p.i >= len(p.src) {
			p.fail("unterminated string")
			return "", false
		}
		c := p.src[p.i]
		switch {
		case c == q:
			p.i++
			return b.String(), true
		case c == '\n' || c == '\r':
			p.fail("line break inside a string (end the line with a backslash to continue it)")
			return "", false
		case c == '\\':
			if !p.escape(&b) {
				return "", false
			}
		default:
			b.WriteByte(c)
			p.i++
		}
	}
}

func (p *parser) escape(b *strings.Builder) bool {
	p.i++ // the backslash
	if p.i >= len(p.src) {
		p.fail("unterminated string")
		return false
	}
	c := p.src[p.i]
	p.i++
	switch c {
	case 'b':
		b.WriteByte('\b')
	case 'f':
		b.WriteByte('\f')
	case 'n':
		b.WriteByte('\n')
	case 'r':
		b.WriteByte('\r')
	case 't':
		b.WriteByte('\t')
	case 'v':
		b.WriteByte('\v')
	case '0':
		if p.i < len(p.src) && p.src[p.i] >= '0' && p.src[p.i] <= '9' {
			p.fail("octal escapes are not allowed")
			return false
		}
		b.WriteByte(0)
	case '\n':
		p.newline(p.i - 1)
	case '\r':
		if p.i < len(p.src) && p.src[p.i] == '\n' {
			p.i++
		}
		p.newline(p.i - 1)
	case 'x':
		v, ok := p.hex(2)
		if !ok {
			return false
		}
		b.WriteRune(rune(v))
	case 'u':
		v, ok := p.hex(4)
		if !ok {
			return false
		}
		r := rune(v)
		if utf16.IsSurrogate(r) && strings.HasPrefix(p.src[p.i:], `\u`) {
			save := p.i
			p.i += 2
			if lo, ok := p.hex(4); ok {
				if d := utf16.DecodeRune(r, rune(lo)); d != utf8.RuneError {
					b.WriteRune(d)
					return true
				}
			}
			p.err, p.i = nil, save
		}
		if utf16.IsSurrogate(r) {
			r = utf8.RuneError
		}
		b.WriteRune(r)
	default:
		if c >= '1' && c <= '9' {
			p.fail("octal escapes are not allowed")
			return false
		}
		// Any other character escapes to itself (JSON5), multi-byte ones too.
		p.i--
		r, size := utf8.DecodeRuneInString(p.src[p.i:])
		p.i += size
		b.WriteRune(r)
	}
	return true
}

func (p *parser) hex(n int) (uint64, bool) {
	if p.i+n > len(p.src) {
		p.fail("incomplete escape sequence")
		return 0, false
	}
	v, err := strconv.ParseUint(p.src[p.i:p.i+n], 16, 32)
	if err != nil {
		p.fail("invalid escape sequence")
		return 0, false
	}
	p.i += n
	return v, true
}
