package cellcheck

import "strings"

// checkModules finds module-loading constructs in code (never in strings,
// comments, template text or regexes). It is a lint that turns what would be a
// confusing SyntaxError or ReferenceError inside QuickJS into an actionable
// message; it is not the security boundary (the guest has no module loader,
// require or file system at all), so a rare false negative costs a worse
// error message, not a breach.
func checkModules(src string) *Error {
	if !mayLoadModules(src) {
		return nil
	}
	toks := tokenize(src)
	closing := matchParens(toks)
	inNamespace := namespaceBodies(toks)
	for i, t := range toks {
		if t.kind != tokIdent || isMemberName(toks, i) {
			continue
		}
		if t.text == "export" && inNamespace[i] {
			continue // TypeScript: `namespace N { export const v = 1 }` exports to N
		}
		if found := moduleConstruct(toks, closing, i); found != "" {
			return &Error{Kind: KindModule, Line: t.line, Found: found}
		}
	}
	return nil
}

// moduleWords contain every identifier moduleConstruct answers for
// ("import" covers importScripts, "export" exports, "require"
// __non_webpack_require__).
var moduleWords = [...]string{"import", "export", "require", "module", "System", "define"}

// mayLoadModules is false when src cannot hold a module construct: none of
// moduleWords occurs in it, nor a backslash (an escaped identifier). Most
// cells are such, and skip the token walk (in a page, a first cell then
// never compiles it).
func mayLoadModules(src string) bool {
	if strings.IndexByte(src, '\\') >= 0 {
		return true
	}
	for _, w := range moduleWords {
		if strings.Contains(src, w) {
			return true
		}
	}
	return false
}

// tokenize returns the significant tokens of src, ending with tokEOF.
func tokenize(src string) []token {
	l := newLexer(src)
	var toks []token
	for {
		t := l.next()
		toks = append(toks, t)
		if t.kind == tokEOF {
			return toks
		}
	}
}

// matchParens maps the index of each "(" to the index of its ")" (or of the
// EOF token when unbalanced); other entries are 0.
func matchParens(toks []token) []int {
	closing := make([]int, len(toks))
	var stack []int
	for i, t := range toks {
		switch {
		case t.kind == tokPunct && t.text == "(":
			stack = append(stack, i)
		case t.kind == tokPunct && t.text == ")" && len(stack) > 0:
			closing[stack[len(stack)-1]] = i
			stack = stack[:len(stack)-1]
		}
	}
	for _, open := range stack {
		closing[open] = len(toks) - 1
	}
	return closing
}

// namespaceBodies marks the tokens inside the body of a TypeScript namespace
// (`namespace A.B {` or the older `module A {`), where `export` names a member
// of the namespace object instead of loading or defining a module.
func namespaceBodies(toks []token) []bool {
	in := make([]bool, len(toks))
	for i := 0; i+2 < len(toks); i++ {
		j := namespaceOpen(toks, i)
		if j < 0 {
			continue
		}
		for k := j; k < closingBrace(toks, j); k++ {
			in[k] = true
		}
	}
	return in
}

// namespaceOpen is the index of the "{" that opens a namespace declaration
// starting at toks[i] (`namespace A.B {` or `module A {`), or -1 when none
// starts there.
func namespaceOpen(toks []token, i int) int {
	t := toks[i]
	if t.kind != tokIdent || (t.text != "namespace" && t.text != "module") || isMemberName(toks, i) {
		return -1
	}
	j := i + 1
	for j < len(toks) && toks[j].kind == tokIdent {
		j++
		if j < len(toks) && toks[j].kind == tokPunct && toks[j].text == "." {
			j++
			continue
		}
		break
	}
	if j == i+1 || j >= len(toks) || toks[j].kind != tokPunct || toks[j].text != "{" {
		return -1
	}
	return j
}

// closingBrace is the index of the "}" that closes the "{" at toks[open], or
// len(toks) when it is unclosed.
func closingBrace(toks []token, open int) int {
	depth := 0
	for k := open; k < len(toks); k++ {
		if toks[k].kind != tokPunct {
			continue
		}
		switch toks[k].text {
		case "{":
			depth++
		case "}":
			if depth--; depth == 0 {
				return k
			}
		}
	}
	return len(toks)
}

