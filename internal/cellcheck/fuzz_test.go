package cellcheck

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

var fuzzSeeds = []string{
	"ls -la", "import x from 'y'", "require('fs')", "`${`${require(1)}`}`", "/[/]/", "a / b / c",
	"'unterminated", "/* unterminated", "`unterminated ${", "\\u{72}equire(1)", "#!/bin/sh\nls",
	"}}}}}", "{{{{ ${ `", "$ ls", "FOO=1 make", "export X=1", "ls | wc | sort", "\u2028\u2029",
	"define('a', [], f)", "x = y\n/re/g", "\xff\xfe", "#", "#!", "\\", "\\u{", "\\u{110000}",
}

// FuzzTokenize: the lexer must never panic, always advance (it terminates),
// and report lines that never go backwards or past the input's line count.
func FuzzTokenize(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		maxLine := strings.Count(src, "\n") + strings.Count(src, "\u2028") + strings.Count(src, "\u2029") + 1
		l := newLexer(src)
		last := 1
		for n := 0; ; n++ {
			if n > len(src)+1 {
				t.Fatalf("more tokens than bytes in %q", src)
			}
			pos := l.pos
			tok := l.next()
			if tok.kind == tokEOF {
				break
			}
			if l.pos <= pos {
				t.Fatalf("no progress at %d in %q", pos, src)
			}
			if tok.line < last || tok.line > maxLine {
				t.Fatalf("token line %d after %d (max %d) in %q", tok.line, last, maxLine, src)
			}
			last = tok.line
		}
	})
}

// FuzzCheck: Check must never panic, must answer nil or an *Error of a known
// kind with a line inside the input.
func FuzzCheck(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		err := Check(src) // a hang is caught by the fuzzer's own timeout
		if err == nil {
			return
		}
		var ce *Error
		if !errors.As(err, &ce) {
			t.Fatalf("error %v is %T", err, err)
		}
		maxLine := strings.Count(src, "\n") + strings.Count(src, "\u2028") + strings.Count(src, "\u2029") + 1
		if ce.Kind != KindModule && ce.Kind != KindShell || ce.Line < 1 || ce.Line > maxLine {
			t.Fatalf("bad error %+v for %q", ce, src)
		}
		if len(ce.Error()) > 600 {
			t.Fatalf("error message of %d bytes", len(ce.Error()))
		}
	})
}

// adversarial are inputs built to make a careless scanner backtrack.
var adversarial = []string{
	"ls | ", "`${", "${`", "((((", "))))", "/* ", "'", "/[/", "a/b/", "\\u0061", "#!",
	"require(", "import(", "{{", "}}", "define(", "x.", "\u2028", "// \n", "ls -la\n",
}

// TestAdversarialInputsTerminate checks large adversarial inputs once each; how
// their cost grows with size is measured by BenchmarkCheckAdversarial, not here
// (timing assertions in unit tests fail on a busy machine).
func TestAdversarialInputsTerminate(t *testing.T) {
	for _, p := range adversarial {
		_ = Check(strings.Repeat(p, 200_000/len(p)+1))
	}
}

// BenchmarkCheckAdversarial reports ns/op at two sizes per pattern; a linear
// scanner shows about 4x between /50KB and /200KB.
func BenchmarkCheckAdversarial(b *testing.B) {
	for i, p := range adversarial {
		for _, size := range []int{50_000, 200_000} {
			src := strings.Repeat(p, size/len(p)+1)
			b.Run(fmt.Sprintf("pattern%02d/%dKB", i, size/1000), func(b *testing.B) {
				b.SetBytes(int64(len(src)))
				for b.Loop() {
					_ = Check(src)
				}
			})
		}
	}
}

// FuzzModulePrefilter: the word prefilter never hides a module construct the
// token walk finds.
func FuzzModulePrefilter(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		if !mayLoadModules(src) && checkModulesWalk(src) != nil {
			t.Fatalf("prefilter skipped %q: %v", src, checkModulesWalk(src))
		}
	})
}

// checkModulesWalk is checkModules without its prefilter.
func checkModulesWalk(src string) *Error {
	return checkModules("/*\\*/" + src)
}
