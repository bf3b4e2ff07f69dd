package apifiles

import (
	"bytes"
	"encoding/json"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/codemode-go/codemode/internal/jsident"
)

// cleanText makes untrusted text safe inside a /** */ comment: valid UTF-8, no
// control or line-separator characters (newlines only when keepNewlines), no "*/".
func cleanText(s string, maxBytes int, keepNewlines bool) string {
	if !utf8.ValidString(s) {
		s = string(bytes.ToValidUTF8([]byte(s), []byte("\uFFFD")))
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\n' && keepNewlines:
			b.WriteRune('\n')
		case r == '\r' && keepNewlines:
		case unicode.IsControl(r) || r == '\u2028' || r == '\u2029':
			b.WriteRune(' ')
		default:
			b.WriteRune(r)
		}
		if b.Len() > maxBytes {
			break
		}
	}
	out := b.String()
	if len(out) > maxBytes {
		cut := maxBytes
		for cut > 0 && !utf8.RuneStart(out[cut]) {
			cut--
		}
		out = out[:cut] + "…"
	}
	return strings.ReplaceAll(out, "*/", "*\\/")
}

// docLines turns a description into at most maxLines comment lines.
func docLines(s string, maxBytes, maxLines int) []string {
	s = strings.TrimSpace(cleanText(s, maxBytes, true))
	if s == "" {
		return nil
	}
	lines := strings.Split(s, "\n")
	if len(lines) > maxLines {
		lines = append(lines[:maxLines], "…")
	}
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " \t")
	}
	return lines
}

// jsString quotes s as a JS/TS string literal that cannot open or close a comment.
func jsString(s string) string {
	raw, _ := json.Marshal(s) // strings always marshal; invalid UTF-8 becomes U+FFFD
	out := strings.ReplaceAll(string(raw), "*/", "*\\/")
	return strings.ReplaceAll(out, "/*", "\\/*")
}

// propKey renders an object-literal key: bare when it is an identifier, quoted
// otherwise (quoting keeps the original name the tool expects).
func propKey(s string) string {
	if jsident.IsIdentifier(s) {
		return s
	}
	return jsString(s)
}
