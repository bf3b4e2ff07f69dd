package httpapi

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
)

// The HTTP-level hostile battery: only HTTP, so it runs unchanged against
// `codemode serve` and the Worker on local workerd. Every case asserts the exact
// status, the error code and the message, and that no Go internals show.

// unknownRun is the one answer for every run a caller cannot wait on: guessed,
// malformed, consumed, expired or another session's or principal's.
const unknownRun = "code mode run is unavailable or expired."

// busyRun is the spec's answer to a wait on a run another wait is resuming.
const busyRun = "code mode run is already being resumed."

func mustUnknownRun(t *testing.T, what string, r reply) {
	t.Helper()
	noGo(t, r.Body)
	m := r.obj(t)
	if r.Status != 200 || m["status"] != "failed" || m["code"] != "invalid_input" || m["error"] != unknownRun {
		t.Errorf("%s: %d %.300s, want 200 failed invalid_input %q", what, r.Status, r.Body, unknownRun)
	}
}

func TestHostileGuessedRunIDs(t *testing.T) {
	sc := scope(t)
	for name, id := range map[string]string{
		"well formed":  "cm_zzzzzzzzzzzzzzzzzzzzzzzz",
		"short":        "x",
		"10,000 bytes": strings.Repeat("a", 10000),
		"path":         "../../etc/passwd",
		"NUL":          `cm_\u0000`,
		"unicode":      "cm_\u2028\u00e9",
		"proto":        "__proto__",
	} {
		t.Run(name, func(t *testing.T) {
			mustUnknownRun(t, name, post(t, "/v1/wait", `{"runId":"`+id+`",`+sc+`}`))
		})
	}
	r := post(t, "/v1/wait", `{"runId":"",`+sc+`}`)
	if m := r.obj(t); r.Status != 200 || m["code"] != "invalid_input" || m["error"] != "wait needs a runId from a waiting exec result." {
		t.Errorf("empty runId: %d %s", r.Status, r.Body)
	}
}

// TestHostileConcurrentWaitOnOneRun: of eight concurrent waits on one run exactly
// one gets its value; each of the others gets one of the spec's answers for a
// runId that is unknown or already being resumed (which one depends on whether
// it arrived while the winner was resuming), and a wait after completion gets
// the unknown-run answer.
func TestHostileConcurrentWaitOnOneRun(t *testing.T) {
	id := execCell(t, "await yield_control(); return 7")["runId"].(string)
	res := make([]reply, 8)
	var wg sync.WaitGroup
	for i := range res {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res[i] = post(t, "/v1/wait", `{"runId":"`+id+`",`+scope(t)+`}`)
		}()
	}
	wg.Wait()
	completed := 0
	for i, r := range res {
		if m := r.obj(t); m["status"] == "completed" {
			completed++
			if m["value"] != 7.0 {
				t.Errorf("wait %d: %s", i, r.Body)
			}
		} else if m["error"] != busyRun {
			mustUnknownRun(t, "concurrent wait", r)
		} else if r.Status != 200 || m["status"] != "failed" || m["code"] != "invalid_input" {
			t.Errorf("concurrent wait %d: %d %.300s", i, r.Status, r.Body)
		}
	}
	if completed != 1 {
		t.Errorf("%d waits completed the run, want exactly 1", completed)
	}
	mustUnknownRun(t, "wait after completion", post(t, "/v1/wait", `{"runId":"`+id+`",`+scope(t)+`}`))
}

// TestHostileOtherScopeRunIDs: within one principal a run is refused to every
// other agent or session with the spec's wrong-session answer (another principal
// gets the unknown-run answer: TestOtherPrincipalSeesAnUnknownRun), and its owner
// can still finish it.
func TestHostileOtherScopeRunIDs(t *testing.T) {
	id := execCell(t, "await yield_control(); return 'mine'")["runId"].(string)
	own := strings.NewReplacer("/", "_", " ", "_").Replace(t.Name())
	for name, sc := range map[string]string{
		"other agent":   `{"agentId":"intruder","sessionId":"` + own + `","sessionKey":"k","agentRunId":"r1"}`,
		"other session": `{"agentId":"httpapi","sessionId":"` + own + `x","sessionKey":"k","agentRunId":"r1"}`,
		"no session":    `{"agentId":"httpapi"}`,
	} {
		r := post(t, "/v1/wait", `{"runId":"`+id+`","scope":`+sc+`}`)
		noGo(t, r.Body)
		// Both answers are the spec's (Lebenszyklus von Lauf und Snapshot): the
		// native store knows the run and names the session; the Worker keeps
		// each session in its own Durable Object, where the run is unknown.
		if m := r.obj(t); r.Status != 200 || m["status"] != "failed" || m["code"] != "invalid_input" ||
			(m["error"] != "code mode run belongs to a different session." && m["error"] != "code mode run is unavailable or expired.") {
			t.Errorf("%s: %d %.300s", name, r.Status, r.Body)
		}
	}
	if m := waitRun(t, id); m["value"] != "mine" {
		t.Fatalf("owner's wait after the refusals: %v", m)
	}
}

