package namespace

import "testing"

// TestBuiltinGlobalsSorted: a name out of order would silently become a
// namespace's to take.
func TestBuiltinGlobalsSorted(t *testing.T) {
	if a, b, ok := builtinGlobals.Check(); !ok {
		t.Errorf("%q before %q: keep builtinGlobals sorted and without duplicates", a, b)
	}
	for _, n := range []string{"tools", "ALL_TOOLS", "Promise", "exports", "yield_control"} {
		if !builtinGlobal(n) {
			t.Errorf("builtinGlobal(%q) = false", n)
		}
	}
}
