// Package wordset is a fixed list of words kept sorted and searched by binary
// search. A Set written as a literal of constants is static data: unlike a
// map literal, package init builds nothing at a program's start (a page's
// core starts often, on V8's baseline code), and unlike a switch over many
// words it adds no large function for V8 to compile on first use.
package wordset

import "slices"

// Set is a strictly increasing list of words (Check says where it is not).
type Set []string

// Has reports whether w is in the set.
func (s Set) Has(w string) bool {
	_, ok := slices.BinarySearch(s, w)
	return ok
}

// Check returns the first pair of neighbours out of order or repeated, for a
// test beside each list: Has cannot find a word that breaks the order.
func (s Set) Check() (before, after string, ok bool) {
	for i := 1; i < len(s); i++ {
		if s[i-1] >= s[i] {
			return s[i-1], s[i], false
		}
	}
	return "", "", true
}