// TestHostileRequestBodies: wrong types everywhere, deep nesting, duplicates.
func TestHostileRequestBodies(t *testing.T) {
	sc := scope(t)
	deep := strings.Repeat("[", 5000) + strings.Repeat("]", 5000)
	for _, c := range []struct {
		name, path, body string
		status           int
		code, message    string
	}{
		{"array body", "/v1/exec", `[]`, 400, "wrong_type", "the request body must be an object (got an array)"},
		{"string body", "/v1/exec", `"x"`, 400, "wrong_type", "the request body must be an object (got a string)"},
		{"null body", "/v1/exec", `null`, 400, "wrong_type", "the request body must be an object (got null)"},
		{"code number", "/v1/exec", `{"code":5,` + sc + `}`, 400, "wrong_type", `field "code" must be a string (got a number)`},
		{"code deep array", "/v1/exec", `{"code":` + deep + `,` + sc + `}`, 400, "wrong_type", `field "code" must be a string (got an array)`},
		{"language number", "/v1/exec", `{"code":"1","language":7,` + sc + `}`, 400, "wrong_type", `field "language" must be a string (got a number)`},
		{"restartSafe string", "/v1/exec", `{"code":"1","restartSafe":"yes",` + sc + `}`, 400, "wrong_type", `field "restartSafe" must be a boolean (got a string)`},
		{"scope array", "/v1/exec", `{"code":"1","scope":[]}`, 400, "wrong_type", `field "scope" must be an object (got an array)`},
		{"scope agentId number", "/v1/exec", `{"code":"1","scope":{"agentId":5}}`, 400, "wrong_type", `field "scope.agentId" must be a string (got a number)`},
		{"duplicate code", "/v1/exec", `{"code":"1",` + sc + `,"code":"2"}`, 400, "duplicate_field", `field "code" appears more than once`},
		{"unknown timeoutMs", "/v1/exec", `{"code":"1","timeoutMs":"x",` + sc + `}`, 400, "unknown_field", `field "timeoutMs" is not a known field (known: code, command, language, restartSafe, scope)`},
		{"runId object", "/v1/wait", `{"runId":{"$gt":""},` + sc + `}`, 400, "wrong_type", `field "runId" must be a string (got an object)`},
		{"tool id number", "/v1/tools/call", `{"id":1,` + sc + `}`, 400, "wrong_type", `field "id" must be a string (got a number)`},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := post(t, c.path, c.body)
			noGo(t, r.Body)
			e, _ := r.obj(t)["error"].(map[string]any)
			if r.Status != c.status || e == nil || e["code"] != c.code || e["message"] != c.message {
				t.Errorf("got %d %.300s, want %d %s %q", r.Status, r.Body, c.status, c.code, c.message)
			}
		})
	}
}

// TestHostileControlToolsThroughTheRelay: exec, wait, yield_control and guessed
// ids are not relayable tools.
func TestHostileControlToolsThroughTheRelay(t *testing.T) {
	for _, id := range []string{"exec", "wait", "yield_control", "openclaw:core:exec", "openclaw:core:wait", "openclaw:core:code_mode_exec", "__proto__", "x:y:__proto__", "mcp:nosuch:tool"} {
		r := post(t, "/v1/tools/call", `{"id":"`+id+`","input":{},`+scope(t)+`}`)
		noGo(t, r.Body)
		e, _ := r.obj(t)["error"].(map[string]any)
		if r.Status != 200 || e == nil || e["code"] != "unknown_tool" || e["message"] != `unknown tool id "`+id+`"` {
			t.Errorf("%s: %d %s", id, r.Status, r.Body)
		}
	}
}

// TestCatalogQueryRefusesRepeatedParameters: a repeated scope parameter is
// refused as the body decoder refuses a duplicate key, never read as its first
// or last value.
func TestCatalogQueryRefusesRepeatedParameters(t *testing.T) {
	for _, q := range []string{"agentId=a&agentId=b", "agentId=httpapi&sessionId=s&sessionId=s"} {
		r := call(t, "GET", "/v1/catalog?"+q, "-", nil)
		noGo(t, r.Body)
		if e, _ := r.obj(t)["error"].(map[string]any); r.Status != 400 || e == nil || e["code"] != "duplicate_field" {
			t.Errorf("%s: %d %.300s", q, r.Status, r.Body)
		}
	}
}

