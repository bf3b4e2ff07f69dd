package cellcheck

import (
	"errors"
	"testing"
)

func TestModuleRejected(t *testing.T) {
	tests := []struct {
		src   string
		found string
		line  int
	}{
		{"import fs from 'fs';", "import ... from", 1},
		{"import { a } from \"b\"", "import ... from", 1},
		{"import * as x from 'y'", "import ... from", 1},
		{"import 'side-effect'", "import ... from", 1},
		{"import type { T } from './t'", "import ... from", 1},
		{"const x = 1;\nimport x from 'y'", "import ... from", 2},
		{"const m = await import('fs')", "import(...)", 1},
		{"const m = await import(\n'fs')", "import(...)", 1},
		{"return import.meta.url", "import.meta", 1},
		{"const fs = require('fs')", "require(...)", 1},
		{"text(1);\nconst fs = require(\"fs\");", "require(...)", 2},
		{"require.resolve('x')", "require.resolve", 1},
		{"const r = \\u0072equire('fs')", "require(...)", 1},
		{"const r = \\u{72}equire('fs')", "require(...)", 1},
		{"module.exports = {}", "module.exports", 1},
		{"module.exports.x = 1", "module.exports", 1},
		{"exports.x = 1", "exports.x = ...", 1},
		{"importScripts('a.js')", "importScripts(...)", 1},
		{"System.import('x')", "System.import(...)", 1},
		{"System.register([], function () {})", "System.register(...)", 1},
		{"define(['a', 'b'], function (a, b) {})", "define([...], ...)", 1},
		{"define('name', ['a'], function (a) {})", "define([...], ...)", 1},
		{"define(function (require) {})", "define([...], ...)", 1},
		{"if (define.amd) {}", "define.amd", 1},
		{"__non_webpack_require__('x')", "__non_webpack_require__", 1},
		{"export const a = 1", "export", 1},
		{"export default 1", "export", 1},
		{"text(`${require('fs')}`)", "require(...)", 1},
		{"text(`a ${`b ${require('x')}`} c`)", "require(...)", 1},
		{"const s = `\n\n${import('x')}`", "import(...)", 3},
		{"x = a / b; require('y') /c/", "require(...)", 1},
		{"const o = { a: 1 };\nrequire('y')\n{ }", "require(...)", 2},
		{"/* c */ require('y')", "require(...)", 1},
		{"// c\n/* c\nc */\nrequire('y')", "require(...)", 4},
		{"'str'\nrequire('y')", "require(...)", 2},
		{"x = 'unterminated\nrequire('y')", "require(...)", 2},
		{"x = /unterminated\nrequire('y')", "require(...)", 2},
		{"namespace N { export const v = 1 }\nexport const w = 2", "export", 2},
		{"namespace N { }; export const w = 2", "export", 1},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			err := Check(tt.src)
			var ce *Error
			if !errors.As(err, &ce) || ce.Kind != KindModule {
				t.Fatalf("Check(%q) = %v, want a module error", tt.src, err)
			}
			if ce.Found != tt.found || ce.Line != tt.line {
				t.Errorf("Found, Line = %q, %d; want %q, %d", ce.Found, ce.Line, tt.found, tt.line)
			}
		})
	}
}

func TestModuleMessage(t *testing.T) {
	err := Check("text(1);\nconst fs = require('fs');")
	want := `exec runs a sandboxed JavaScript cell: "require(...)" is not available (no modules, file system or network); call tools through tools.* instead (line 2)`
	if err == nil || err.Error() != want {
		t.Fatalf("Check error = %v\nwant %s", err, want)
	}
}

func TestModuleNotRejected(t *testing.T) {
	for _, src := range []string{
		`text("import x from y")`,
		`text('require("fs")')`,
		"// require(x)\nreturn 1",
		"/* import fs from 'fs' */ return 1",
		"return /import/.test(s)",
		"return /require\\(x\\)/.test(s)",
		"const ok = s.match(/[/]require(/)",
		"return `import x from y`",
		"return `require('fs') is ${'not'} called`",
		"obj.require(1)",
		"obj?.require(1)",
		"x.import",
		"x.import('y')",
		"tools.import({})",
		"api.exports.x = 1",
		"const o = { import: 1, export: 2, require: 3 }",
		"const o = {\n  import() { return 1 },\n  require(x) { return x },\n}",
		"class A { import() {} static require(x) {} }",
		"function require(x) { return x }",
		"this.#require = 1",
		"typeof require",
		"const module = { exports: 1 }; return module.exports2",
		"const exports = {}",
		"exports.x == 1",
		"System.out",
		"define(1)",
		"define(x, y)",
		"const importance = 1; const required = 2; const reimport = 3",
		"let a = b / c / d; return a",
		"return x.y(1) / require",
		"#!/usr/bin/env node\nreturn 1",
		"const re = /`/; return re",
		"x = a\n/ 2 / 3",
		"namespace N { export const v = 1 }\nreturn N.v",
		"namespace A.B { export function f() { return { a: 1 } } export const g = 2 }",
		"declare namespace D { export const x: number }",
		"module M { export const v = 1 }",
		"",
	} {
		if err := Check(src); err != nil {
			t.Errorf("Check(%q) = %v, want nil", src, err)
		}
	}
}
