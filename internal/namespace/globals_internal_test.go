package namespace

import "testing"

// TestBuiltinGlobalsSorted: builtinGlobal binary-searches builtinGlobals, so
// the list must be strictly increasing (a name out of order would silently
// become a namespace's to take).
func TestBuiltinGlobalsSorted(t *testing.T) {
	for i := 1; i < len(builtinGlobals); i++ {
		if builtinGlobals[i-1] >= builtinGlobals[i] {
			t.Errorf("%q before %q: keep builtinGlobals sorted and without duplicates", builtinGlobals[i-1], builtinGlobals[i])
		}
	}
	for _, n := range []string{"tools", "ALL_TOOLS", "Promise", "exports", "yield_control"} {
		if !builtinGlobal(n) {
			t.Errorf("builtinGlobal(%q) = false", n)
		}
	}
}
