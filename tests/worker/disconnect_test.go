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
func TestDisconnectMidRequestThenServed(t *testing.T) {
	const clients, rounds = 6, 20
	for c := 0; c < clients; c++ {
		t.Run(fmt.Sprint("client", c), func(t *testing.T) {
			t.Parallel()
			disconnects(t, rounds)
		})
	}
}

func disconnects(t *testing.T, rounds int) {
	sc := sessionScope(t)
	exec1(t, tokenAlice, sc, `return 1`) // the session's DO is up
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
