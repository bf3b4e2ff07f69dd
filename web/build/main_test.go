package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBundleMakesOneScriptWithCodeMirror builds the IDE into a temporary
// directory: one ide.js with CodeMirror inside (no bare npm imports left for a
// browser to fail on), the shim kept as the external ./codemode.js, the
// stylesheet and the page.
func TestBundleMakesOneScriptWithCodeMirror(t *testing.T) {
	if _, err := os.Stat("../../node_modules/codemirror/package.json"); err != nil {
		t.Skip("node_modules is missing: run ./build.sh deps")
	}
	out := t.TempDir()
	if err := Bundle("..", out, false); err != nil {
		t.Fatal(err)
	}
	js, err := os.ReadFile(filepath.Join(out, "ide.js"))
	if err != nil {
		t.Fatal(err)
	}
	s := string(js)
	for _, bare := range []string{`from"codemirror"`, `from"@codemirror/`, `import("codemirror")`} {
		if strings.Contains(s, bare) {
			t.Errorf("ide.js still imports %s: CodeMirror was not bundled", bare)
		}
	}
	if !strings.Contains(s, "./codemode.js") {
		t.Error("ide.js lost its import of the shim ./codemode.js")
	}
	if !strings.Contains(s, "cm-editor") {
		t.Error("ide.js does not contain CodeMirror's editor")
	}
	// The language service is its own lazy bundle: TypeScript must not be in ide.js.
	if strings.Contains(s, "createLanguageService") {
		t.Error("ide.js contains TypeScript's language service: it belongs in ts.worker.js only")
	}
	worker, err := os.ReadFile(filepath.Join(out, "ts.worker.js"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"createLanguageService", "/lib.es5.d.ts", "/lib.es2023.d.ts", "interface Promise<T>"} {
		if !strings.Contains(string(worker), want) {
			t.Errorf("ts.worker.js lacks %q", want)
		}
	}
	for _, f := range []string{"ide.css", "index.html"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Errorf("%s was not written: %v", f, err)
		}
	}
	html, _ := os.ReadFile(filepath.Join(out, "index.html"))
	if !strings.Contains(string(html), `src="ide.js"`) {
		t.Error("index.html does not load ide.js")
	}
}

// TestBundleReportsSyntaxErrors: a broken source file is an error naming the
// file, not a half-written bundle.
func TestBundleReportsSyntaxErrors(t *testing.T) {
	src := t.TempDir()
	if err := os.MkdirAll(filepath.Join(src, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(src, "src", "main.js"), []byte("export const = ;"), 0o644)
	os.WriteFile(filepath.Join(src, "src", "ide.css"), []byte("body{}"), 0o644)
	os.WriteFile(filepath.Join(src, "index.html"), []byte("<!doctype html>"), 0o644)
	err := Bundle(src, t.TempDir(), false)
	if err == nil || !strings.Contains(err.Error(), "main.js") {
		t.Fatalf("want an error naming main.js, got %v", err)
	}
}
