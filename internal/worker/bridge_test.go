package worker_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/codemode-go/codemode/internal/worker"
)

// ServeBuffered hands the Worker whole answers, and a panicking handler ends
// its request with a 500 in the API's shape, never the front's Go program.
func TestServeBuffered(t *testing.T) {
	for _, c := range []struct {
		name   string
		h      http.HandlerFunc
		status int
		body   string
		header string
	}{
		{"body without WriteHeader", func(w http.ResponseWriter, _ *http.Request) { w.Write([]byte("a")); w.Write([]byte("b")) }, 200, "ab", ""},
		{"status and header", func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Allow", "POST")
			w.WriteHeader(405)
			w.WriteHeader(500) // ignored, as net/http does
			w.Write([]byte("{}"))
		}, 405, "{}", "POST"},
		{"no body", func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(204) }, 204, "", ""},
		{"nothing written", func(http.ResponseWriter, *http.Request) {}, 200, "", ""},
		{"panic", func(http.ResponseWriter, *http.Request) { panic("boom at /secret/path.go:12") }, 500, `"code":"internal_error"`, ""},
	} {
		a := worker.ServeBuffered(c.h, httptest.NewRequest("GET", "/x", nil), nil)
		if a.Status != c.status || !strings.Contains(string(a.Body), c.body) || (c.body == "" && len(a.Body) != 0) || a.Header.Get("Allow") != c.header {
			t.Errorf("%s: %d %q %v", c.name, a.Status, a.Body, a.Header)
		}
		if strings.Contains(string(a.Body), "secret") {
			t.Errorf("%s: the answer shows the panic: %s", c.name, a.Body)
		}
	}
}
