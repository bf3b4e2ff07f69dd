// Package text is the one UTF-8-safe truncation helper of the module: every
// message, description and signature that is bounded in bytes is cut here, so
// none can end in half a character.
package text

import "unicode/utf8"

// Ellipsis marks a cut.
const Ellipsis = "…"

// Cut returns the longest prefix of s of at most n bytes that ends on a
// character boundary (n < 0 counts as 0).
func Cut(s string, n int) string {
	if n < 0 {
		n = 0
	}
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// Clip bounds s to n bytes in total: s itself when it fits, else a Cut of it
// followed by Ellipsis. When n is smaller than the ellipsis, the result is the
// cut alone.
func Clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	if n < len(Ellipsis) {
		return Cut(s, n)
	}
	return Cut(s, n-len(Ellipsis)) + Ellipsis
}
