package worker

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
)

// Answer is one whole response of the front: every route of the API answers a
// bounded JSON document (or nothing), so the front hands the Worker the body
// in one piece instead of a stream.
type Answer struct {
	// Status is the HTTP status (200 when the handler wrote none).
	Status int
	// Header holds the response headers the handler set.
	Header http.Header
	// Body is the whole response body.
	Body []byte
}

// ServeBuffered runs h for r and returns its answer. The front is one Go
// program serving every request of its isolate, so a panic must end the
// request, not the program: it is answered as edge answers its own internal
// errors (500 internal_error, nothing of the panic shown) and logged.
func ServeBuffered(h http.Handler, r *http.Request, logger *slog.Logger) (a Answer) {
	w := &bufferedWriter{header: http.Header{}}
	defer func() {
		if p := recover(); p != nil {
			if logger != nil {
				logger.Error("front request panicked", "method", r.Method, "path", r.URL.Path, "panic", p)
			}
			a = Answer{Status: http.StatusInternalServerError, Header: http.Header{"Content-Type": {"application/json"}},
				Body: []byte(`{"error":{"code":"internal_error","message":"the Worker failed while answering this request; try again"}}` + "\n")}
		}
	}()
	h.ServeHTTP(w, r)
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return Answer{Status: w.status, Header: w.header, Body: w.body.Bytes()}
}

// bufferedWriter is the http.ResponseWriter of ServeBuffered.
type bufferedWriter struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (w *bufferedWriter) Header() http.Header { return w.header }

func (w *bufferedWriter) WriteHeader(status int) {
	if w.status == 0 {
		w.status = status
	}
}

func (w *bufferedWriter) Write(b []byte) (int, error) {
	w.WriteHeader(http.StatusOK)
	return w.body.Write(b)
}

// Flush is a no-op: the answer goes out whole.
func (w *bufferedWriter) Flush() {}

type laterKey struct{}

// WithLater stores in ctx how work that outlives this request's answer is
// run (the Worker's ctx.waitUntil of this very request): the front serves
// every request from one Go program, so it cannot hold one.
func WithLater(ctx context.Context, later func(task func())) context.Context {
	return context.WithValue(ctx, laterKey{}, later)
}

// laterOf is the request's WithLater, or nil.
func laterOf(ctx context.Context) func(task func()) {
	f, _ := ctx.Value(laterKey{}).(func(task func()))
	return f
}
