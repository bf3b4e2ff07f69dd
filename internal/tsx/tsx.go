//go:build !codemode_hostjs

// Package tsx turns the TypeScript of one exec cell into JavaScript that
// QuickJS-WASI can evaluate. It is a source transform only, as the spec's
// "TypeScript" section requires: no type checking, no module resolution, no
// import/require. esbuild's Go API does the work in-process; it is pure Go, so
// the core still builds for GOOS=js and GOOS=wasip1.
//
// The runtime must import this package only on the TypeScript path: the spec
// says JavaScript cells and a disabled Code Mode never load the compiler.
// Importing a Go package is free at run time (this package does no work at
// init), so the observable rule is "never call Transform for a JavaScript
// cell", and Transforms counts the calls so the runtime's tests can prove it.
package tsx

import (
	"fmt"
	"strings"
	"sync/atomic"
	"unicode/utf8"

	"github.com/codemode-go/codemode/internal/cellcheck"
	"github.com/evanw/esbuild/pkg/api"
)

// transforms counts Transform calls for the whole process.
var transforms atomic.Int64

// Transforms reports how many times Transform has been called in this process.
// Tests use it to show that JavaScript cells never reach the TypeScript path.
func Transforms() int64 { return transforms.Load() }

// The runtime evaluates a cell as the body of an async function, so a cell may
// use top-level await and top-level return. Neither is legal at the top level of
// a TypeScript file (return never is; await only in a module, which then forbids
// return), so Transform parses the cell as the body of this function and strips
// the function again afterwards. The header is on its own line so that esbuild's
// positions map back to the user's lines by subtracting one.
const (
	wrapName   = "__codemode_cell"
	wrapOpen   = "async function " + wrapName + "(){\n"
	wrapClose  = "\n}"
	printedTop = "async function " + wrapName + "() {\n" // how esbuild prints wrapOpen

	// The second wrapper of checkSelfContained, also with the header on a line
	// of its own.
	arrowOpen  = "(async () => {\n"
	arrowClose = "\n})"
)

// options: TS loader (not TSX, so `<T>x` casts work), ES2023 output, which
// QuickJS-NG understands natively; newer syntax such as `using` and decorators
// is lowered with helpers. No minification, so the output reads like the input
// and guest stack traces stay recognisable. UTF-8 output keeps non-ASCII text
// as written instead of \u escapes.
var options = api.TransformOptions{
	Loader:      api.LoaderTS,
	Target:      api.ES2023,
	Charset:     api.CharsetUTF8,
	TreeShaking: api.TreeShakingFalse,
	LogLevel:    api.LogLevelSilent,
	Sourcefile:  "typescript",
}

// checkOptions only parse: nothing of the output is used, so print it compactly.
var checkOptions = api.TransformOptions{
	Loader:           api.LoaderTS,
	Target:           api.ESNext,
	LogLevel:         api.LogLevelSilent,
	MinifyWhitespace: true,
}

// Transform converts one TypeScript cell to JavaScript. The result is again a
// function body (it may contain await and return at its top level), to be
// wrapped by the runtime exactly like a JavaScript cell. esbuild reformats the
// code, so output line numbers follow the input's statements only roughly.
//
// Syntax errors come back as *Diagnostic with positions in src. esbuild's helper
// functions for lowered syntax (decorators, `using`, ...) are placed at the top
// of the returned body, where function hoisting and `var` make them work.
func Transform(src string) (string, error) {
	js, _, err := transform(src, options)
	return js, err
}

// TransformMapped is Transform plus the map from the returned body's positions
// back to src, so guest stack traces can name TypeScript lines.
func TransformMapped(src string) (string, *LineMap, error) {
	opts := options
	opts.Sourcemap = api.SourceMapExternal
	js, res, err := transform(src, opts)
	if err != nil {
		return "", nil, err
	}
	return js, newLineMap(res.Map, preambleLines(string(res.Code))), nil
}

func transform(src string, options api.TransformOptions) (string, api.TransformResult, error) {
	transforms.Add(1)
	src = liftNamespaces(src)
	// The two parses are independent; on a multi-core host running them at
	// once halves the latency (each costs about half a millisecond of mostly
	// fixed esbuild overhead). The channel is buffered, so nothing leaks.
	selfContained := make(chan error, 1)
	go func() { selfContained <- checkSelfContained(src) }()
	res := api.Transform(wrapOpen+src+wrapClose, options)
	checkErr := <-selfContained
	if len(res.Errors) > 0 {
		return "", res, diagnostic(src, res.Errors)
	}
	if checkErr != nil {
		return "", res, checkErr
	}
	js, err := unwrap(string(res.Code))
	return js, res, err
}

