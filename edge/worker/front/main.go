//go:build js && wasm

// Command front is the Cloudflare Worker's Go front, served by syumai/workers:
// a new Go instance per request (see package worker). Build it with
// ./build.sh worker; index.mjs runs it for every fetch.
package main

import (
	"log/slog"
	"net/http"
	"os"
	"sync"
	"syscall/js"

	"github.com/codemode-go/codemode/edge/worker"
	json "github.com/goccy/go-json"
	"github.com/syumai/workers"
	"github.com/syumai/workers/cloudflare"
	"github.com/syumai/workers/cloudflare/fetch"
)

// Binding is the Durable Object namespace of the sessions (wrangler.jsonc).
const Binding = "CODEMODE_SESSION"

func main() {
	logger := slog.New(slog.NewTextHandler(os.Stdout, &slog.HandlerOptions{Level: slog.LevelWarn}))
	// later is work that outlives the answer (the touch after a waiting
	// result): ctx.waitUntil keeps the request alive for it, and main waits for
	// it too, since this Go program exits once the answer's body is read.
	var pending sync.WaitGroup
	later := func(task func()) {
		pending.Add(1)
		cloudflare.WaitUntil(func() {
			defer pending.Done()
			task()
		})
	}
	workers.ServeNonBlock(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s, err := worker.ReadSettings(cloudflare.Getenv)
		if err != nil {
			unavailable(w, err.Error())
			return
		}
		send, err := worker.NewObjectSender(Binding)
		if err != nil {
			unavailable(w, err.Error())
			return
		}
		// net/http's own fetch transport calls fetch on the runtime-context
		// proxy ("Illegal invocation" in workerd): call it on globalThis.
		client := fetch.NewClient(fetch.WithBinding(js.Global().Get("globalThis"))).HTTPClient(fetch.RedirectModeFollow)
		h, closeAll, err := worker.NewFront(r.Context(), r.URL.Path, worker.FrontOptions{
			Settings: s, Send: send, Client: client, Logger: logger, Later: later,
		})
		if err != nil {
			unavailable(w, "the Worker could not start: "+err.Error())
			return
		}
		defer closeAll()
		h.ServeHTTP(w, r)
	}))
	end := endSignal()
	workers.Ready()
	select {
	case <-workers.Done():
	case <-end:
	}
	pending.Wait()
}

// endSignal registers binding.end, which index.mjs calls when the answer has
// no body (a 204 CORS preflight): workers.Done fires only once a body stream
// is read to its end, so without it such a request would leave this Go
// program running for the life of the isolate.
func endSignal() <-chan struct{} {
	end := make(chan struct{})
	var once sync.Once
	js.Global().Get("context").Get("binding").Set("end", js.FuncOf(func(js.Value, []js.Value) any {
		once.Do(func() { close(end) })
		return nil
	}))
	return end
}

// unavailable answers a misconfigured Worker in the API's error shape.
func unavailable(w http.ResponseWriter, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusServiceUnavailable)
	b, _ := json.Marshal(map[string]any{"error": map[string]string{"code": "unavailable", "message": msg}})
	w.Write(b)
}
