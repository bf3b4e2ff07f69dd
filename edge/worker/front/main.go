//go:build js && wasm

// Command front is the Cloudflare Worker's Go front: one Go program per
// isolate, started by src/index.mjs inside the isolate's first request (workerd
// refuses random values and timers at global scope) and serving every request
// of that isolate through binding.serve (worker.ServeJS). syumai/workers
// provides the Durable Object binding and the fetch client; its own Serve
// starts a Go program per request, which cost ~40-100 ms of CPU each.
package main

import (
	"log/slog"
	"net/http"
	"os"
	"runtime"
	"syscall/js"

	"github.com/codemode-go/codemode/internal/demo"
	"github.com/codemode-go/codemode/internal/worker"
	json "github.com/goccy/go-json"
	"github.com/syumai/workers/cloudflare"
	"github.com/syumai/workers/cloudflare/fetch"
)

// exampleTools is the example toolset: nil in the shipped front, set by
// demo.go in the demo build (./build.sh worker-dev, test-worker).
var exampleTools demo.Tools

// Binding is the Durable Object namespace of the sessions (wrangler.jsonc).
const Binding = "CODEMODE_SESSION"

func main() {
	logger := slog.New(slog.NewTextHandler(os.Stdout, &slog.HandlerOptions{Level: slog.LevelWarn}))
	binding := js.Global().Get("context").Get("binding")
	binding.Set("serve", worker.ServeJS(front(logger), logger))
	// stats: this program's goroutines and heap, for the debug route's leak
	// checks (GET /debug/front-instances, only with CODEMODE_DEBUG_INSTANCES).
	binding.Set("stats", js.FuncOf(func(js.Value, []js.Value) any {
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return map[string]any{"goroutines": runtime.NumGoroutine(), "heapBytes": m.HeapAlloc}
	}))
	select {} // serve until the isolate ends
}

// front is the Worker's handler, built once from its env (the same for every
// request of an isolate). A bad config answers every request with 503 naming it.
func front(logger *slog.Logger) http.Handler {
	s, err := worker.ReadSettings(cloudflare.Getenv)
	if err != nil {
		return unavailable(err.Error())
	}
	send, err := worker.NewObjectSender(Binding)
	if err != nil {
		return unavailable(err.Error())
	}
	// net/http's own fetch transport calls fetch on the runtime-context
	// proxy ("Illegal invocation" in workerd): call it on globalThis.
	client := fetch.NewClient(fetch.WithBinding(js.Global().Get("globalThis"))).HTTPClient(fetch.RedirectModeFollow)
	h, err := worker.NewFront(worker.FrontOptions{Settings: s, Send: send, Client: client, Logger: logger, ExampleTools: exampleTools})
	if err != nil {
		return unavailable("the Worker could not start: " + err.Error())
	}
	return h
}

// unavailable answers a misconfigured Worker in the API's error shape.
func unavailable(msg string) http.Handler {
	b, _ := json.Marshal(map[string]any{"error": map[string]string{"code": "unavailable", "message": msg}})
	return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusServiceUnavailable)
		w.Write(b)
	})
}
