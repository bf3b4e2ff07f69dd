package wordset_test

import (
	"fmt"
	"testing"

	"github.com/codemode-go/codemode/internal/wordset"
)

func TestSet(t *testing.T) {
	for _, tc := range []struct {
		set    wordset.Set
		word   string
		has    bool
		sorted bool
	}{
		{wordset.Set{"a", "b", "c"}, "b", true, true},
		{wordset.Set{"a", "b", "c"}, "bb", false, true},
		{wordset.Set{"a", "b", "c"}, "", false, true},
		{wordset.Set{}, "a", false, true},
		{wordset.Set{"b", "a"}, "z", false, false},
		{wordset.Set{"a", "a"}, "a", true, false},
	} {
		if got := tc.set.Has(tc.word); got != tc.has {
			t.Errorf("%q.Has(%q) = %v", tc.set, tc.word, got)
		}
		if _, _, ok := tc.set.Check(); ok != tc.sorted {
			t.Errorf("%q.Check() ok = %v", tc.set, ok)
		}
	}
}

func Example() {
	shells := wordset.Set{"bash", "sh", "zsh"}
	fmt.Println(shells.Has("sh"), shells.Has("fish"))
	_, _, ok := shells.Check()
	fmt.Println(ok)
	// Output:
	// true false
	// true
}
