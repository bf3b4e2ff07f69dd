package core

import (
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/codemode-go/codemode/internal/cellcheck"
	"github.com/codemode-go/codemode/internal/quickjs"
)

// What the model reads of an error its cell threw: the error's own text and
// the frames of its own code, at the line and column it wrote. The wrapper the
// runtime puts around a cell, the prelude's frames and the runtime's hidden
// functions never show: the model cannot act on them, and they are the
// host's business.

// The cell is the body of an async function. The header has a line of its
// own, so every line the model wrote is one further down, and columns need no
// correction (QuickJS-NG also counts columns differently on a source's first
// line, which a shared first line would have inherited).
const (
	cellPrefix = "(async function () {\n"
	cellSuffix = "\n})"
)

// lineMap maps positions in a TypeScript cell's compiled JavaScript back to
// the TypeScript source (tsx.LineMap; an interface so that relay-only builds
// leave the TypeScript compiler out).
type lineMap interface {
	Position(line, col int) (tsLine, tsCol int, ok bool)
}

// cellText is what positions in an evaluated cell are mapped against.
type cellText struct {
	lines   int     // lines of the evaluated body (the JavaScript, or the compiled TypeScript)
	lastCol int     // the column just past the end of its last line
	ts      lineMap // TypeScript cells: body positions -> TypeScript source
	over    bool    // closes a bracket it never opened (cellcheck.Overclosed)
}

func newCellText(body string, ts lineMap) cellText {
	last := body[strings.LastIndexByte(body, '\n')+1:]
	return cellText{lines: strings.Count(body, "\n") + 1, lastCol: utf8.RuneCountInString(strings.TrimRight(last, "\r")) + 1, ts: ts, over: cellcheck.Overclosed(body)}
}

// position maps a position QuickJS printed for the wrapped source to the
// model's file and position; past says it lies beyond the model's text (the
// wrapper's closing line).
func (c cellText) position(ln, col int) (file string, line, column int, past bool) {
	line = ln - 1 // the wrapper's header line
	if line > c.lines {
		line, col, past = c.lines, c.lastCol, true
	}
	line = max(line, 1)
	if c.ts != nil {
		if tl, tc, ok := c.ts.Position(line, col); ok {
			return "cell.ts", tl, tc, past
		}
	}
	return "cell.js", line, col, past
}

// cellPos is compiled on a stack's first mapping, not at package init (every
// page start would pay for it).
var cellPos = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`cell\.js:(\d+):(\d+)`) })

// describe is the text of a guest error as the model reads it: "Name:
// message", then the frames of its cell.
func (r *run) describe(e *quickjs.JSError) string {
	return describeGuestError(e, r.cell)
}

func describeGuestError(e *quickjs.JSError, cell cellText) string {
	head := e.Error()
	stack, past := guestStack(e.Stack, cell)
	if past && e.Name == "SyntaxError" { // the wrapper's brace is what the parser names
		head = "SyntaxError: " + cellcheck.UnexpectedEnd
		if cell.over {
			head = "SyntaxError: " + cellcheck.OverclosedEnd
		}
	}
	if stack != "" {
		head += "\n" + stack
	}
	return head
}

// guestStack keeps the frames of the model's cell, at positions in what the
// model wrote (cell.ts and the TypeScript source's lines for a TypeScript
// cell). Dropped: the prelude's and the kit's frames, the runtime's hidden
// functions, and a built-in (native) frame the runtime called (JSON.parse
// inside a tool call, say), which the model did not call. past reports a
// position beyond the model's text.
func guestStack(stack string, cell cellText) (kept string, past bool) {
	frames := strings.Split(strings.TrimRight(stack, "\n"), "\n")
	drop := make([]bool, len(frames))
	for i := len(frames) - 1; i >= 0; i-- { // callers first: a frame's caller is the next line
		f := frames[i]
		switch {
		case strings.TrimSpace(f) == "", strings.Contains(f, "prelude.js"), strings.Contains(f, "kit.js"), strings.Contains(f, "__openclaw"):
			drop[i] = true
		case strings.HasSuffix(f, "(native)") && i+1 < len(frames) && drop[i+1]:
			drop[i] = true
		}
	}
	var keep []string
	for i, f := range frames {
		if drop[i] {
			continue
		}
		keep = append(keep, cellPos().ReplaceAllStringFunc(f, func(m string) string {
			sub := cellPos().FindStringSubmatch(m)
			ln, _ := strconv.Atoi(sub[1])
			col, _ := strconv.Atoi(sub[2])
			file, l, c, p := cell.position(ln, col)
			past = past || p
			return file + ":" + strconv.Itoa(l) + ":" + strconv.Itoa(c)
		}))
	}
	return strings.Join(keep, "\n"), past
}
