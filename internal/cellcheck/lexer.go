package cellcheck

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// tokKind classifies the tokens the module check needs. The lexer does not
// need to be a full JavaScript lexer; it needs to know, for every identifier,
// whether it is code or inside a string, comment, template text or regex.
type tokKind uint8

const (
	tokEOF      tokKind = iota
	tokIdent            // identifiers and keywords; text holds the decoded name
	tokPrivate          // #name: never a global, so never module loading
	tokPunct            // one punctuator; text holds it
	tokString           // '...' or "..."
	tokTemplate         // a template piece: `...`, `...${, }...${ or }...`
	tokNumber
	tokRegex
)

type token struct {
	kind tokKind
	text string // the name (tokIdent, tokPrivate) or the punctuator (tokPunct)
	line int    // 1-based line of the token's first character
	// open is true for template pieces that end in "${" (more code follows);
	// cont for those that start after the "}" closing a substitution.
	open, cont bool
	// start and end are the token's byte offsets in the source.
	start, end int
}

// lexer splits JavaScript (and, well enough, TypeScript) into tokens in one
// pass, in O(len(src)) time and O(nesting of template literals) memory. It
// never fails: unterminated strings, comments, regexes and templates simply end
// at the end of their line (strings, regexes) or of the input.
type lexer struct {
	src  string
	pos  int
	line int
	prev token // the previous significant token, for the regex heuristic
	// braces counts open { in code; templ holds the brace count at each
	// enclosing "${", so the matching } resumes the template's text.
	braces int
	templ  []int
	// tokStart is where the token being scanned began.
	tokStart int
}

func newLexer(src string) *lexer {
	l := &lexer{src: src, line: 1}
	if strings.HasPrefix(src, "#!") { // hashbang: a comment when at offset 0
		l.skipLine()
	}
	return l
}

// next returns the next significant token (comments and white space skipped).
func (l *lexer) next() token {
	t := l.scan()
	t.end = l.pos
	if t.kind != tokEOF {
		l.prev = t
	}
	return t
}

func (l *lexer) scan() token {
	for l.pos < len(l.src) {
		c := l.src[l.pos]
		switch {
		case c == '\n':
			l.line++
			l.pos++
		case c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f':
			l.pos++
		case c == '/' && l.peek(1) == '/':
			l.skipLine()
		case c == '/' && l.peek(1) == '*':
			l.skipBlockComment()
		case c >= 0x80:
			l.tokStart = l.pos
			r, n := utf8.DecodeRuneInString(l.src[l.pos:])
			switch r {
			case '\u2028', '\u2029': // JavaScript line terminators
				l.line++
				l.pos += n
			case '\u00a0', '\ufeff', '\u1680', '\u3000', '\u202f', '\u205f':
				l.pos += n
			default:
				if r >= '\u2000' && r <= '\u200a' { // Unicode spaces
					l.pos += n
					continue
				}
				t := l.ident()
				t.start = l.tokStart
				return t
			}
		default:
			l.tokStart = l.pos
			t := l.token(c)
			t.start = l.tokStart
			return t
		}
	}
	return token{kind: tokEOF, line: l.line}
}

