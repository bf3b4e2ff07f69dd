package jsident

import (
	"testing"

	"github.com/codemode-go/codemode/internal/wordset"
)

func TestTables(t *testing.T) {
	for _, tc := range []struct {
		s                                   string
		ident, reserved, restricted, member bool
	}{
		{"tools", true, false, false, false},
		{"class", true, true, true, false},
		{"await", true, true, true, false},
		{"let", true, true, true, false},
		{"eval", true, false, true, false},
		{"undefined", true, false, true, false},
		{"then", true, false, false, true},
		{"__proto__", true, false, false, true},
		{"toJSON", true, false, false, true},
		{"$api", true, false, false, false},
		{"_1", true, false, false, false},
		{"1a", false, false, false, false},
		{"a-b", false, false, false, false},
		{"", false, false, false, false},
		{"ünïcode", false, false, false, false},
	} {
		if got := IsIdentifier(tc.s); got != tc.ident {
			t.Errorf("IsIdentifier(%q) = %v", tc.s, got)
		}
		if got := Reserved(tc.s); got != tc.reserved {
			t.Errorf("Reserved(%q) = %v", tc.s, got)
		}
		if got := Restricted(tc.s); got != tc.restricted {
			t.Errorf("Restricted(%q) = %v", tc.s, got)
		}
		if got := ObjectMember(tc.s); got != tc.member {
			t.Errorf("ObjectMember(%q) = %v", tc.s, got)
		}
	}
}

// TestListsSorted: a word out of order would silently not be found.
func TestListsSorted(t *testing.T) {
	for name, l := range map[string]wordset.Set{"reserved": reserved, "restricted": restricted, "objectMembers": objectMembers} {
		if a, b, ok := l.Check(); !ok {
			t.Errorf("%s: %q before %q: keep the list sorted and without duplicates", name, a, b)
		}
	}
}
