//go:build js && wasm

// Command front is the Cloudflare Worker's Go front, served by syumai/workers:
// a new Go instance per request (see package worker). Build it with
// ./build.sh worker; index.mjs runs it for every fetch.
package main

import (
	"log/slog"
	"net/http"
	"os"

	"github.com/codemode-go/codemode/edge/worker"
	json "github.com/goccy/go-json"
	"github.com/syumai/workers"
	"github.com/syumai/workers/cloudflare"
)

// Binding is the Durable Object namespace of the sessions (wrangler.jsonc).
const Binding = "CODEMODE_SESSION"

func main() {
	logger := slog.New(slog.NewTextHandler(os.Stdout, &slog.HandlerOptions{Level: slog.LevelWarn}))
	workers.Serve(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
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
		// Go's net/http uses fetch under GOOS=js outside Node: workerd's
		// process.argv0 is not "node".
		h, closeAll, err := worker.NewFront(r.Context(), r.URL.Path, worker.FrontOptions{
			Settings: s, Send: send, Client: http.DefaultClient, Logger: logger,
		})
		if err != nil {
			unavailable(w, "the Worker could not start: "+err.Error())
			return
		}
		defer closeAll()
		h.ServeHTTP(w, r)
	}))
}

// unavailable answers a misconfigured Worker in the API's error shape.
func unavailable(w http.ResponseWriter, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusServiceUnavailable)
	b, _ := json.Marshal(map[string]any{"error": map[string]string{"code": "unavailable", "message": msg}})
	w.Write(b)
}
