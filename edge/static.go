package edge

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"github.com/codemode-go/codemode/internal/ops"
	"io"
	"mime"
	"net/http"
	"os"
	"path"
	"strconv"
	"strings"
	"sync"
	"time"
)

// precompressed are the variants a file may have beside it, most preferred first.
var precompressed = []struct{ enc, ext string }{{"zstd", ".zst"}, {"br", ".br"}, {"gzip", ".gz"}}

// staticFiles serves a directory (the web IDE's build/web) read-only. Paths
// are resolved inside an os.Root, so nothing outside the directory is
// reachable through "..", absolute paths or symlinks. A request for x.wasm is
// answered from x.wasm.zst, x.wasm.br or x.wasm.gz, in that order, when the
// client accepts that encoding and the variant exists, with the original's
// Content-Type. zstd comes first because a browser decodes it several times
// faster than brotli: on a warm load Chromium reads the compressed body from
// its HTTP cache and decodes it again, and for the 8.5 MB codemode.wasm
// brotli's decode was ~30 ms of the page's first result (tests/bench/RESULTS.md,
// zstd). The build writes .zst only for the .wasm files, where zstd -19 is
// also smaller than brotli -9.
//
// Caching: every answer carries an ETag and Last-Modified. A request whose
// query is ?v=HASH, HASH being the first 16 hex digits of the file's sha256
// (what ./build.sh build writes into build/web/assets.js for hostjs), is
// immutable: Cache-Control says so for a year, so a browser loads
// codemode.wasm (and hostjs's worker script) from its cache without asking.
// Every other answer is no-cache: revalidated, a 304 when unchanged. The
// immutable answer also keeps Chromium's wasm code cache usable: an entry is
// read back only for the response it was written for (the same response time,
// which a 304 revalidation would renew: tests/bench/RESULTS.md, code-cache).
type staticFiles struct {
	root *os.Root

	mu     sync.Mutex
	hashes map[string]fileHash // name -> its hash at a size and mtime
}

// fileHash is a file's content hash, valid while its size and mtime hold.
type fileHash struct {
	size int64
	mod  time.Time
	hex  string
}

func newStaticFiles(dir string) (*staticFiles, error) {
	fi, err := os.Stat(dir)
	if err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("edge: static directory %q does not exist or is not a directory", dir)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("edge: static directory %q cannot be opened", dir)
	}
	return &staticFiles{root: root}, nil
}

// Content types a browser must get exactly; the rest comes from the mime
// package's table.
var staticTypes = map[string]string{
	".wasm": "application/wasm",
	".js":   "text/javascript; charset=utf-8",
	".mjs":  "text/javascript; charset=utf-8",
	".css":  "text/css; charset=utf-8",
	".html": "text/html; charset=utf-8",
	".json": "application/json",
	".map":  "application/json",
	".ts":   "text/plain; charset=utf-8",
	".svg":  "image/svg+xml",
}

func contentType(name string) string {
	ext := strings.ToLower(path.Ext(name))
	if t, ok := staticTypes[ext]; ok {
		return t
	}
	if t := mime.TypeByExtension(ext); t != "" {
		return t
	}
	return "application/octet-stream"
}

func (s *staticFiles) serve(w http.ResponseWriter, r *http.Request) {
	name := strings.TrimPrefix(path.Clean("/"+r.URL.Path), "/")
	if name == "" || strings.HasSuffix(r.URL.Path, "/") {
		name = path.Join(name, "index.html")
	}
	if fi, err := s.root.Stat(name); err == nil && fi.IsDir() {
		name = path.Join(name, "index.html")
	}
	h := w.Header()
	h.Set("Content-Type", contentType(name))
	h.Set("X-Content-Type-Options", "nosniff")
	h.Add("Vary", "Accept-Encoding")
	if v := r.URL.Query().Get("v"); v != "" && v == s.hashOf(name) {
		h.Set("Cache-Control", "public, max-age=31536000, immutable")
	} else {
		h.Set("Cache-Control", "no-cache")
	}
	accept := r.Header.Get("Accept-Encoding")
	for _, v := range precompressed {
		if !acceptsEncoding(accept, v.enc) {
			continue
		}
		if s.serveFile(w, r, name+v.ext, v.enc) {
			return
		}
	}
	if !s.serveFile(w, r, name, "") {
		h.Del("Content-Type")
		h.Del("Vary")
		writeError(w, refuse(http.StatusNotFound, ops.CodeNotFound, "no file "+quoteField(r.URL.Path)))
	}
}

// serveFile answers with one regular file; false when it does not exist.
func (s *staticFiles) serveFile(w http.ResponseWriter, r *http.Request, name, encoding string) bool {
	f, err := s.root.Open(name)
	if err != nil {
		return false
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return false
	}
	if encoding != "" {
		w.Header().Set("Content-Encoding", encoding)
	}
	// Strong and cheap: each variant file has its own size and mtime.
	w.Header().Set("ETag", `"`+strconv.FormatInt(fi.Size(), 36)+"-"+strconv.FormatInt(fi.ModTime().UnixNano(), 36)+`"`)
	http.ServeContent(w, r, path.Base(name), fi.ModTime(), f)
	return true
}

// hashOf answers the first 16 hex digits of the sha256 of the file name (the
// uncompressed original), "" when it cannot be read. It is computed once per
// size and mtime.
func (s *staticFiles) hashOf(name string) string {
	fi, err := s.root.Stat(name)
	if err != nil || !fi.Mode().IsRegular() {
		return ""
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if c, ok := s.hashes[name]; ok && c.size == fi.Size() && c.mod.Equal(fi.ModTime()) {
		return c.hex
	}
	f, err := s.root.Open(name)
	if err != nil {
		return ""
	}
	defer f.Close()
	sum := sha256.New()
	if _, err := io.Copy(sum, f); err != nil {
		return ""
	}
	if s.hashes == nil {
		s.hashes = map[string]fileHash{}
	}
	c := fileHash{size: fi.Size(), mod: fi.ModTime(), hex: hex.EncodeToString(sum.Sum(nil))[:16]}
	s.hashes[name] = c
	return c.hex
}

// acceptsEncoding reports whether an Accept-Encoding header allows enc with a
// non-zero quality.
func acceptsEncoding(header, enc string) bool {
	for _, part := range strings.Split(header, ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if !strings.EqualFold(strings.TrimSpace(name), enc) {
			continue
		}
		q := strings.ReplaceAll(params, " ", "")
		return !(q == "q=0" || q == "q=0.0" || q == "q=0.00" || q == "q=0.000")
	}
	return false
}
