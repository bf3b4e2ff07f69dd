package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// fakeAssets writes a stand-in of each asset Build versions (their bytes only
// feed the hashes) into a new directory.
func fakeAssets(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, f := range versioned {
		content := "content of " + f
		if f == "wasm_exec.js" {
			content = "// wasm_exec.js's license header\n\"use strict\";\n(() => { globalThis.Go = class {}; })();\n"
		}
		if err := os.WriteFile(filepath.Join(dir, f), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// staticImport matches a static import statement; the bundles may keep only
// dynamic ones (Node.js's modules, wasm_exec.js by URL).
var staticImport = regexp.MustCompile(`(?m)^\s*import\s*[{"'*\w]`)

func TestBuildBundlesTheShim(t *testing.T) {
	out := fakeAssets(t)
	if err := Build("..", out); err != nil {
		t.Fatal(err)
	}
	page, worker, assets := read(t, filepath.Join(out, "codemode.js")), read(t, filepath.Join(out, "codemode.worker.js")), read(t, filepath.Join(out, "assets.js"))
	for name, js := range map[string]string{"codemode.js": page, "codemode.worker.js": worker} {
		if m := staticImport.FindString(js); m != "" {
			t.Errorf("%s still has a static import (%q): a browser would request it before the .wasm files", name, m)
		}
		for _, want := range []string{"function installHostEngine", "function compileOnce", `"quickjs.wasm?v=` + version([]byte("content of quickjs.wasm")) + `"`} {
			if !strings.Contains(js, want) {
				t.Errorf("%s lacks %q", name, want)
			}
		}
	}
	// The worker defines Go before anything of its own runs, license header included.
	if i, j := strings.Index(worker, "wasm_exec.js's license header"), strings.Index(worker, "globalThis.Go = class"); i < 0 || j < i || j > strings.Index(worker, "function compileOnce") {
		t.Error("the worker's bundle does not start with wasm_exec.js verbatim")
	}
	if strings.Contains(page, "globalThis.Go = class") {
		t.Error("the page's bundle carries wasm_exec.js: only the worker (and inline hosts, which load it themselves) run Go")
	}
	workerName := "codemode.worker.js?v=" + version([]byte(worker))
	if !strings.Contains(page, workerName) || !strings.Contains(assets, workerName) {
		t.Errorf("the page's bundle and assets.js must name the worker by its own hash %s", workerName)
	}
	if strings.Contains(worker, "codemode.worker.js?v=") {
		t.Error("the worker's bundle names itself: its hash would depend on itself")
	}
	if !strings.Contains(page, "export {") || !strings.Contains(page, "createCodeMode") {
		t.Error("codemode.js lost its exports")
	}
}

func TestBuildIsDeterministicAndWritesOnlyChanges(t *testing.T) {
	out := fakeAssets(t)
	if err := Build("..", out); err != nil {
		t.Fatal(err)
	}
	first := read(t, filepath.Join(out, "codemode.js"))
	st, _ := os.Stat(filepath.Join(out, "codemode.js"))
	if err := Build("..", out); err != nil {
		t.Fatal(err)
	}
	if read(t, filepath.Join(out, "codemode.js")) != first {
		t.Error("two builds of the same inputs differ")
	}
	if st2, _ := os.Stat(filepath.Join(out, "codemode.js")); !st2.ModTime().Equal(st.ModTime()) {
		t.Error("an unchanged bundle was written again (its .br/.gz would be made again)")
	}
	// A changed asset changes the names in both bundles.
	os.WriteFile(filepath.Join(out, "codemode.wasm"), []byte("another build"), 0o644)
	if err := Build("..", out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(read(t, filepath.Join(out, "codemode.js")), "codemode.wasm?v="+version([]byte("another build"))) {
		t.Error("a rebuilt codemode.wasm kept its old versioned name")
	}
}

func TestBuildNamesAMissingAsset(t *testing.T) {
	out := fakeAssets(t)
	os.Remove(filepath.Join(out, "tsx.wasm"))
	err := Build("..", out)
	if err == nil || !strings.Contains(err.Error(), "tsx.wasm is missing") || !strings.Contains(err.Error(), "./build.sh build") {
		t.Fatalf("want an error naming tsx.wasm and the fix, got %v", err)
	}
}
