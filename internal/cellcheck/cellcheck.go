// Package cellcheck looks at an exec cell before it is evaluated and refuses
// two kinds of input with an actionable message instead of a bare SyntaxError
// from the engine:
//
//   - module access (import, require, module.exports, AMD define, ...), which
//     the spec says exec rejects: the sandbox has no modules, file system or
//     network, and the model should call tools through tools.* instead;
//   - shell commands (`ls -la`, `npm install`, ...): exec shares its name with
//     the ordinary shell exec tool, so models sometimes send a command line.
//
// Both checks are static and heuristic. They are a usability layer in front
// of the sandbox, not part of its boundary: QuickJS-WASI has no module loader
// or host objects whatever this package decides. They are tuned against false
// positives, because refusing a valid program is worse than letting the
// engine report an error. Both run in time linear in the size of the cell.
package cellcheck

import (
	"fmt"
	"strconv"
)

// UnexpectedEnd is the one sentence, in JavaScript and TypeScript alike, for a
// cell that ends while something is still open. Parsers report it at the
// brace of the function the runtime wraps a cell in ("unexpected token '}'"),
// which the model never wrote.
const UnexpectedEnd = "unexpected end of the cell (a bracket, string, template or expression is left open)"

// OverclosedEnd is the sentence for a parser's error at the end of a cell that
// closes a bracket it never opened (Overclosed).
const OverclosedEnd = "the cell closes a bracket it never opened (a stray \"}\", \")\" or \"]\")"

// Kinds of rejected input.
const (
	KindModule = "module"
	KindShell  = "shell"
)

// Error is a refused cell. Kind is KindModule or KindShell, Line the 1-based
// line of the offending construct and Found what was found: the construct
// (`require(...)`, `import.meta`, ...) or the shell-like line.
type Error struct {
	Kind  string
	Line  int
	Found string
}

func (e *Error) Error() string {
	if e.Kind == KindShell {
		return fmt.Sprintf("exec runs JavaScript, not a shell: %s looks like a shell command. "+
			`Write a JavaScript program that calls tools (e.g. await tools.search("list files")).`, quote(e.Found))
	}
	return fmt.Sprintf("exec runs a sandboxed JavaScript cell: %s is not available "+
		"(no modules, file system or network); call tools through tools.* instead (line %d)", quote(e.Found), e.Line)
}

// Check runs the shell check, then the module check, and returns the first
// problem as an *Error, or nil. Shell input is checked first because its hint
// is the more useful one for a command line that happens to contain "import".
func Check(src string) error {
	if err := checkShell(src); err != nil {
		return err
	}
	if err := checkModules(src); err != nil {
		return err
	}
	return nil
}

// quote renders found for the message, shortened so that a long line cannot
// make a long error.
func quote(s string) string {
	const max = 80
	if r := []rune(s); len(r) > max {
		s = string(r[:max]) + "..."
	}
	return strconv.Quote(s)
}