// checkSelfContained rejects a cell that closes the wrapper early, such as
// "}\nfoo();\nfunction g() {", which parses inside wrapOpen...wrapClose but
// is not a function body: its output would depend on how the runtime wraps it.
// A second parse inside a differently shaped wrapper, an async arrow in
// parentheses, catches every such cell: after the early "}", the first wrapper
// needs a statement at the top level, the second a ")" or ",", and no text is
// both. The only function body this also rejects is one using new.target,
// which has no meaning in a cell.
func checkSelfContained(src string) error {
	res := api.Transform(arrowOpen+src+arrowClose, checkOptions)
	if len(res.Errors) == 0 {
		return nil
	}
	d := diagnostic(src, res.Errors)
	if !strings.Contains(d.Text, "new.target") {
		d.Text += ` (a "}" earlier closes more blocks than the cell opened)`
	}
	return d
}

// preambleLines counts the lines of esbuild helpers before the wrapper's
// header in esbuild's whole output out (0 when the header comes first).
func preambleLines(out string) int {
	if i := strings.Index(out, "\n"+printedTop); i >= 0 && !strings.HasPrefix(out, printedTop) {
		return strings.Count(out[:i+1], "\n")
	}
	return 0
}

// unwrap removes the wrapper function from esbuild's output, keeping any helper
// preamble esbuild printed before it. The body keeps esbuild's indentation:
// re-indenting could change the text of multi-line template literals.
func unwrap(out string) (string, error) {
	var preamble, rest string
	if strings.HasPrefix(out, printedTop) {
		rest = out[len(printedTop):]
	} else if i := strings.Index(out, "\n"+printedTop); i >= 0 {
		// The first occurrence is the wrapper: helpers never contain it, and
		// every user byte comes after the wrapper's header.
		preamble, rest = out[:i+1], out[i+1+len(printedTop):]
	} else {
		return "", fmt.Errorf("tsx: unexpected esbuild output: no %s wrapper", wrapName)
	}
	body, ok := strings.CutSuffix(rest, "}\n")
	if !ok {
		return "", fmt.Errorf("tsx: unexpected esbuild output: wrapper not closed at the end")
	}
	return preamble + body, nil
}

// Diagnostic is a TypeScript syntax error. Line is 1-based and Column is
// 1-based in characters (runes), both relative to the user's source, not to
// the wrapper Transform adds. More counts further errors that were not shown:
// one precise error helps the model more than a list of follow-on errors.
type Diagnostic struct {
	Line, Column int
	Text         string
	More         int
}

// Error renders like a compiler: `typescript:3:7: Expected ";" but found "x"`.
func (d *Diagnostic) Error() string {
	s := fmt.Sprintf("typescript:%d:%d: %s", d.Line, d.Column, d.Text)
	switch {
	case d.More == 1:
		s += " (and 1 more error)"
	case d.More > 1:
		s += fmt.Sprintf(" (and %d more errors)", d.More)
	}
	return s
}

// diagnostic maps esbuild's first error back into src. An error on the
// wrapper's closing line (an unclosed block, say) is reported at the end of
// the last source line, where the user has to fix it, and as the cell ending
// early unless it closes a bracket it never opened: esbuild's own text there
// names the wrapper's brace.
func diagnostic(src string, msgs []api.Message) *Diagnostic {
	// esbuild ends a message with ":" when a note follows; we show no notes.
	text := strings.TrimSuffix(strings.TrimSpace(msgs[0].Text), ":")
	d := &Diagnostic{Line: 1, Column: 1, Text: text, More: len(msgs) - 1}
	loc := msgs[0].Location
	if loc == nil {
		return d
	}
	lines := strings.Count(src, "\n") + 1
	switch line := loc.Line - 1; {
	case line < 1: // in the header: cannot happen, but never report line 0
	case line > lines:
		last := src[strings.LastIndexByte(src, '\n')+1:]
		d.Line, d.Column = lines, utf8.RuneCountInString(strings.TrimRight(last, "\r"))+1
		if !cellcheck.Overclosed(src) {
			d.Text = cellcheck.UnexpectedEnd
		}
	default:
		col := min(max(loc.Column, 0), len(loc.LineText))
		d.Line, d.Column = line, utf8.RuneCountInString(loc.LineText[:col])+1
	}
	return d
}
