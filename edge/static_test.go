package edge_test

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"testing"

	"github.com/codemode-go/codemode/edge"
	"github.com/codemode-go/codemode/internal/ops"
)

func TestStaticFilesWithMIMETypesAndPrecompressedVariants(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"index.html": "<!doctype html><title>ide</title>", "codemode.wasm": "\x00asm-raw",
		"codemode.wasm.br": "BROTLI", "codemode.wasm.gz": "GZIP", "codemode.wasm.zst": "ZSTD", "codemode.js": "export {}",
		"quickjs.wasm": "\x00asm-q", "quickjs.wasm.br": "QBROTLI",
		"sub/index.html": "sub",
	}
	for name, content := range files {
		os.MkdirAll(filepath.Join(dir, filepath.Dir(name)), 0o755)
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(filepath.Dir(dir), "outside.txt"), []byte("secret"), 0o644)
	srv := newServer(t, edge.Options{StaticDir: dir})
	for _, c := range []struct{ path, accept, ctype, encoding, body string }{
		{"/", "", "text/html; charset=utf-8", "", files["index.html"]},
		{"/sub/", "", "text/html; charset=utf-8", "", "sub"},
		{"/codemode.wasm", "", "application/wasm", "", files["codemode.wasm"]},
		{"/codemode.wasm", "gzip, deflate, br", "application/wasm", "br", "BROTLI"},
		{"/codemode.wasm", "gzip, deflate, br, zstd", "application/wasm", "zstd", "ZSTD"}, // Chromium's header
		{"/codemode.wasm", "zstd;q=0, br", "application/wasm", "br", "BROTLI"},
		{"/quickjs.wasm", "gzip, deflate, br, zstd", "application/wasm", "br", "QBROTLI"}, // no .zst: the next accepted variant
		{"/codemode.wasm", "gzip", "application/wasm", "gzip", "GZIP"},
		{"/codemode.wasm", "br;q=0, gzip", "application/wasm", "gzip", "GZIP"},
		{"/codemode.js", "br", "text/javascript; charset=utf-8", "", "export {}"},
	} {
		if c.accept == "" {
			c.accept = "identity" // else Go's transport asks for gzip itself
		}
		req := []string{"Accept-Encoding", c.accept}
		a := do(t, "GET", srv.URL+c.path, "", "", req...)
		if a.status != 200 || a.header.Get("Content-Type") != c.ctype || a.header.Get("Content-Encoding") != c.encoding || string(a.body) != c.body {
			t.Errorf("GET %s (Accept-Encoding %q): %d type=%q enc=%q body=%q", c.path, c.accept, a.status, a.header.Get("Content-Type"), a.header.Get("Content-Encoding"), a.body)
		}
	}
	for _, path := range []string{"/missing.js", "/../outside.txt", "/%2e%2e/outside.txt", "/v1/unknown"} {
		a := do(t, "GET", srv.URL+path, "", "")
		if a.status != 404 || a.errorCode(t) != ops.CodeNotFound {
			t.Errorf("GET %s: %d %s", path, a.status, a.body)
		}
	}
	if a := do(t, "POST", srv.URL+"/index.html", "", "{}"); a.status != 404 {
		t.Errorf("POST to a static path: %d", a.status)
	}
}

// A ?v= naming the file's content hash is immutable; anything else is
// revalidated, and an unchanged file answers 304 to its ETag.
func TestStaticFilesCacheHeaders(t *testing.T) {
	dir := t.TempDir()
	body := []byte("\x00asm-core")
	if err := os.WriteFile(filepath.Join(dir, "codemode.wasm"), body, 0o644); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(body)
	v := hex.EncodeToString(sum[:])[:16]
	srv := newServer(t, edge.Options{StaticDir: dir})
	for _, c := range []struct{ path, cache string }{
		{"/codemode.wasm?v=" + v, "public, max-age=31536000, immutable"},
		{"/codemode.wasm?v=0123456789abcdef", "no-cache"},
		{"/codemode.wasm", "no-cache"},
	} {
		a := do(t, "GET", srv.URL+c.path, "", "", "Accept-Encoding", "identity")
		if a.status != 200 || a.header.Get("Cache-Control") != c.cache || a.header.Get("ETag") == "" || a.header.Get("Last-Modified") == "" {
			t.Errorf("GET %s: %d Cache-Control %q ETag %q", c.path, a.status, a.header.Get("Cache-Control"), a.header.Get("ETag"))
		}
		if again := do(t, "GET", srv.URL+c.path, "", "", "Accept-Encoding", "identity", "If-None-Match", a.header.Get("ETag")); again.status != 304 {
			t.Errorf("GET %s with its ETag: %d, want 304", c.path, again.status)
		}
	}
}
