// Package jsident is the one table of JavaScript names that generated code must
// not bind or shadow, and the one identifier test, shared by the catalog's
// tools.<name> helpers, the API declaration files and plugin namespace globals.
// Keeping a single list means a word added for one (say `then`) protects all.
package jsident

import "github.com/codemode-go/codemode/internal/wordset"

// The word lists are wordset.Sets: a map literal would be built by package
// init at every start of every program that links this package (a page's
// core among them).

// Reserved reports an ECMAScript reserved word, including the strict-mode ones
// (let, static, implements, interface, package, private, protected, public,
// yield) and await: none can name a binding in a module or strict script.
func Reserved(s string) bool { return reserved.Has(s) }

// Restricted reports Reserved words plus arguments, eval, undefined, NaN and
// Infinity (not reserved, but no binding may take them in strict mode or
// they would shadow a global value): names a declaration must not take.
func Restricted(s string) bool { return reserved.Has(s) || restricted.Has(s) }

// ObjectMember reports a name that shadows an Object.prototype member, toJSON
// or then when used as a property of a plain object: shadowing one would
// break ordinary object behaviour (a member named then makes its object a
// thenable, so `await obj` would call it; toJSON changes serialization).
func ObjectMember(s string) bool { return objectMembers.Has(s) }

var reserved = wordset.Set{
	"await", "break", "case", "catch", "class", "const", "continue", "debugger", "default", "delete",
	"do", "else", "enum", "export", "extends", "false", "finally", "for", "function", "if", "implements",
	"import", "in", "instanceof", "interface", "let", "new", "null", "package", "private", "protected",
	"public", "return", "static", "super", "switch", "this", "throw", "true", "try", "typeof", "var",
	"void", "while", "with", "yield",
}

var restricted = wordset.Set{"Infinity", "NaN", "arguments", "eval", "undefined"}

var objectMembers = wordset.Set{
	"__defineGetter__", "__defineSetter__", "__lookupGetter__", "__lookupSetter__", "__proto__",
	"constructor", "hasOwnProperty", "isPrototypeOf", "propertyIsEnumerable", "prototype", "then",
	"toJSON", "toLocaleString", "toString", "valueOf",
}

// IsIdentifier reports an ASCII JavaScript identifier: [A-Za-z_$][A-Za-z0-9_$]*.
// Non-ASCII identifiers are valid JavaScript, but generated names stay ASCII so
// they read the same everywhere.
func IsIdentifier(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}
