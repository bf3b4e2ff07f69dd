package cellcheck

import (
	"errors"
	"strings"
	"testing"
)

func TestBoundsRefusePathologicalCells(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		ts        bool
		want      string
	}{
		{"JavaScript over 256 KiB", "return 1;" + strings.Repeat(" ", MaxJavaScriptBytes), false, "at most 262144 bytes"},
		{"TypeScript over 64 KiB", "return 1;" + strings.Repeat(" ", MaxTypeScriptBytes), true, "at most 65536 bytes"},
		{"nested arrow functions that crashed esbuild", "const f = " + strings.Repeat("() => ", 10000) + "1; return 1", true, "arrow functions"},
		{"nested braces", "return " + strings.Repeat("{", 20000), true, "brackets"},
		{"nested arrays", "return " + strings.Repeat("[", 101) + strings.Repeat("]", 101), false, "brackets"},
		{"nested template substitutions", "return " + strings.Repeat("`${", 101) + "1" + strings.Repeat("}`", 101), false, "brackets"},
		{"a run of prefix operators", "return " + strings.Repeat("!", 500) + "1", true, "prefix operators"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := Bounds(tc.src, tc.ts)
			var be *BoundsError
			if !errors.As(err, &be) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Bounds = %v, want a bounds error containing %q", err, tc.want)
			}
		})
	}
}

func TestBoundsAcceptOrdinaryCells(t *testing.T) {
	for _, src := range []string{
		"return 1",
		"const f = (a) => (b) => a + b; return f(1)(2)",
		"return " + strings.Repeat("[", 100) + strings.Repeat("]", 100),
		"return `a ${`b ${1}`} c ${2}`",
		"let x = 1; x = -x; return !!x && typeof x === 'number' && - -x",
		strings.Repeat("const a = () => 1;\n", 2000),
		"return " + strings.Repeat("f(1) + ", 5000) + "1",
	} {
		if err := Bounds(src, true); err != nil {
			t.Errorf("Bounds(%.60q) = %v", src, err)
		}
	}
}

func TestOverclosed(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want bool
	}{
		{"return (1 +", false},
		{"return 1 +", false},
		{"if (x) {\n  foo(", false},
		{"const s = `a${b", false},
		{"return 1;\n}", true},
		{"}\n{", true},
		{"f(1));", true},
		{"const s = '}';", false},
		{"// }\nreturn 1", false},
		{"const s = `}${1}`", false},
	} {
		if got := Overclosed(tc.src); got != tc.want {
			t.Errorf("Overclosed(%q) = %v, want %v", tc.src, got, tc.want)
		}
	}
}
