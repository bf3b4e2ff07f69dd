package worker

import (
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	json "github.com/goccy/go-json"
)

// debugInstances is GET /debug/front-instances (index.mjs; the route exists
// only with CODEMODE_DEBUG_INSTANCES): the front's Go programs running in the
// isolate (live: 0 or 1) and ever started there, the running one's
// goroutines, and the session objects' live cores with their goroutines and heap.
type debugInstances struct {
	Live            *int `json:"live"`
	Started         int  `json:"started"`
	FrontGoroutines int  `json:"frontGoroutines"`
	Objects         int  `json:"objects"`
	Goroutines      *int `json:"goroutines"`
	HeapBytes       int64
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

// One Go program of the front serves every request of its isolate: every kind
// of answer (a body-less 204 preflight, a body, an error, a refused body) is
// served by the same program, which neither exits nor keeps a goroutine per
// request. (The per-request model this replaced once leaked a running Go
// program per preflight.)
func TestOneFrontServesEveryRequest(t *testing.T) {
	http.Get(env.url + "/healthz") // the front is up
	base := instances(t)
	if *base.Live != 1 || base.Started < 1 {
		t.Fatalf("no running front after a request: %+v", base)
	}
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
		func() (*http.Request, int) { // a body the front reads and refuses
			r, _ := http.NewRequest("POST", env.url+"/v1/exec", strings.NewReader(`{"code": 1}`))
			r.Header.Set("Authorization", "Bearer "+tokenAlice)
			r.Header.Set("Content-Type", "application/json")
			return r, http.StatusBadRequest
		},
	}
	const rounds = 20
	for i := 0; i < rounds; i++ {
		for _, mk := range requests {
			req, want := mk()
			resp, err := (&http.Client{Transport: noKeepAlive}).Do(req)
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
	// A request's goroutine ends a moment after its answer: poll briefly.
	after := instances(t)
	for deadline := time.Now().Add(10 * time.Second); after.FrontGoroutines > base.FrontGoroutines && time.Now().Before(deadline); {
		time.Sleep(100 * time.Millisecond)
		after = instances(t)
	}
	if *after.Live != 1 || after.Started != base.Started {
		t.Fatalf("%d requests started another Go program of the front: before %+v, after %+v", rounds*len(requests), base, after)
	}
	if after.FrontGoroutines > base.FrontGoroutines {
		t.Fatalf("the front holds %d goroutines after %d requests, %d before", after.FrontGoroutines, rounds*len(requests), base.FrontGoroutines)
	}
}