// NamespaceBlocks returns the byte ranges [start, end) of the TypeScript
// namespace declarations at the top level of a cell (`namespace A.B { ... }`,
// with a leading `declare`), outermost only. The TypeScript transform needs
// them: a cell is compiled as a function body, where TypeScript allows no
// namespace, so each is compiled on its own first.
func NamespaceBlocks(src string) [][2]int {
	toks := tokenize(src)
	var out [][2]int
	depth := 0
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if t.kind == tokPunct {
			switch t.text {
			case "{", "(", "[":
				depth++
			case "}", ")", "]":
				depth--
			}
			continue
		}
		if t.kind == tokTemplate {
			if t.open {
				depth++
			}
			if t.cont {
				depth--
			}
			continue
		}
		if depth != 0 {
			continue
		}
		j := namespaceOpen(toks, i)
		if j < 0 {
			continue
		}
		k := closingBrace(toks, j)
		if k >= len(toks) {
			return out // unclosed: esbuild reports it
		}
		start := t.start
		if i > 0 && toks[i-1].kind == tokIdent && toks[i-1].text == "declare" {
			start = toks[i-1].start
		}
		out = append(out, [2]int{start, toks[k].end})
		i = k
	}
	return out
}

// moduleConstruct names the module-loading construct that starts with the
// identifier toks[i], or returns "".
func moduleConstruct(toks []token, closing []int, i int) string {
	at := func(j int) token {
		if j < len(toks) {
			return toks[j]
		}
		return toks[len(toks)-1]
	}
	punct := func(j int, p string) bool { t := at(j); return t.kind == tokPunct && t.text == p }
	ident := func(j int, name string) bool { t := at(j); return t.kind == tokIdent && t.text == name }
	call := punct(i+1, "(") && !isMethodDefinition(toks, closing, i)

	switch toks[i].text {
	case "import":
		switch {
		case punct(i+1, ":") || punct(i+1, "(") && !call:
			return "" // a property or method named import
		case call:
			return "import(...)"
		case punct(i+1, ".") && ident(i+2, "meta"):
			return "import.meta"
		}
		return "import ... from"
	case "export":
		if punct(i+1, ":") || punct(i+1, "(") && !call {
			return ""
		}
		return "export"
	case "require":
		switch {
		case call:
			return "require(...)"
		case punct(i+1, "."):
			if at(i+2).kind == tokIdent {
				return "require." + short(at(i+2).text)
			}
			return "require"
		}
	case "module":
		if punct(i+1, ".") && ident(i+2, "exports") {
			return "module.exports"
		}
	case "exports":
		if punct(i+1, ".") && at(i+2).kind == tokIdent && punct(i+3, "=") {
			return "exports." + short(at(i+2).text) + " = ..."
		}
	case "importScripts":
		if call {
			return "importScripts(...)"
		}
	case "System":
		if punct(i+1, ".") && (ident(i+2, "import") || ident(i+2, "register")) {
			return "System." + at(i+2).text + "(...)"
		}
	case "define":
		switch {
		case call && (punct(i+2, "[") || ident(i+2, "function") || at(i+2).kind == tokString && punct(i+3, ",")):
			return "define([...], ...)"
		case punct(i+1, ".") && ident(i+2, "amd"):
			return "define.amd"
		}
	case "__non_webpack_require__":
		return "__non_webpack_require__"
	}
	return ""
}

// isMemberName reports whether toks[i] is a property name after "." or "?.",
// as in obj.require(1) or x.import: a property is not a module loader.
func isMemberName(toks []token, i int) bool {
	if i == 0 {
		return false
	}
	p := toks[i-1]
	return p.kind == tokPunct && (p.text == "." || p.text == "?.")
}

// isMethodDefinition reports whether toks[i] names a method or function being
// defined, as in `{ import() {} }` or `function require(x) {`: the name is
// followed by a parameter list and a "{" on the same line as its ")". A call
// followed by a block is only valid with a line break in between (ASI), so
// the same-line rule does not mistake `require(x)` for a definition.
func isMethodDefinition(toks []token, closing []int, i int) bool {
	open := i + 1
	if open >= len(toks) || toks[open].kind != tokPunct || toks[open].text != "(" {
		return false
	}
	cl := closing[open]
	if cl+1 >= len(toks) {
		return false
	}
	next := toks[cl+1]
	return next.kind == tokPunct && next.text == "{" && next.line == toks[cl].line
}

// short caps an identifier taken from the cell for use in a message.
func short(name string) string {
	if len(name) > 64 {
		return name[:64] + "..."
	}
	return name
}
