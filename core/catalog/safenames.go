package catalog

import "maps"

// reservedSafeNames can never become tools.<name> convenience functions: the
// catalog helpers themselves, every Object.prototype member (shadowing one breaks
// ordinary object behaviour), `then` (it would turn `tools` into a thenable that
// `await tools` would call), and JavaScript reserved words.
var reservedSafeNames = func() map[string]bool {
	m := map[string]bool{}
	for _, n := range []string{
		// catalog helpers
		"search", "describe", "call", "callValue",
		// Object.prototype and friends
		"__proto__", "constructor", "prototype", "hasOwnProperty", "isPrototypeOf",
		"propertyIsEnumerable", "toLocaleString", "toString", "valueOf",
		"__defineGetter__", "__defineSetter__", "__lookupGetter__", "__lookupSetter__",
		"toJSON", "then",
		// reserved words and restricted identifiers
		"break", "case", "catch", "class", "const", "continue", "debugger", "default",
		"delete", "do", "else", "enum", "export", "extends", "false", "finally", "for",
		"function", "if", "import", "in", "instanceof", "new", "null", "return", "super",
		"switch", "this", "throw", "true", "try", "typeof", "var", "void", "while", "with",
		"yield", "let", "static", "implements", "interface", "package", "private",
		"protected", "public", "await", "arguments", "eval", "undefined", "NaN", "Infinity",
	} {
		m[n] = true
	}
	return m
}()

// safeName normalises a tool name to a JavaScript identifier: every character
// outside [A-Za-z0-9_$] becomes "_" and a leading digit gets a "_" prefix. It
// returns "" for names that cannot or must not become a member of `tools`.
func safeName(name string) string {
	if name == "" || len(name) > 64 {
		return ""
	}
	b := []byte(name)
	for i, c := range b {
		if !(c == '_' || c == '$' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) {
			b[i] = '_'
		}
	}
	s := string(b)
	if s[0] >= '0' && s[0] <= '9' {
		s = "_" + s
	}
	if reservedSafeNames[s] || len(s) >= 2 && s[:2] == "__" {
		return "" // "__" is kept for the runtime's own hidden members
	}
	return s
}

// safeNames maps each unique safe name to its entry id. Names claimed by two or
// more entries are dropped for all of them, so a collision can never make one tool
// shadow another; those tools stay reachable through tools.call(id, input).
func safeNames(entries []Entry) map[string]string {
	owner := make(map[string]string, len(entries))
	clash := map[string]bool{}
	for _, e := range entries {
		if e.Source == SourceMCP {
			continue
		}
		s := safeName(e.Name)
		if s == "" {
			continue
		}
		if _, dup := owner[s]; dup {
			clash[s] = true
			continue
		}
		owner[s] = e.ID
	}
	for s := range clash {
		delete(owner, s)
	}
	return owner
}

// SafeNames returns safe identifier -> id for the tools.<name> convenience
// functions (non-MCP, unique, not reserved). The map is a copy.
func (c *Catalog) SafeNames() map[string]string { return maps.Clone(c.safe) }
