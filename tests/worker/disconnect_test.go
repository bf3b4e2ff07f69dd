package worker

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"testing"
	"time"

	json "github.com/goccy/go-json"
)

// A client that hangs up while its cell waits on a slow tool must not hurt the
// session: the very next request of that session is served.
// The hang-ups leave no goroutine behind in the session objects' Go cores.
func TestDisconnectMidRequestThenServed(t *testing.T) {
	const clients, rounds = 6, 20
	scopes := make([]scope, clients)
	for c := range scopes {
		scopes[c] = scope{"agentId": "worker-tests", "sessionId": fmt.Sprintf("disconnect-%d", c), "sessionKey": "k1", "agentRunId": "r1"}
		exec1(t, tokenAlice, scopes[c], `return 1`) // the session's object and core are up
	}
	before := instances(t)
	if before.Objects == 0 || before.Goroutines == nil {
		t.Fatalf("the debug route counts no session cores: %+v", before)
	}
	t.Run("clients", func(t *testing.T) {
		for c := range scopes {
			t.Run(fmt.Sprint(c), func(t *testing.T) {
				t.Parallel()
				disconnects(t, scopes[c], rounds)
			})
		}
	})
	// A hung-up exec's tool call ends a moment after the hang-up: poll
	// briefly. Idle objects may be evicted (and come back) meanwhile, so the
	// count compared is goroutines per live core.
	after := instances(t)
	for deadline := time.Now().Add(10 * time.Second); perCore(after) > perCore(before) && time.Now().Before(deadline); {
		time.Sleep(200 * time.Millisecond)
		after = instances(t)
	}
	t.Logf("session cores' goroutines: %d in %d cores before, %d in %d after %d hang-ups", *before.Goroutines, before.Objects, *after.Goroutines, after.Objects, clients*rounds)
	if perCore(after) > perCore(before) {
		t.Fatalf("the session cores hold %.1f goroutines each after %d hang-ups, %.1f before", perCore(after), clients*rounds, perCore(before))
	}
}

// perCore is the live session cores' goroutines per core in the isolate
// (GET /debug/front-instances).
func perCore(s debugInstances) float64 {
	if s.Objects == 0 || s.Goroutines == nil {
		return 0
	}
	return float64(*s.Goroutines) / float64(s.Objects)
}

func disconnects(t *testing.T, sc scope, rounds int) {
	for i := 0; i < rounds; i++ {
		b, _ := json.Marshal(map[string]any{"code": `await tools.sleep_ms({ms: 400}); return "late"`, "scope": sc})
		ctx, cancel := context.WithTimeout(context.Background(), time.Duration(60+i*4)*time.Millisecond)
		req, _ := http.NewRequestWithContext(ctx, "POST", env.url+"/v1/exec", bytes.NewReader(b))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+tokenAlice)
		if resp, err := http.DefaultClient.Do(req); err == nil {
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
		cancel()
		want := fmt.Sprintf("after-%d", i)
		st, m := post(t, tokenAlice, "/v1/exec", map[string]any{"code": fmt.Sprintf("return %q", want), "scope": sc})
		if st != 200 || m["status"] != "completed" || m["value"] != want {
			t.Fatalf("round %d: the request after a disconnect: %d %v", i, st, m)
		}
	}
}
