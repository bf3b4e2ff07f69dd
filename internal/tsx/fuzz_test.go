package tsx

import (
	"errors"
	"testing"
)

// FuzzTransform: Transform sees model-written source. It must never panic,
// must fail only with a *Diagnostic inside the source's line range, and every
// success must be a valid JavaScript function body.
func FuzzTransform(f *testing.F) {
	for _, s := range []string{
		"return 1", "const x: number = await f();", "}", "}\n{", "{", "`${", "/*", "enum E {A}",
		"class A { @d m() {} }", "await using x = y;", "let y x", "\r\n\r\n", "é\n\tx",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		js, err := Transform(src)
		if err != nil {
			var d *Diagnostic
			if !errors.As(err, &d) {
				t.Fatalf("error %v is %T, want *Diagnostic", err, err)
			}
			if d.Line < 1 || d.Column < 1 || d.More < 0 {
				t.Fatalf("bad position in %+v for %q", d, src)
			}
			return
		}
		assertValidBody(t, js)
	})
}
