package core

import (
	"strings"
	"testing"

	"github.com/codemode-go/codemode/internal/quickjs"
)

// fakeTS maps every body position to line+10, column+1, as a TypeScript
// source map would move it.
type fakeTS struct{}

func (fakeTS) Position(line, col int) (int, int, bool) { return line + 10, col + 1, true }

func TestDescribeGuestError(t *testing.T) {
	js := newCellText("let a = 1;\nnull.x", nil)
	open := newCellText("return (1 +", nil)
	over := newCellText("return 1;\n}", nil)
	for _, tc := range []struct {
		name string
		e    quickjs.JSError
		cell cellText
		want string
	}{
		{"a runtime error on the model's line 2", quickjs.JSError{Name: "TypeError", Message: "x", Stack: "    at <anonymous> (cell.js:3:1)\n    at <anonymous> (prelude.js:300:20)\n"}, js,
			"TypeError: x\n    at <anonymous> (cell.js:2:1)"},
		{"the runtime's hidden functions and the native frames it called leave", quickjs.JSError{Name: "TypeError", Message: "x",
			Stack: "    at __openclaw_sync (native)\n    at parse (native)\n    at sync (prelude.js:1:1)\n    at get (prelude.js:2:2)\n    at f (cell.js:2:5)\n    at <anonymous> (cell.js:3:1)"}, js,
			"TypeError: x\n    at f (cell.js:1:5)\n    at <anonymous> (cell.js:2:1)"},
		{"the model's own native call stays", quickjs.JSError{Name: "SyntaxError", Message: "bad JSON", Stack: "    at parse (native)\n    at <anonymous> (cell.js:2:3)"}, js,
			"SyntaxError: bad JSON\n    at parse (native)\n    at <anonymous> (cell.js:1:3)"},
		{"the wrapper's brace is the cell ending early", quickjs.JSError{Name: "SyntaxError", Message: "unexpected token in expression: '}'", Stack: "    at cell.js:3:1"}, open,
			"SyntaxError: unexpected end of the cell (a bracket, string, template or expression is left open)\n    at cell.js:1:12"},
		{"or a stray closing brace", quickjs.JSError{Name: "SyntaxError", Message: "expecting ')'", Stack: "    at cell.js:4:1"}, over,
			"SyntaxError: the cell closes a bracket it never opened (a stray \"}\", \")\" or \"]\")\n    at cell.js:2:2"},
		{"TypeScript positions", quickjs.JSError{Name: "Error", Message: "m", Stack: "    at <anonymous> (cell.js:2:4)"}, cellText{lines: 3, ts: fakeTS{}},
			"Error: m\n    at <anonymous> (cell.ts:11:5)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := describeGuestError(&tc.e, tc.cell); got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

// FuzzDescribeGuestError: whatever a guest error carries, the frames the
// model reads never name the runtime's own code or hidden functions, and the
// text carries no host detail that the error's own name and message did not.
func FuzzDescribeGuestError(f *testing.F) {
	f.Add("TypeError", "x", "    at __openclaw_sync (native)\n    at sync (prelude.js:1:1)\n    at <anonymous> (cell.js:2:1)", "return 1")
	f.Add("SyntaxError", "unexpected '}'", "    at cell.js:99:1", "return (1 +")
	f.Add("Error", "", "at kit.js:1:1\n\n at (cell.js:0:0) cell.js:1:99999999999999999999", "")
	f.Fuzz(func(t *testing.T, name, message, stack, body string) {
		got := describeGuestError(&quickjs.JSError{Name: name, Message: message, Stack: stack}, newCellText(body, nil))
		head := (&quickjs.JSError{Name: name, Message: message}).Error()
		frames := strings.TrimPrefix(got, head)
		if strings.HasPrefix(got, "SyntaxError: ") && !strings.HasPrefix(got, head) {
			frames = got[strings.IndexByte(got+"\n", '\n'):]
		}
		for _, w := range []string{"prelude.js", "kit.js", "__openclaw"} {
			if strings.Contains(frames, w) {
				t.Fatalf("frames name %q: %q", w, got)
			}
		}
		for _, w := range []string{"goroutine", "bridge", ".go:", "quickjs."} {
			if strings.Contains(got, w) && !strings.Contains(name+message+stack, w) {
				t.Fatalf("carries %q: %q", w, got)
			}
		}
	})
}
