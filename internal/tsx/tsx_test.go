package tsx

import (
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/evanw/esbuild/pkg/api"
)

// assertValidBody checks that js parses as plain JavaScript when wrapped the way
// the runtime wraps a cell (the body of an async function).
func assertValidBody(t *testing.T, js string) {
	t.Helper()
	res := api.Transform("(async () => {\n"+js+"\n})", api.TransformOptions{Loader: api.LoaderJS})
	if len(res.Errors) > 0 {
		t.Fatalf("output is not a valid JavaScript function body: %s\n%s", res.Errors[0].Text, js)
	}
}

func TestTransform(t *testing.T) {
	tests := []struct {
		name    string
		src     string
		want    []string // substrings of the output
		notWant []string
	}{
		{"types stripped", "const x: number = 1;\nlet s: string | null = null;", []string{"const x = 1;", "let s = null;"}, []string{"number", "string"}},
		{"top-level await", "const r = await tools.search('x');\ntext(r);", []string{"const r = await tools.search(\"x\");"}, nil},
		{"top-level return", "return 42;", []string{"return 42;"}, nil},
		{"await and return together", "const [t] = await tools.search('list shipments');\nreturn await tools.callValue(t.id, {}) as Shipment[];",
			[]string{"await tools.search(", "return await tools.callValue(t.id, {});"}, []string{"Shipment"}},
		{"interface and type alias vanish", "interface A { x: number }\ntype B = A[];\nconst b: B = [];\nreturn b;", []string{"const b = [];", "return b;"}, []string{"interface", "type B"}},
		{"generics", "function id<T>(x: T): T { return x }\nreturn id<number>(1);", []string{"function id(x)", "return id(1);"}, nil},
		{"angle-bracket cast", "const y = <any>x;", []string{"const y = x;"}, nil},
		{"as and satisfies", "const y = (x as unknown) satisfies unknown;", []string{"const y = x;"}, nil},
		{"non-null assertion", "return a!.b!;", []string{"return a.b;"}, nil},
		{"enum", "enum Color { Red, Green }\nreturn Color.Green;", []string{"Color", "Red"}, []string{"enum"}},
		{"class with modifiers", "class P { constructor(private readonly x: number) {} get(): number { return this.x } }\nreturn new P(1).get();", []string{"this.x = x;"}, []string{"private", "readonly"}},
		{"optional chaining kept (ES2023)", "return a?.b ?? c;", []string{"a?.b ?? c"}, nil},
		{"template literal text untouched", "const s = `line1\n}\n  line3 ${x}`;\nreturn s;", []string{"`line1\n}\n  line3 ${x}`"}, nil},
		{"unicode kept as written", "return 'grüße 🎉';", []string{"grüße 🎉"}, []string{`\u`}},
		{"empty cell", "", nil, []string{wrapName}},
		{"only comments", "// nothing here", nil, []string{wrapName}},
		{"using is lowered with hoisted helpers", "await using r = open();\nreturn 1;", []string{"var __using", "return 1;"}, []string{"await using", wrapName}},
		{"decorators are lowered", "function d(v: any, c: any) {}\nclass A { @d m() {} }\nreturn new A();", []string{"__decorateElement"}, []string{"@d", wrapName}},
		{"wrapper name in a string is not confused", "return `\nasync function " + wrapName + "() {\n`;", []string{"return `\nasync function " + wrapName + "() {\n`;"}, nil},
		{"CRLF input", "const a: number = 1;\r\nreturn a;\r\n", []string{"const a = 1;", "return a;"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			js, err := Transform(tt.src)
			if err != nil {
				t.Fatalf("Transform(%q) error: %v", tt.src, err)
			}
			for _, w := range tt.want {
				if !strings.Contains(js, w) {
					t.Errorf("output lacks %q:\n%s", w, js)
				}
			}
			for _, w := range tt.notWant {
				if strings.Contains(js, w) {
					t.Errorf("output contains %q:\n%s", w, js)
				}
			}
			assertValidBody(t, js)
		})
	}
}

