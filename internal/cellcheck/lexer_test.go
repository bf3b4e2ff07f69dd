package cellcheck

import (
	"reflect"
	"testing"
)

// idents lists the identifiers the lexer sees as code, with their lines.
func idents(src string) []string {
	var out []string
	for _, t := range tokenize(src) {
		if t.kind == tokIdent {
			out = append(out, t.text)
		}
	}
	return out
}

func TestLexerIdentifiers(t *testing.T) {
	tests := []struct {
		src  string
		want []string
	}{
		{"a + b", []string{"a", "b"}},
		{`a("x y", 'z')`, []string{"a"}},
		{`"a \" b" + c`, []string{"c"}},
		{`'a \' b' + c`, []string{"c"}},
		{"a // b c\nd", []string{"a", "d"}},
		{"a /* b\nc */ d", []string{"a", "d"}},
		{"`a ${b} c ${d + `e ${f}`} g` + h", []string{"b", "d", "f", "h"}},
		{"`${ {a: b}.a } x`", []string{"a", "b", "a"}},
		{"x = /a b/g.test(c)", []string{"x", "test", "c"}},
		{"x = a / b / c", []string{"x", "a", "b", "c"}},
		{"return /re/", []string{"return"}},
		{"x = [/[/]/]", []string{"x"}},
		{"(a) / b / c", []string{"a", "b", "c"}},
		{"a[0] / b", []string{"a", "b"}},
		{"if (x) {} /re/.test(y)", []string{"if", "x", "test", "y"}},
		{"\\u0061bc", []string{"abc"}},
		{"\\u{62}c", []string{"bc"}},
		{"caf\u00e9 + \u03c0", []string{"caf\u00e9", "\u03c0"}},
		{"a\u00a0b", []string{"a", "b"}},
		{"#!/usr/bin/env node\nx", []string{"x"}},
		{"this.#p + q", []string{"this", "q"}},
		{"1.5e+3 + 0x1F + .5 + n", []string{"n"}},
		{"x?.y ?? z", []string{"x", "y", "z"}},
		{"'unterminated\nnext", []string{"next"}},
	}
	for _, tt := range tests {
		if got := idents(tt.src); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("idents(%q) = %q, want %q", tt.src, got, tt.want)
		}
	}
}

func TestLexerLines(t *testing.T) {
	src := "a\n'b'\n/* c\n */ d\n`e\n${f}`\ng\u2028h\r\ni"
	want := map[string]int{"a": 1, "d": 4, "f": 6, "g": 7, "h": 8, "i": 9}
	for _, tok := range tokenize(src) {
		if tok.kind == tokIdent && want[tok.text] != tok.line {
			t.Errorf("%s on line %d, want %d", tok.text, tok.line, want[tok.text])
		}
	}
}