// TestHostileHeaders: auth spellings, oversized tokens, media types and
// encodings. A compressed body is refused (regression: it was read as JSON).
func TestHostileHeaders(t *testing.T) {
	body := `{"code":"return 1",` + scope(t) + `}`
	needs := `this server needs "Authorization: Bearer <token>"`
	for _, c := range []struct {
		name, token string
		hdr         []string
		status      int
		code, msg   string
	}{
		{"bare Bearer", "", []string{"Authorization", "Bearer"}, 401, "unauthorized", needs},
		{"Basic", "", []string{"Authorization", "Basic " + srv.token}, 401, "unauthorized", needs},
		{"100 KB token", "", []string{"Authorization", "Bearer " + strings.Repeat("a", 100000)}, 401, "unauthorized", "the bearer token is not valid for this server"},
		{"latin1", "-", []string{"Content-Type", "application/json; charset=latin1"}, 415, "unsupported_media_type", `the body must be UTF-8 (got charset "latin1")`},
		{"two types", "-", []string{"Content-Type", "application/json, text/plain"}, 415, "unsupported_media_type", `send the body as Content-Type: application/json (got "application/json, text/plain")`},
		{"gzip", "-", []string{"Content-Encoding", "gzip"}, 415, "unsupported_media_type", `send the body uncompressed (got Content-Encoding "gzip")`},
	} {
		t.Run(c.name, func(t *testing.T) {
			if srv.token == "" && c.status == 401 {
				t.Skip("the target has no token")
			}
			r := call(t, "POST", "/v1/exec", c.token, strings.NewReader(body), c.hdr...)
			noGo(t, r.Body)
			e, _ := r.obj(t)["error"].(map[string]any)
			if r.Status != c.status || e == nil || e["code"] != c.code || e["message"] != c.msg {
				t.Errorf("got %d %.300s, want %d %s %q", r.Status, r.Body, c.status, c.code, c.msg)
			}
		})
	}
	// Two credentials: refused whichever of them is valid (hosts differ in
	// which one they keep, so the principal would depend on the host).
	if srv.token != "" {
		for _, two := range []string{"Bearer " + srv.token + ", Bearer " + srv.token, "Bearer " + srv.token + ", Bearer x"} {
			r := call(t, "POST", "/v1/exec", "-", strings.NewReader(body), "Authorization", two)
			if e, _ := r.obj(t)["error"].(map[string]any); r.Status != 401 || e == nil || e["code"] != "unauthorized" || !strings.Contains(fmt.Sprint(e["message"]), "exactly one") {
				t.Errorf("joined credentials: %d %.300s", r.Status, r.Body)
			}
		}
		req, _ := http.NewRequest("POST", srv.url+"/v1/exec", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Add("Authorization", "Bearer "+srv.token)
		req.Header.Add("Authorization", "Bearer "+srv.token)
		if resp, err := client.Do(req); err != nil {
			t.Error(err)
		} else {
			resp.Body.Close()
			if resp.StatusCode != 401 {
				t.Errorf("two Authorization headers: %d", resp.StatusCode)
			}
		}
	}
	for _, h := range [][]string{{"X-Forwarded-For", "1.2.3.4"}, {"Content-Encoding", "identity"}, {"Authorization", "bearer " + srv.token}} {
		tok := "-"
		if h[0] == "Authorization" {
			tok = ""
		}
		if r := call(t, "POST", "/v1/exec", tok, strings.NewReader(body), h...); r.Status != 200 || r.obj(t)["value"] != 1.0 {
			t.Errorf("%s: %s: %d %s", h[0], h[1], r.Status, r.Body)
		}
	}
}

// TestHostileSuspendedRunCap holds suspended runs until the server refuses one
// with the spec's message (at most 64 per process natively, per session object on
// a Worker; runs of other tests may hold some of the 64), then finishes every held
// run with wait and shows the capacity is back.
func TestHostileSuspendedRunCap(t *testing.T) {
	var held []string
	var refusal map[string]any
	for i := 0; i < 65 && refusal == nil; i++ {
		m := execCell(t, "await yield_control(); return "+strings.Repeat("1", 1+i%3))
		switch m["status"] {
		case "waiting":
			held = append(held, m["runId"].(string))
		default:
			refusal = m
		}
	}
	if refusal == nil {
		t.Fatalf("65 suspended runs were all held")
	}
	if refusal["status"] != "failed" || refusal["error"] != "too many suspended code mode runs." || refusal["code"] != "invalid_input" {
		t.Errorf("refusal after %d held runs: %v", len(held), refusal)
	}
	if len(held) == 0 || len(held) > 64 {
		t.Fatalf("%d runs were held before the refusal, want 1..64", len(held))
	}
	t.Logf("held %d runs before the refusal", len(held))
	for _, id := range held {
		if m := waitRun(t, id); m["status"] != "completed" {
			t.Errorf("held run %s: %v", id, m)
		}
	}
	m := execCell(t, "await yield_control(); return 'again'")
	if m["status"] != "waiting" {
		t.Fatalf("after releasing the held runs: %v", m)
	}
	if m = waitRun(t, m["runId"].(string)); m["value"] != "again" {
		t.Errorf("final wait: %v", m)
	}
}
