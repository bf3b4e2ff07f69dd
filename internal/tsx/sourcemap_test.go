package tsx

import (
	"strings"
	"testing"
)

// Positions in the transformed body map back to the TypeScript lines, also
// when esbuild put helper lines before the body (lowered `using`).
func TestLineMapPointsAtTypeScriptLines(t *testing.T) {
	for name, src := range map[string]string{
		"types only": "type A = { x: number };\ninterface B {\n  y: string;\n}\nconst a: A = { x: 1 };\nthrow new Error(String(a.x));",
		"helpers":    "type A = { x: number };\nusing r = { [Symbol.dispose]() {} };\ninterface B {\n  y: string;\n}\nthrow new Error(String(1));",
	} {
		t.Run(name, func(t *testing.T) {
			js, lm, err := TransformMapped(src)
			if err != nil {
				t.Fatal(err)
			}
			want := strings.Count(src[:strings.Index(src, "throw")], "\n") + 1
			lines := strings.Split(js, "\n")
			for i, l := range lines {
				if c := strings.Index(l, "throw new Error"); c >= 0 {
					got, col, ok := lm.Position(i+1, c+1)
					if !ok || got != want || col != 1 {
						t.Fatalf("js line %d col %d -> %d:%d (%v), want line %d col 1\n%s", i+1, c+1, got, col, ok, want, js)
					}
					return
				}
			}
			t.Fatalf("no throw in %s", js)
		})
	}
}

// A map is decoded on the first Position only; one that does not decode maps
// nothing (ok false), as for code the transform added, and never panics.
func TestLineMapThatDoesNotDecodeMapsNothing(t *testing.T) {
	for name, raw := range map[string]string{
		"not a map":     `"nope"`,
		"bad mappings":  `{"version":3,"sources":["a"],"mappings":"!!!"}`,
		"wrong version": `{"version":99,"sources":["a"],"mappings":"AAAA"}`,
	} {
		t.Run(name, func(t *testing.T) {
			js, lm, err := Decode([]byte(`{"js":"return 1","map":` + raw + `,"preamble":0}`))
			if err != nil || js != "return 1" || lm == nil {
				t.Fatalf("Decode = %q, %v, %v", js, lm, err)
			}
			for range 2 {
				if l, c, ok := lm.Position(1, 1); ok {
					t.Fatalf("Position = %d:%d, ok; want not ok", l, c)
				}
			}
		})
	}
}
