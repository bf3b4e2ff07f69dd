package cellcheck

import "fmt"

// Documented source bounds (README "Limits"). Source text is held several
// times over by the parser and the engine (10 MB of JavaScript made the
// process use 1.1 GB), and esbuild parses TypeScript recursively, so
// pathological nesting used gigabytes or crashed the process before any
// timeout could fire. Past a bound the cell is refused as invalid_input.
const (
	// MaxJavaScriptBytes bounds a JavaScript cell.
	MaxJavaScriptBytes = 256 << 10
	// MaxTypeScriptBytes bounds a TypeScript cell (before the transform).
	MaxTypeScriptBytes = 64 << 10
	// MaxCompiledBytes bounds the JavaScript a TypeScript cell compiles to.
	MaxCompiledBytes = 1 << 20
	// MaxNesting bounds how deeply brackets, chains of arrow functions and
	// runs of prefix operators nest.
	MaxNesting = 100
)

// BoundsError is a cell past one of the source bounds.
type BoundsError struct{ msg string }

func (e *BoundsError) Error() string { return e.msg }

// Bounds checks a cell's size and nesting before anything parses it; it runs
// in time linear in the size of the (already bounded) cell.
func Bounds(src string, typescript bool) error {
	lang, max := "JavaScript", MaxJavaScriptBytes
	if typescript {
		lang, max = "TypeScript", MaxTypeScriptBytes
	}
	if len(src) > max {
		return &BoundsError{fmt.Sprintf("exec: the %s cell is %d bytes; at most %d bytes are accepted. Keep data in tools and pass ids, or split the work into several cells.", lang, len(src), max)}
	}
	if what, line := nesting(tokenize(src)); what != "" {
		return &BoundsError{fmt.Sprintf("exec: the cell nests %s more than %d levels deep (line %d); flatten it.", what, MaxNesting, line)}
	}
	return nil
}

// CompiledBounds checks the JavaScript a TypeScript cell compiled to.
func CompiledBounds(js string) error {
	if len(js) > MaxCompiledBytes {
		return &BoundsError{fmt.Sprintf("exec: the TypeScript cell compiles to %d bytes of JavaScript; at most %d are accepted.", len(js), MaxCompiledBytes)}
	}
	return nil
}

// Overclosed reports a cell that closes a bracket it never opened. A parser's
// error at the very end of any other cell is the cell ending early
// (UnexpectedEnd); at the end of this one it is about the stray bracket
// (OverclosedEnd), which the runtime's wrapper brace then no longer matches.
func Overclosed(src string) bool {
	depth := 0
	for _, t := range tokenize(src) {
		switch {
		case t.kind == tokPunct && (t.text == "(" || t.text == "[" || t.text == "{"), t.kind == tokTemplate && t.open:
			depth++
		case t.kind == tokPunct && (t.text == ")" || t.text == "]" || t.text == "}"), t.kind == tokTemplate && t.cont:
			depth--
		}
		if depth < 0 {
			return true
		}
	}
	return false
}

// prefixOp reports an operator that can stack in front of an operand.
func prefixOp(t string) bool {
	switch t {
	case "!", "~", "-", "+", "typeof", "void", "delete", "await", "new":
		return true
	}
	return false
}

// nesting finds the first construct nested deeper than MaxNesting: brackets
// ({[( and template substitutions), chains of arrow functions with
// expression bodies (() => () => ...), or runs of prefix operators.
func nesting(toks []token) (string, int) {
	depth, arrows, prefix := 0, 0, 0
	for i, t := range toks {
		switch t.kind {
		case tokPunct:
			switch t.text {
			case "(", "[", "{":
				depth++
			case ")", "]", "}":
				depth--
			}
		case tokTemplate:
			if t.open {
				depth++
			}
			if t.cont {
				depth--
			}
		}
		if depth > MaxNesting {
			return "brackets", t.line
		}
		isPrefix := (t.kind == tokPunct || t.kind == tokIdent) && prefixOp(t.text)
		if isPrefix {
			prefix++
			if prefix > MaxNesting {
				return "prefix operators", t.line
			}
		} else {
			prefix = 0
		}
		if t.kind == tokPunct && t.text == "=>" {
			if i+1 < len(toks) && toks[i+1].kind == tokPunct && toks[i+1].text == "{" {
				arrows = 0
			} else if arrows++; arrows > MaxNesting {
				return "arrow functions", t.line
			}
		} else if t.kind == tokPunct && (t.text == ";" || t.text == ",") {
			arrows = 0
		}
	}
	return "", 0
}