func (l *lexer) token(c byte) token {
	start, line := l.pos, l.line
	switch {
	case isIdentStart(c):
		return l.ident()
	case c >= '0' && c <= '9', c == '.' && isDigit(l.peek(1)):
		l.number()
		return token{kind: tokNumber, line: line}
	case c == '"' || c == '\'':
		l.string(c)
		return token{kind: tokString, line: line}
	case c == '`':
		l.pos++
		return l.template(line)
	case c == '#':
		l.pos++
		if l.pos < len(l.src) && (isIdentStart(l.src[l.pos]) || l.src[l.pos] >= 0x80) {
			t := l.ident()
			return token{kind: tokPrivate, text: t.text, line: line}
		}
		return token{kind: tokPunct, text: "#", line: line}
	case c == '/' && l.regexAllowed():
		l.regex()
		return token{kind: tokRegex, line: line}
	case c == '{':
		l.braces++
	case c == '}':
		if n := len(l.templ); n > 0 && l.templ[n-1] == l.braces {
			// Closes a "${": back into the template's text.
			l.templ = l.templ[:n-1]
			l.pos++
			t := l.template(line)
			t.cont = true
			return t
		}
		if l.braces > 0 {
			l.braces--
		}
	}
	l.pos++
	// Multi-character punctuators matter only where the checks look at them:
	// "?." (optional member access) and "=" versus "==", "=>".
	if c == '?' && l.peek(0) == '.' && !isDigit(l.peek(1)) {
		l.pos++
		return token{kind: tokPunct, text: "?.", line: line}
	}
	if c == '=' && (l.peek(0) == '=' || l.peek(0) == '>') {
		l.pos++
		if l.peek(0) == '=' {
			l.pos++
		}
	}
	return token{kind: tokPunct, text: l.src[start:l.pos], line: line}
}

func (l *lexer) peek(off int) byte {
	if l.pos+off < len(l.src) {
		return l.src[l.pos+off]
	}
	return 0
}

// skipLine skips to the end of the line (not past the newline, so it is counted).
func (l *lexer) skipLine() {
	for l.pos < len(l.src) && l.src[l.pos] != '\n' && l.src[l.pos] != '\r' && !l.atUnicodeNewline() {
		l.pos++
	}
}

func (l *lexer) atUnicodeNewline() bool {
	return strings.HasPrefix(l.src[l.pos:], "\u2028") || strings.HasPrefix(l.src[l.pos:], "\u2029")
}

func (l *lexer) skipBlockComment() {
	end := strings.Index(l.src[l.pos+2:], "*/")
	var body string
	if end < 0 {
		body, l.pos = l.src[l.pos:], len(l.src)
	} else {
		body = l.src[l.pos : l.pos+2+end+2]
		l.pos += 2 + end + 2
	}
	l.line += strings.Count(body, "\n")
}

// ident scans an identifier, decoding \uXXXX and \u{X} escapes: in JavaScript
// `\u0072equire` is the identifier require, and that must not slip through.
func (l *lexer) ident() token {
	start, line, escaped := l.pos, l.line, false
	for l.pos < len(l.src) {
		c := l.src[l.pos]
		switch {
		case isIdentPart(c):
			l.pos++
		case c == '\\':
			escaped = true
			l.pos++
			if l.peek(0) == 'u' && l.peek(1) == '{' { // \u{X}: skip the braces too
				if end := strings.IndexByte(l.src[l.pos:min(len(l.src), l.pos+12)], '}'); end > 0 {
					l.pos += end + 1
				}
			}
		case c >= 0x80:
			l.tokStart = l.pos
			r, n := utf8.DecodeRuneInString(l.src[l.pos:])
			if isSpaceOrNewline(r) {
				return l.identToken(start, line, escaped)
			}
			l.pos += n
		default:
			return l.identToken(start, line, escaped)
		}
	}
	return l.identToken(start, line, escaped)
}

func (l *lexer) identToken(start, line int, escaped bool) token {
	name := l.src[start:l.pos]
	if escaped {
		name = unescapeIdent(name)
	}
	return token{kind: tokIdent, text: name, line: line}
}

