package httpapi

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

type reply struct {
	Status int
	Header http.Header
	Body   []byte
}

func (r reply) obj(t *testing.T) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(r.Body, &m); err != nil {
		t.Fatalf("answer is not a JSON object (%d): %.300s", r.Status, r.Body)
	}
	return m
}

// errCode checks the {error: {code, message}} shape and returns the code.
func (r reply) errCode(t *testing.T) string {
	t.Helper()
	e, ok := r.obj(t)["error"].(map[string]any)
	if !ok {
		t.Fatalf("no error object (%d): %.300s", r.Status, r.Body)
	}
	if m, _ := e["message"].(string); m == "" {
		t.Fatalf("error without a message: %s", r.Body)
	}
	c, _ := e["code"].(string)
	return c
}

// client opens a connection per request: local workerd (the Worker's target)
// may close a kept-alive connection right after a long answer, and a POST sent
// on it in that instant fails with a reset that no client retries (see
// tests/internal/wranglerdev).
var client = &http.Client{Timeout: 60 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}

// call sends one request; token "" sends none, "-" the suite's own token.
func call(t *testing.T, method, path, token string, body io.Reader, hdr ...string) reply {
	t.Helper()
	req, err := http.NewRequest(method, srv.url+path, body)
	if err != nil {
		t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token == "-" {
		token = srv.token
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return reply{resp.StatusCode, resp.Header, b}
}

func post(t *testing.T, path, body string) reply {
	t.Helper()
	return call(t, "POST", path, "-", strings.NewReader(body))
}

// scope gives each test its own session, so runs never cross between tests.
func scope(t *testing.T) string {
	name := strings.NewReplacer("/", "_", " ", "_").Replace(t.Name())
	return `"scope":{"agentId":"httpapi","sessionId":"` + name + `","sessionKey":"k","agentRunId":"r1"}`
}

func execCell(t *testing.T, code string) map[string]any {
	t.Helper()
	b, _ := json.Marshal(code)
	r := post(t, "/v1/exec", `{"code":`+string(b)+`,`+scope(t)+`}`)
	if r.Status != 200 {
		t.Fatalf("exec: %d %s", r.Status, r.Body)
	}
	return r.obj(t)
}

func waitRun(t *testing.T, runID string) map[string]any {
	t.Helper()
	r := post(t, "/v1/wait", `{"runId":"`+runID+`",`+scope(t)+`}`)
	if r.Status != 200 {
		t.Fatalf("wait: %d %s", r.Status, r.Body)
	}
	return r.obj(t)
}

// noGo fails when an answer shows Go internals.
func noGo(t *testing.T, b []byte) {
	t.Helper()
	for _, bad := range []string{"goroutine ", ".go:", "runtime error", "*edge.", "reflect.", "[]uint8", "/root/", "/home/"} {
		if bytes.Contains(b, []byte(bad)) {
			t.Errorf("answer contains %q: %.400s", bad, b)
		}
	}
}
