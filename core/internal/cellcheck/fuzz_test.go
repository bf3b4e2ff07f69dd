package cellcheck

import (
	"errors"
	"strings"
	"testing"
	"time"
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
// kind with a line inside the input, and must do so quickly.
func FuzzCheck(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		start := time.Now()
		err := Check(src)
		if d := time.Since(start); d > time.Second {
			t.Fatalf("Check took %v on %d bytes", d, len(src))
		}
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

// TestLinearTime feeds large adversarial inputs: each must be checked in time
// roughly proportional to its size (4x the input may not cost much more than 4x
// the time; the slack absorbs noise on a busy machine).
func TestLinearTime(t *testing.T) {
	if testing.Short() {
		t.Skip("timing test")
	}
	patterns := []string{
		"ls | ", "`${", "${`", "((((", "))))", "/* ", "'", "/[/", "a/b/", "\\u0061", "#!",
		"require(", "import(", "{{", "}}", "define(", "x.", "\u2028", "// \n", "ls -la\n",
	}
	measure := func(s string) time.Duration {
		best := time.Duration(1 << 62)
		for range 3 {
			start := time.Now()
			_ = Check(s)
			best = min(best, time.Since(start))
		}
		return best
	}
	for _, p := range patterns {
		small := strings.Repeat(p, 50_000/len(p)+1)
		big := strings.Repeat(small, 4)
		ts, tb := measure(small), measure(big)
		if tb > time.Second {
			t.Errorf("%q x%d: %v", p, len(big)/len(p), tb)
		}
		if tb > 16*ts+20*time.Millisecond {
			t.Errorf("%q: 4x input took %v vs %v: not linear", p, tb, ts)
		}
	}
}