// unescapeIdent decodes identifier escapes; malformed ones stay as written
// (the engine rejects them anyway).
func unescapeIdent(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 >= len(s) || s[i+1] != 'u' {
			b.WriteByte(s[i])
			continue
		}
		hex, skip := "", 0
		if i+2 < len(s) && s[i+2] == '{' {
			if end := strings.IndexByte(s[i+3:], '}'); end >= 0 && end <= 8 {
				hex, skip = s[i+3:i+3+end], 3+end+1
			}
		} else if i+6 <= len(s) {
			hex, skip = s[i+2:i+6], 6
		}
		if v, err := strconv.ParseUint(hex, 16, 32); err == nil && hex != "" && utf8.ValidRune(rune(v)) {
			b.WriteRune(rune(v))
			i += skip - 1
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func (l *lexer) number() {
	for l.pos < len(l.src) {
		c := l.src[l.pos]
		if isIdentPart(c) || c == '.' {
			l.pos++
		} else if (c == '+' || c == '-') && (l.src[l.pos-1] == 'e' || l.src[l.pos-1] == 'E') {
			l.pos++
		} else {
			return
		}
	}
}

// string scans a quoted string. An unescaped line break ends it (it is a
// syntax error in JavaScript), so a stray quote cannot swallow the program.
func (l *lexer) string(q byte) {
	l.pos++
	for l.pos < len(l.src) {
		switch c := l.src[l.pos]; c {
		case q:
			l.pos++
			return
		case '\\':
			l.pos++
			if l.pos < len(l.src) && l.src[l.pos] == '\n' {
				l.line++ // line continuation
			}
			l.pos++
		case '\n', '\r':
			return
		default:
			l.pos++
		}
	}
}

// template scans template text after ` or after the } of a substitution, up to
// and including the closing ` or the next "${".
func (l *lexer) template(line int) token {
	for l.pos < len(l.src) {
		switch c := l.src[l.pos]; c {
		case '`':
			l.pos++
			return token{kind: tokTemplate, line: line}
		case '\\':
			if l.peek(1) == '\n' {
				l.line++
			}
			l.pos += 2
		case '$':
			if l.peek(1) == '{' {
				l.pos += 2
				l.templ = append(l.templ, l.braces)
				return token{kind: tokTemplate, line: line, open: true}
			}
			l.pos++
		case '\n':
			l.line++
			l.pos++
		default:
			l.pos++
		}
	}
	return token{kind: tokTemplate, line: line}
}

// regex scans a regular expression literal: a / inside [...] does not end it,
// and a line break does (regexes cannot span lines).
func (l *lexer) regex() {
	l.pos++
	inClass := false
	for l.pos < len(l.src) {
		switch c := l.src[l.pos]; {
		case c == '\\':
			l.pos += 2
			continue
		case c == '\n' || c == '\r':
			return
		case c == '[':
			inClass = true
		case c == ']':
			inClass = false
		case c == '/' && !inClass:
			l.pos++
			for l.pos < len(l.src) && isIdentPart(l.src[l.pos]) { // flags
				l.pos++
			}
			return
		}
		l.pos++
	}
}

// regexAllowed decides whether a / starts a regex or is division, from the
// previous significant token: after a value (identifier, literal, ")", "]")
// it divides; after an operator, a keyword that expects an expression, "}"
// or at the start, it starts a regex. This is the classic heuristic; it is
// wrong only for rare code such as `if (x) /re/.test(s)`, and a wrong guess
// never spreads beyond the current line.
func (l *lexer) regexAllowed() bool {
	switch p := l.prev; p.kind {
	case tokEOF:
		return true
	case tokIdent:
		return exprKeyword(p.text)
	case tokPunct:
		return p.text != ")" && p.text != "]"
	case tokTemplate:
		return p.open
	}
	return false
}

// exprKeyword reports a keyword after which an expression (so a regex) starts.
func exprKeyword(w string) bool {
	switch w {
	case "return", "typeof", "instanceof", "in", "of", "new", "delete", "void", "throw", "case",
		"do", "else", "yield", "await", "extends":
		return true
	}
	return false
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isIdentStart(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '$' || c == '\\'
}

func isIdentPart(c byte) bool { return isIdentStart(c) && c != '\\' || isDigit(c) }

func isSpaceOrNewline(r rune) bool {
	switch r {
	case '\u2028', '\u2029', '\u00a0', '\ufeff', '\u1680', '\u3000', '\u202f', '\u205f':
		return true
	}
	return r >= '\u2000' && r <= '\u200a'
}