func TestTransformDiagnostics(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want string // exact Error()
		line int
	}{
		{"expected semicolon", "const a = 1;\nconst b = 2;\nlet y x;", `typescript:3:7: Expected ";" but found "x"`, 3},
		{"first line", "x = 1 +;", `typescript:1:8: Unexpected ";"`, 1},
		{"column counts characters", "const é = 'ü'; let y x", `typescript:1:22: Expected ";" but found "x"`, 1},
		{"more errors counted", "const a = 1;\nconst a = 2;\nlet b = 1; let b = 2;", `typescript:2:7: The symbol "a" has already been declared (and 1 more error)`, 2},
		{"unclosed block points at end of source", "if (x) {\n  foo(", `typescript:2:7: unexpected end of the cell (a bracket, string, template or expression is left open)`, 2},
		{"import is rejected", "import x from 'y';\nreturn x;", `typescript:1:8: Unexpected "x"`, 1},
		{"export is rejected", "export const a = 1;", `typescript:1:1: Unexpected "export"`, 1},
		{"closing the wrapper early", "}\nfoo();\nfunction g() {", `typescript:2:1: Expected ")" but found "foo" (a "}" earlier closes more blocks than the cell opened)`, 2},
		{"closing the wrapper early, rebalanced for an arrow", "})\n;(async () => {", `typescript:1:2: Unexpected ")"`, 1},
		{"new.target has no meaning in a cell", "return new.target;", `typescript:1:8: Cannot use "new.target" here`, 1},
		{"stray closing brace", "return 1;\n}", `typescript:2:2: Unexpected "}"`, 2},
		{"yield outside generator", "yield 1", `typescript:1:1: Cannot use "yield" outside a generator function`, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			js, err := Transform(tt.src)
			if err == nil {
				t.Fatalf("Transform(%q) = %q, want error", tt.src, js)
			}
			var d *Diagnostic
			if !errors.As(err, &d) {
				t.Fatalf("error %v is %T, want *Diagnostic", err, err)
			}
			if err.Error() != tt.want {
				t.Errorf("Error() = %q, want %q", err.Error(), tt.want)
			}
			if d.Line != tt.line {
				t.Errorf("Line = %d, want %d", d.Line, tt.line)
			}
		})
	}
}

func TestDiagnosticRendering(t *testing.T) {
	for _, tt := range []struct {
		d    Diagnostic
		want string
	}{
		{Diagnostic{Line: 3, Column: 7, Text: `Expected ";" but found "x"`}, `typescript:3:7: Expected ";" but found "x"`},
		{Diagnostic{Line: 1, Column: 1, Text: "bad", More: 1}, "typescript:1:1: bad (and 1 more error)"},
		{Diagnostic{Line: 1, Column: 1, Text: "bad", More: 4}, "typescript:1:1: bad (and 4 more errors)"},
	} {
		if got := tt.d.Error(); got != tt.want {
			t.Errorf("got %q, want %q", got, tt.want)
		}
	}
}

func TestUnwrapRejectsUnexpectedOutput(t *testing.T) {
	for _, out := range []string{"", "const a = 1;\n", printedTop + "  a;\n"} {
		if _, err := unwrap(out); err == nil {
			t.Errorf("unwrap(%q) succeeded", out)
		}
	}
}

func TestTransformsCounts(t *testing.T) {
	before := Transforms()
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, _ = Transform("return 1 as number;")
		}()
	}
	_, _ = Transform("let y x") // failures count too: the compiler was used
	wg.Wait()
	if got := Transforms() - before; got != 9 {
		t.Fatalf("Transforms() grew by %d, want 9", got)
	}
}

func TestNamespacesCompileInsideTheCell(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"exported const", "namespace N { export const v: number = 1 }\nreturn N.v + 1", "N2.v = 1"},
		{"dotted name and functions", "namespace A.B {\n  export function f(x: number): number { return x * 2 }\n}\nreturn A.B.f(2)", "f"},
		{"declare namespace is erased", "declare namespace D { const x: number }\nreturn 1", "return 1"},
		{"two declarations merge", "namespace M { export const a = 1 }\nnamespace M { export const b = 2 }\nreturn M.a + M.b", "M2.b = 2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			js, err := Transform(tc.src)
			if err != nil {
				t.Fatalf("Transform: %v", err)
			}
			if !strings.Contains(js, tc.want) {
				t.Fatalf("output lacks %q:\n%s", tc.want, js)
			}
		})
	}
	// Lines after a namespace keep their numbers in diagnostics.
	_, err := Transform("namespace N {\n  export const v = 1\n}\nconst x: number = ;")
	var d *Diagnostic
	if !errors.As(err, &d) || d.Line != 4 {
		t.Fatalf("diagnostic %v, want line 4", err)
	}
}
