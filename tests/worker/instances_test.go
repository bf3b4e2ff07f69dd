package worker

import (
	"io"
	"net/http"
	"testing"
	"time"

	json "github.com/goccy/go-json"
)

// debugInstances is GET /debug/front-instances (index.mjs; the route exists
// only with CODEMODE_DEBUG_INSTANCES): front Go instances still running, and
// the session objects' live cores with their goroutines and heap.
type debugInstances struct {
	Live       *int `json:"live"`
	Objects    int  `json:"objects"`
	Goroutines *int `json:"goroutines"`
	HeapBytes  int64
}

func instances(t *testing.T) debugInstances {
	t.Helper()
	resp, err := http.Get(env.url + "/debug/front-instances")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var v debugInstances
	if err := json.Unmarshal(raw, &v); err != nil || v.Live == nil {
		t.Fatalf("front-instances %d: %.200s", resp.StatusCode, raw)
	}
	return v
}

// liveFronts reads how many Go instances of the front are still running.
func liveFronts(t *testing.T) int {
	t.Helper()
	return *instances(t).Live
}

// A CORS preflight is answered 204 without a body, and syumai/workers ends a
// Go program only once a body is read: each preflight used to leave one front
// instance running for the life of the isolate. Every kind of answer must let
// its instance end.
func TestPreflightInstancesEnd(t *testing.T) {
	base := liveFronts(t)
	requests := []func() (*http.Request, int){
		func() (*http.Request, int) { // preflight: 204, no body
			r, _ := http.NewRequest("OPTIONS", env.url+"/v1/exec", nil)
			r.Header.Set("Origin", ideOrigin)
			r.Header.Set("Access-Control-Request-Method", "POST")
			r.Header.Set("Access-Control-Request-Headers", "authorization, content-type")
			return r, http.StatusNoContent
		},
		func() (*http.Request, int) { // a body answer
			r, _ := http.NewRequest("GET", env.url+"/healthz", nil)
			return r, http.StatusOK
		},
		func() (*http.Request, int) { // an error answer
			r, _ := http.NewRequest("GET", env.url+"/v1/catalog", nil)
			return r, http.StatusUnauthorized
		},
	}
	const rounds = 20
	for i := 0; i < rounds; i++ {
		for _, mk := range requests {
			req, want := mk()
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode != want {
				t.Fatalf("%s %s: status %d, want %d", req.Method, req.URL.Path, resp.StatusCode, want)
			}
			if req.Method == "OPTIONS" && resp.Header.Get("Access-Control-Allow-Origin") != ideOrigin {
				t.Fatalf("preflight not answered by the CORS policy: %v", resp.Header)
			}
		}
	}
	// Instances end a moment after their answer: poll briefly.
	deadline := time.Now().Add(10 * time.Second)
	live := liveFronts(t)
	for live > base && time.Now().Before(deadline) {
		time.Sleep(100 * time.Millisecond)
		live = liveFronts(t)
	}
	if live > base {
		t.Fatalf("%d front instances still running after %d requests (before: %d)", live, rounds*len(requests), base)
	}
}
