package worker

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	json "github.com/goccy/go-json"
)

// One suite, two targets: the black-box HTTP conformance suite that runs
// against codemode serve runs here against the Worker.
func TestHTTPConformanceSuiteOnWorkerd(t *testing.T) {
	cmd := exec.Command("go", "test", "-count=1", "-timeout", "10m", "./tests/httpapi")
	cmd.Dir = env.root
	cmd.Env = append(os.Environ(), "CODEMODE_HTTP_URL="+env.url, "CODEMODE_HTTP_TOKEN="+tokenAlice, "CODEMODE_HTTP_TOKEN2="+tokenBob)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("tests/httpapi against workerd failed: %v\n%s", err, out)
	}
	t.Logf("%s", strings.TrimSpace(string(out)))
}

func TestCatalogAndToolsCallServeTheWorkersGoTools(t *testing.T) {
	req, _ := http.NewRequest("GET", env.url+"/v1/catalog", nil)
	req.Header.Set("Authorization", "Bearer "+tokenAlice)
	resp, err := (&http.Client{Transport: noKeepAlive}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var cat struct {
		Entries []struct {
			ID string `json:"id"`
		} `json:"entries"`
		MCPServers []struct {
			Name string `json:"name"`
		} `json:"mcpServers"`
	}
	if err := json.Unmarshal(raw, &cat); err != nil || resp.StatusCode != 200 {
		t.Fatalf("catalog %d: %.300s", resp.StatusCode, raw)
	}
	ids := map[string]bool{}
	for _, e := range cat.Entries {
		ids[e.ID] = true
	}
	for _, want := range []string{"openclaw:core:echo", "openclaw:core:sleep_ms", "mcp:everything:echo"} {
		if !ids[want] {
			t.Errorf("catalog lacks %s: %v", want, ids)
		}
	}
	if len(cat.MCPServers) != 1 || cat.MCPServers[0].Name != "everything" {
		t.Errorf("mcpServers: %+v", cat.MCPServers)
	}
	st, m := post(t, tokenAlice, "/v1/tools/call", map[string]any{"id": "openclaw:core:echo", "input": map[string]string{"message": "relayed"}, "scope": sessionScope(t)})
	if d, _ := m["details"].(map[string]any); st != 200 || d["message"] != "relayed" {
		t.Fatalf("tools/call: %d %v", st, m)
	}
}

// A slow tool makes exec answer waiting; wait, in a later and separate request
// (a new Go instance of the front each time), finds the run in the session's
// Durable Object and completes it. Once for a Go tool relayed to the front and
// once for a JavaScript tool of the object itself.
func TestSlowToolWaitingThenWaitInALaterRequest(t *testing.T) {
	for _, c := range []struct{ name, code, want string }{
		{"go tool", "const r = await tools.sleep_ms({ms: 3500}); return 'slept ' + r.slept", "slept 3500"},
		{"js tool", "const r = await tools.callValue('client:worker:worker_wait', {ms: 3500}); return 'waited ' + r.waitedMs", "waited 3500"},
	} {
		t.Run(c.name, func(t *testing.T) {
			sc := sessionScope(t)
			m := exec1(t, tokenAlice, sc, c.code)
			if m["status"] != "waiting" {
				t.Fatalf("exec with timeoutMs %d: %v", testTimeoutMs, m)
			}
			id, _ := m["runId"].(string)
			for i := 0; m["status"] == "waiting" && i < 10; i++ {
				m = wait1(t, tokenAlice, sc, id)
			}
			if m["status"] != "completed" || m["value"] != c.want {
				t.Fatalf("wait: %v", m)
			}
		})
	}
}

// while(true){} never reaches a tool or a timer: the wall-clock deadline (local
// workerd's clock moves) or the interrupt budget (calibrated for V8 in workerd,
// the only stop in a deployed Worker, whose clock stands still) ends it.
func TestWhileTrueEndsAsTimeout(t *testing.T) {
	sc := sessionScope(t)
	exec1(t, tokenAlice, sc, "return 1") // start the object's core first
	start := time.Now()
	m := exec1(t, tokenAlice, sc, "while (true) {}")
	d := time.Since(start)
	if m["status"] != "failed" || m["code"] != "timeout" {
		t.Fatalf("while(true): %v", m)
	}
	if d > 3*testTimeoutMs*time.Millisecond+5*time.Second {
		t.Fatalf("while(true) took %v with timeoutMs %d", d, testTimeoutMs)
	}
	if m := exec1(t, tokenAlice, sc, "return 'alive'"); m["value"] != "alive" {
		t.Fatalf("the session is unusable after a timeout: %v", m)
	}
}

// A loop of long built-ins never reaches QuickJS's interrupt check: in the
// Durable Object's inline core only the loop guard of the bundled quickjs.wasm
// (applied by ./build.sh build) stops it, at the deadline of local workerd's
// moving clock; without it the request never returns. A deployed Worker has
// its CPU limit (limits.cpu_ms) behind that.
func TestLongBuiltinLoopEndsAsTimeout(t *testing.T) {
	sc := sessionScope(t)
	exec1(t, tokenAlice, sc, "return 1")
	for name, code := range map[string]string{
		// 4 MiB, not the battery's 16: the Worker's memoryLimitBytes is 32 MiB.
		"JSON.stringify": `let s = "x".repeat(1 << 22); for (;;) JSON.stringify(s);`,
		"indexOf":        `const s = "a".repeat(1 << 22); for (;;) s.indexOf("b");`,
	} {
		start := time.Now()
		m := exec1(t, tokenAlice, sc, code)
		d := time.Since(start)
		if m["status"] != "failed" || m["code"] != "timeout" {
			t.Fatalf("%s loop: %v", name, m)
		}
		if d > 3*testTimeoutMs*time.Millisecond+5*time.Second {
			t.Fatalf("%s loop took %v with timeoutMs %d", name, d, testTimeoutMs)
		}
		if m := exec1(t, tokenAlice, sc, "return 'alive'"); m["value"] != "alive" {
			t.Fatalf("the session is unusable after the %s loop: %v", name, m)
		}
	}
}

// A run belongs to its principal and its scope: another principal and another
// session (each a different Durable Object) get exactly the unknown-runId
// answer; another session key reaches the same object, whose core refuses it.
func TestSecondSessionAndPrincipalCannotWait(t *testing.T) {
	sc := sessionScope(t)
	m := exec1(t, tokenAlice, sc, "await yield_control('mine'); return 'owner'")
	id, _ := m["runId"].(string)
	if m["status"] != "waiting" || id == "" {
		t.Fatalf("exec: %v", m)
	}
	otherSession := scope{"agentId": sc["agentId"], "sessionId": sc["sessionId"] + "-other", "sessionKey": "k1", "agentRunId": "r1"}
	otherKey := scope{"agentId": sc["agentId"], "sessionId": sc["sessionId"], "sessionKey": "k2", "agentRunId": "r1"}
	for _, c := range []struct {
		name, token string
		sc          scope
		says        string
	}{
		{"second principal", tokenBob, sc, "unavailable or expired"},
		{"second session", tokenAlice, otherSession, "unavailable or expired"},
		{"second session key", tokenAlice, otherKey, ""},
	} {
		m := wait1(t, c.token, c.sc, id)
		if m["status"] != "failed" || m["code"] != "invalid_input" || !strings.Contains(fmt.Sprint(m["error"]), c.says) {
			t.Errorf("%s: %v", c.name, m)
		}
	}
	if m := wait1(t, tokenAlice, sc, id); m["status"] != "completed" || m["value"] != "owner" {
		t.Fatalf("the owner's wait: %v", m)
	}
}

// A remote MCP server over Streamable HTTP (server-everything on 127.0.0.1),
// reached with fetch by the front and relayed into the session's core, is
// called through MCP.<server> and described through API.read; its prompts are
// rendered through the front too (POST /v1/mcp/prompts/get).
func TestRemoteMCPToolThroughMCPNamespace(t *testing.T) {
	sc := sessionScope(t)
	m := exec1(t, tokenAlice, sc, `const r = await MCP.everything.echo({message: "from the worker"});
const files = await API.list();
const p = await MCP.everything.prompts.get({ name: "args-prompt", arguments: { city: "Berlin" } });
return {r, files: files.map((f) => f.path), p};`)
	// The relay connects to the MCP server per front request: on a loaded
	// machine that can outlast timeoutMs, and the run waits; wait finishes it.
	for i := 0; m["status"] == "waiting" && i < 10; i++ {
		m = wait1(t, tokenAlice, sc, m["runId"].(string))
	}
	if m["status"] != "completed" {
		t.Fatalf("MCP call: %v", m)
	}
	b, _ := json.Marshal(m["value"])
	if !strings.Contains(string(b), "Echo: from the worker") || !strings.Contains(string(b), "everything") || !strings.Contains(string(b), "weather in Berlin") {
		t.Fatalf("MCP result: %s", b)
	}
}

// After the Durable Object loses its memory (the runtime restarts: as at an
// eviction, a deploy or a runtime update), wait answers failed/invalid_input
// at once instead of hanging or a 500. Runs last: it restarts workerd.
func TestZEvictionAnswersInvalidInputPromptly(t *testing.T) {
	sc := sessionScope(t)
	m := exec1(t, tokenAlice, sc, "await yield_control('before the restart'); return 'resumed'")
	id, _ := m["runId"].(string)
	if m["status"] != "waiting" {
		t.Fatalf("exec: %v", m)
	}
	restartRuntime(t)
	start := time.Now()
	m = wait1(t, tokenAlice, sc, id)
	d := time.Since(start)
	if m["status"] != "failed" || m["code"] != "invalid_input" || !strings.Contains(fmt.Sprint(m["error"]), "unavailable or expired") {
		t.Fatalf("wait after the restart: %v", m)
	}
	if d > 5*time.Second {
		t.Fatalf("wait after the restart took %v", d)
	}
	t.Logf("wait after eviction answered in %v", d.Round(time.Millisecond))
}

// The snapshot TTL of a run that suspended at the end of a long CPU burst
// counts from its suspension: the front touches the run after the waiting
// answer (in ctx.waitUntil) and the object's core restarts its TTL then
// (core.Runtime.RestartTTL). On Cloudflare that is what gives the run its full
// TTL, since the object's clock stands still during the burst; local workerd's
// clock moves during CPU work, so here the test shows that the touch path
// works on workerd (the answer, the front's Go program that waits for the
// touch, the object's touch op, its keep-alive) and that the TTL holds from
// the suspension and then ends, not the frozen clock itself (core's
// TestRestartTTLGivesTheFullTTLFromTheTouch does that). Runs last: it
// restarts workerd with a 10 s TTL.
func TestZZSnapshotTTLCountsFromTheSuspensionAfterACPUBurst(t *testing.T) {
	const ttl = 10 * time.Second
	env.config = fmt.Sprintf("{enabled: true, timeoutMs: %d, snapshotTtlSeconds: %d, memoryLimitBytes: 33554432, maxSnapshotBytes: 4194304}", testTimeoutMs, int(ttl/time.Second))
	restartRuntime(t)
	sc := sessionScope(t)
	exec1(t, tokenAlice, sc, "return 1") // start the object's core first
	burst := "const t = Date.now(); while (Date.now() - t < 1000) {} await yield_control(); return 'kept'"
	type suspended struct {
		id string
		at time.Time // when the waiting answer arrived
	}
	// One run at a time, each from its own suspension: on a loaded machine a
	// second burst can take longer than the first run's whole window.
	for _, c := range []struct {
		after time.Duration // past the waiting answer
		kept  bool
	}{{ttl - 3*time.Second, true}, {ttl + 3*time.Second, false}} {
		m := exec1(t, tokenAlice, sc, burst)
		id, _ := m["runId"].(string)
		if m["status"] != "waiting" || id == "" {
			t.Fatalf("exec: %v", m)
		}
		run := suspended{id, time.Now()}
		time.Sleep(time.Until(run.at.Add(c.after)))
		m = wait1(t, tokenAlice, sc, run.id)
		if c.kept && (m["status"] != "completed" || m["value"] != "kept") ||
			!c.kept && (m["status"] != "failed" || m["code"] != "invalid_input" || !strings.Contains(fmt.Sprint(m["error"]), "unavailable or expired")) {
			t.Fatalf("wait %v after the suspension (TTL %v): %v", time.Since(run.at).Round(time.Millisecond), ttl, m)
		}
	}
	// A touch that failed is logged by the front or the object.
	log, _ := os.ReadFile(env.wrangler.log.Name())
	for _, bad := range []string{"touch did not reach", "session touch failed"} {
		if strings.Contains(string(log), bad) {
			t.Fatalf("the workerd log says %q:\n%s", bad, log)
		}
	}
}

// After a while(true){} cell ends as timeout, whether its client waited for
// the answer or hung up mid-cell, the isolate serves the next requests at
// once: the front's catalog (GET, which wrangler's dev proxy used to park
// for 60 s after a failed hop; see tests/internal/wranglerdev), an exec in
// the same session and one in another. The bound is generous (30 s, for a
// loaded machine); the hang it guards against lasted the client's whole
// timeout.
func TestRequestsAfterATimedOutCellAnswerPromptly(t *testing.T) {
	const bound = 30 * time.Second
	client := &http.Client{Timeout: bound, Transport: noKeepAlive}
	sc := sessionScope(t)
	other := scope{"agentId": sc["agentId"], "sessionId": sc["sessionId"] + "-other", "sessionKey": "k1", "agentRunId": "r1"}
	exec1(t, tokenAlice, sc, "return 1")
	exec1(t, tokenAlice, other, "return 1")
	for round, hangUp := range []bool{false, true, false, true} {
		cell, _ := json.Marshal(map[string]any{"code": "while (true) {}", "scope": sc})
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
		if hangUp {
			ctx, cancel = context.WithTimeout(context.Background(), 300*time.Millisecond)
		}
		req, _ := http.NewRequestWithContext(ctx, "POST", env.url+"/v1/exec", bytes.NewReader(cell))
		req.Header.Set("Authorization", "Bearer "+tokenAlice)
		req.Header.Set("Content-Type", "application/json")
		resp, err := (&http.Client{Transport: noKeepAlive}).Do(req)
		if err == nil {
			raw, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if !hangUp && !strings.Contains(string(raw), `"code":"timeout"`) {
				t.Fatalf("round %d: while(true): %d %s", round, resp.StatusCode, raw)
			}
		} else if !hangUp {
			t.Fatalf("round %d: while(true): %v", round, err)
		}
		cancel()
		for _, step := range []struct {
			name, method, path string
			body               any
			want               string
		}{
			{"catalog", "GET", "/v1/catalog", nil, `"openclaw:core:echo"`},
			{"exec in the same session", "POST", "/v1/exec", map[string]any{"code": "return 'alive'", "scope": sc}, `"value":"alive"`},
			{"exec in another session", "POST", "/v1/exec", map[string]any{"code": "return 'other'", "scope": other}, `"value":"other"`},
		} {
			var body io.Reader
			if step.body != nil {
				b, _ := json.Marshal(step.body)
				body = bytes.NewReader(b)
			}
			req, _ := http.NewRequest(step.method, env.url+step.path, body)
			req.Header.Set("Authorization", "Bearer "+tokenAlice)
			if body != nil {
				req.Header.Set("Content-Type", "application/json")
			}
			start := time.Now()
			resp, err := client.Do(req)
			if err != nil {
				t.Fatalf("round %d (hang-up %v): %s after the timed-out cell: %v after %v", round, hangUp, step.name, err, time.Since(start))
			}
			raw, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != 200 || !strings.Contains(string(raw), step.want) {
				t.Fatalf("round %d: %s: %d %.300s", round, step.name, resp.StatusCode, raw)
			}
			t.Logf("round %d (hang-up %v): %s answered in %v", round, hangUp, step.name, time.Since(start).Round(time.Millisecond))
		}
	}
}
