//go:build !codemode_hostjs

package tsx

import (
	"testing"
)

// What a core without the compiler decodes is what TransformMapped returned:
// the same body, the same positions through the line map, the same error text.
func TestWireRoundTrip(t *testing.T) {
	for _, src := range []string{
		"const n: number = 1;\nreturn n",
		"type A = { n: number };\nconst a: A = { n: 1 };\nthrow new Error('x' + a.n);",
		"@dec class C {}\nfunction dec(c: any) { return c }\nreturn 1", // a helper preamble
		"const n: = 1",
		"}\nfoo();\nfunction g() {",
	} {
		js, lm, err := TransformMapped(src)
		gotJS, gotLM, gotErr := Decode(Encode(js, lm, err))
		if (err == nil) != (gotErr == nil) || err != nil && err.Error() != gotErr.Error() {
			t.Errorf("%q: error %v, decoded %v", src, err, gotErr)
			continue
		}
		if gotJS != js {
			t.Errorf("%q: body %q, decoded %q", src, js, gotJS)
		}
		if err != nil {
			continue
		}
		for line := 1; line <= 6; line++ {
			for _, col := range []int{1, 5, 20} {
				l1, c1, ok1 := lm.Position(line, col)
				l2, c2, ok2 := gotLM.Position(line, col)
				if l1 != l2 || c1 != c2 || ok1 != ok2 {
					t.Errorf("%q: Position(%d, %d) = %d:%d %v, decoded %d:%d %v", src, line, col, l1, c1, ok1, l2, c2, ok2)
				}
			}
		}
	}
}

// Decode never panics and refuses what is not Encode's output with a
// sentence, never a decoder's words.
func FuzzDecode(f *testing.F) {
	f.Add([]byte(`{"js":"return 1","map":{"version":3,"sources":["a"],"mappings":"AAAA"},"preamble":2}`))
	f.Add([]byte(`{"error":"typescript:1:2: x"}`))
	f.Add([]byte(`{"js":"x","map":"nope"}`))
	f.Add([]byte(`[`))
	f.Fuzz(func(t *testing.T, b []byte) {
		js, lm, err := Decode(b)
		if err == nil && lm != nil {
			lm.Position(1, 1)
		}
		_ = js
	})
}
