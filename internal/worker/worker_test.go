package worker_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/codemode-go/codemode/core"
	"github.com/codemode-go/codemode/internal/demo"
	"github.com/codemode-go/codemode/internal/toolset"
	"github.com/codemode-go/codemode/internal/worker"
	json "github.com/goccy/go-json"
)

func TestObjectNameSeparatesEveryPart(t *testing.T) {
	a := worker.ObjectName("p", core.Scope{AgentID: "a:b", SessionID: "c"})
	b := worker.ObjectName("p", core.Scope{AgentID: "a", SessionID: "b:c"})
	c := worker.ObjectName("q", core.Scope{AgentID: "a:b", SessionID: "c"})
	same := worker.ObjectName("p", core.Scope{AgentID: "a:b", SessionID: "c", SessionKey: "other", AgentRunID: "x"})
	if a == b || a == c || len(a) != 64 {
		t.Fatalf("names collide or are malformed: %s %s %s", a, b, c)
	}
	if a != same {
		t.Fatal("session key and agent run id must not pick another object (the core checks them)")
	}
}

// The failures a Durable Object stub rejects with (workerd's texts) become
// results, never a 500: the CPU limit is the cell's timeout.
func TestObjectFailureAnswers(t *testing.T) {
	for _, c := range []struct {
		err  string
		code core.ErrorCode
	}{
		{"Error: Worker exceeded CPU time limit.", core.CodeTimeout},
		{"Durable Object exceeded its CPU time limit and was reset.", core.CodeTimeout},
		{"Worker has exceeded memory limit.", core.CodeRuntimeUnavailable},
		{"Durable Object reset because its code was updated.", core.CodeRuntimeUnavailable},
		{"Network connection lost.", core.CodeRuntimeUnavailable},
	} {
		r := worker.ObjectFailure(errors.New(c.err))
		if r.Status != core.StatusFailed || r.Code != c.code || strings.Contains(r.Error, c.err) {
			t.Errorf("%q -> %+v", c.err, r)
		}
		b, _ := json.Marshal(r)
		if !strings.Contains(string(b), `"modelVisibleTools":[]`) {
			t.Errorf("telemetry shape: %s", b)
		}
	}
}

func settings(over map[string]string) func(string) string {
	base := map[string]string{
		worker.EnvConfig: `{tools: {codeMode: {enabled: true, timeoutMs: 1000}}}`,
		worker.EnvTokens: `[{"principal":"alice","token":"alice-token-0123456789"}]`,
	}
	for k, v := range over {
		base[k] = v
	}
	return func(k string) string { return base[k] }
}

func TestReadSettings(t *testing.T) {
	for _, c := range []struct {
		name string
		over map[string]string
		want string // error substring, "" for success
	}{
		{"defaults", nil, ""},
		{"no tokens", map[string]string{worker.EnvTokens: ""}, "has no bearer tokens"},
		{"no tokens allowed locally", map[string]string{worker.EnvTokens: "", worker.EnvNoAuth: "true"}, ""},
		{"bad tokens", map[string]string{worker.EnvTokens: `{"a":1}`}, worker.EnvTokens},
		{"disabled", map[string]string{worker.EnvConfig: `{tools: {codeMode: {enabled: false}}}`}, "must enable Code Mode"},
		{"bad config", map[string]string{worker.EnvConfig: `{tools: {codeMode: {enabled: true, timeoutMs: 5}}}`}, "CODEMODE_CONFIG:1:"},
		{"bad config names the key", map[string]string{worker.EnvConfig: `{tools: {codeMode: {enabled: true, timeoutMs: 5}}}`}, "timeoutMs"},
		{"not JSON5", map[string]string{worker.EnvConfig: `{tools: `}, "CODEMODE_CONFIG:1:9: is not valid JSON5"},
		{"unknown key", map[string]string{worker.EnvConfig: `{tools: {codeMode: {enabled: true}}, mcpServers: {}}`}, "mcpServers"},
		{"bad mcp url", map[string]string{worker.EnvConfig: `{mcp: {servers: {x: {url: "file:///etc"}}}}`}, "must be an http:// or https:// URL"},
		{"stdio server", map[string]string{worker.EnvConfig: `{mcp: {servers: {x: {command: "npx"}}}}`}, "cannot start processes"},
		{"static dir", map[string]string{worker.EnvConfig: `{staticDir: "web"}`}, "staticDir has no meaning"},
		{"fault tools", map[string]string{worker.EnvConfig: `{faultTools: true}`}, "faultTools"},
		{"openapi", map[string]string{worker.EnvConfig: `{openapi: {p: {spec: "p.yaml", baseUrl: "https://api.example"}}}`}, "openapi needs a file system"},
		{"empty config: defaults", map[string]string{worker.EnvConfig: ``}, ""},
		{"tokens from the config", map[string]string{worker.EnvTokens: "", worker.EnvConfig: `{auth: {tokens: [{principal: "bob", tokenEnv: "BOB_TOKEN"}]}}`, "BOB_TOKEN": "bob-token-0123456789"}, ""},
		{"tokenEnv unset", map[string]string{worker.EnvTokens: "", worker.EnvConfig: `{auth: {tokens: [{principal: "bob", tokenEnv: "NOPE"}]}}`}, `"NOPE", which is not set`},
		{"bad rate", map[string]string{worker.EnvInterruptsPerSecond: "0"}, worker.EnvInterruptsPerSecond},
		{"rate", map[string]string{worker.EnvInterruptsPerSecond: "1500"}, ""},
	} {
		s, err := worker.ReadSettings(settings(c.over))
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: got %v, want an error naming %q", c.name, err, c.want)
		case c.name == "rate" && s.InterruptsPerSecond != 1500:
			t.Errorf("rate: %d", s.InterruptsPerSecond)
		case c.name == "tokens from the config" && (len(s.Tokens) != 1 || s.Tokens[0].Principal != "bob" || s.Tokens[0].Token != "bob-token-0123456789"):
			t.Errorf("tokens: %+v", s.Tokens)
		}
		if err != nil && strings.Contains(err.Error(), "/") && !strings.Contains(c.want, "/") {
			t.Errorf("%s: the message leaks a path: %v", c.name, err)
		}
	}
}

// The front over a Sender whose object fails: exec and wait answer 200 with a
// failed result, while catalog and tools/call are served by the front itself.
func TestFrontAnswersObjectFailuresAndServesRelays(t *testing.T) {
	s, err := worker.ReadSettings(settings(nil))
	if err != nil {
		t.Fatal(err)
	}
	var got []worker.Request
	send := func(_ context.Context, r worker.Request) ([]byte, error) {
		got = append(got, r)
		return nil, errors.New("Error: Worker exceeded CPU time limit.")
	}
	h, err := worker.NewFront(worker.FrontOptions{Settings: s, Send: send, ExampleTools: toolset.Demo})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h) // one front for every request, as in the Worker
	defer srv.Close()
	do := func(method, path, body string) (int, string) {
		req, _ := http.NewRequest(method, srv.URL+path, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer alice-token-0123456789")
		if body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	st, body := do("POST", "/v1/exec", `{"code":"while(true){}","scope":{"agentId":"a","sessionId":"s"}}`)
	if st != 200 || !strings.Contains(body, `"code":"timeout"`) || !strings.Contains(body, "limits.cpu_ms") {
		t.Fatalf("exec: %d %s", st, body)
	}
	if len(got) != 1 || got[0].Op != "exec" || got[0].RelayAuth != "Bearer alice-token-0123456789" ||
		got[0].Object != worker.ObjectName("alice", core.Scope{AgentID: "a", SessionID: "s"}) {
		t.Fatalf("forwarded: %+v", got)
	}
	var msg map[string]any
	json.Unmarshal(got[0].Body, &msg)
	if msg["principal"] != "alice" || msg["ttlSeconds"] != float64(900) {
		t.Fatalf("message: %s", got[0].Body)
	}
	if st, body := do("GET", "/v1/catalog", ""); st != 200 || !strings.Contains(body, "openclaw:core:sleep_ms") {
		t.Fatalf("catalog: %d %.200s", st, body)
	}
	if st, body := do("POST", "/v1/tools/call", `{"id":"openclaw:core:echo","input":{"message":"m"},"scope":{}}`); st != 200 || !strings.Contains(body, `"message":"m"`) {
		t.Fatalf("tools/call: %d %s", st, body)
	}
	if st, _ := do("POST", "/v1/exec", `{"code":1,"scope":{}}`); st != 400 {
		t.Fatalf("bad input must be edge's 400, got %d", st)
	}
}

// TestReadSettingsTakesTheServeConfig: one document configures both hosts.
// Its tools, MCP servers, tokens, CORS list and body bound reach the front.
func TestReadSettingsTakesTheServeConfig(t *testing.T) {
	s, err := worker.ReadSettings(settings(map[string]string{worker.EnvConfig: `{
  // the same file codemode serve reads
  listen: "127.0.0.1:9999",
  exampleTools: false,
  maxBodyBytes: 65536,
  tools: { codeMode: { enabled: true, timeoutMs: 2500 } },
  mcp: { servers: { b: { url: "https://b.example/mcp", headers: { Authorization: "Bearer x" } }, a: { url: "http://127.0.0.1:1/mcp" } } },
  auth: { tokens: [ { principal: "carol", token: "carol-token-0123456789" } ] },
  cors: { allowedOrigins: ["https://ide.example"] },
}`}))
	if err != nil {
		t.Fatal(err)
	}
	if s.ExampleTools == nil || *s.ExampleTools || s.MaxBodyBytes != 65536 || s.CodeMode.TimeoutMs != 2500 {
		t.Errorf("exampleTools %v, maxBodyBytes %d, timeoutMs %d", s.ExampleTools != nil && *s.ExampleTools, s.MaxBodyBytes, s.CodeMode.TimeoutMs)
	}
	if len(s.MCPServers) != 2 || s.MCPServers[0].Name != "b" || s.MCPServers[0].Headers["Authorization"] != "Bearer x" || s.MCPServers[1].Name != "a" {
		t.Errorf("mcp servers, in file order: %+v", s.MCPServers)
	}
	if len(s.Tokens) != 2 || s.Tokens[0].Principal != "carol" || s.Tokens[1].Principal != "alice" {
		t.Errorf("tokens: the config's, then the secret's: %+v", s.Tokens)
	}
	if len(s.AllowedOrigins) != 1 || s.AllowedOrigins[0] != "https://ide.example" {
		t.Errorf("origins: %v", s.AllowedOrigins)
	}
}

// TestFrontTouchesAWaitingRun: an exec or wait the object answered waiting is
// followed, after the answer, by a touch of that run in the same object (the
// object restarts its TTL then, see Forwarder.Later); other answers are not.
func TestFrontTouchesAWaitingRun(t *testing.T) {
	s, err := worker.ReadSettings(settings(nil))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		path, body, answer string
		touch              bool
	}{
		{"/v1/exec", `{"code":"await yield_control()","scope":{"agentId":"a","sessionId":"s"}}`, `{"status":"waiting","runId":"cm_1","reason":"yield","telemetry":{}}`, true},
		{"/v1/wait", `{"runId":"cm_1","scope":{"agentId":"a","sessionId":"s"}}`, `{"status":"waiting","runId":"cm_1","reason":"pending_tools","telemetry":{}}`, true},
		{"/v1/exec", `{"code":"return 1","scope":{"agentId":"a","sessionId":"s"}}`, `{"status":"completed","value":1,"telemetry":{}}`, false},
		{"/v1/wait", `{"runId":"cm_1","scope":{"agentId":"a","sessionId":"s"}}`, `{"status":"failed","code":"invalid_input","error":"code mode run is unavailable or expired.","telemetry":{}}`, false},
	} {
		var sent []worker.Request
		send := func(_ context.Context, r worker.Request) ([]byte, error) {
			sent = append(sent, r)
			if r.Op == "touch" {
				return []byte(`{"ok":true,"expiresAt":1}`), nil
			}
			return []byte(c.answer), nil
		}
		var later []func()
		h, err := worker.NewFront(worker.FrontOptions{Settings: s, Send: send})
		if err != nil {
			t.Fatal(err)
		}
		ctx := worker.WithLater(context.Background(), func(task func()) { later = append(later, task) })
		req := httptest.NewRequestWithContext(ctx, "POST", c.path, strings.NewReader(c.body))
		req.Header.Set("Authorization", "Bearer alice-token-0123456789")
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != 200 || len(sent) != 1 {
			t.Fatalf("%s: %d %s, sent %+v", c.path, rec.Code, rec.Body, sent)
		}
		if len(later) != map[bool]int{true: 1, false: 0}[c.touch] {
			t.Fatalf("%s answering %s: %d touches scheduled", c.path, c.answer, len(later))
		}
		if !c.touch {
			continue
		}
		later[0]() // after the answer, as ctx.waitUntil runs it
		touch := sent[1]
		var msg map[string]any
		json.Unmarshal(touch.Body, &msg)
		in, _ := msg["input"].(map[string]any)
		if touch.Op != "touch" || touch.Object != sent[0].Object || msg["principal"] != "alice" || in["runId"] != "cm_1" || msg["ttlSeconds"] != float64(900) {
			t.Fatalf("touch: %+v %s", touch, touch.Body)
		}
	}
}

// TestFrontAnswersTheObjectsFailures: where no core answered, the object
// sends {failure: kind} and the front answers the failed result from Go
// (internal/ops), with the core's own text for an unknown run.
func TestFrontAnswersTheObjectsFailures(t *testing.T) {
	s, err := worker.ReadSettings(settings(nil))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ failure, want string }{
		{"unknown_run", `{"status":"failed","error":"code mode run is unavailable or expired.","code":"invalid_input","telemetry":{"catalogSize":0,"catalogBySource":{"openclaw":0,"mcp":0,"client":0},"searchCount":0,"describeCount":0,"callCount":0,"modelVisibleTools":[]}}`},
		{"core_unavailable", `"error":"code mode runtime unavailable: the session's core could not start","code":"runtime_unavailable"`},
		{"internal", `"error":"code mode could not complete this request in the session object.","code":"internal_error"`},
		{"whatever", `"code":"internal_error"`},
	} {
		send := func(_ context.Context, r worker.Request) ([]byte, error) {
			return []byte(`{"failure":"` + c.failure + `"}`), nil
		}
		h, err := worker.NewFront(worker.FrontOptions{Settings: s, Send: send})
		if err != nil {
			t.Fatal(err)
		}
		req := httptest.NewRequest("POST", "/v1/wait", strings.NewReader(`{"runId":"cm_1","scope":{"agentId":"a","sessionId":"s"}}`))
		req.Header.Set("Authorization", "Bearer alice-token-0123456789")
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != 200 || !strings.Contains(rec.Body.String(), c.want) {
			t.Errorf("%s: %d %s; want %s", c.failure, rec.Code, rec.Body, c.want)
		}
	}
}

// A front built without the demo packages (FrontOptions.ExampleTools nil, as
// the shipped front.wasm) refuses a config that asks for the example tools,
// naming the builds that have them, and leaves them out when the config does
// not mention them; a demo build puts them in the catalog by default.
func TestFrontExampleToolsOnlyInDemoBuilds(t *testing.T) {
	send := func(context.Context, worker.Request) ([]byte, error) { return []byte(`{}`), nil }
	for _, c := range []struct {
		name, config string
		tools        demo.Tools
		wantErr      string
		wantTool     bool
	}{
		{"product, asked", `{exampleTools: true}`, nil, "codemode_demo", false},
		{"product, left out", `{}`, nil, "", false},
		{"product, off", `{exampleTools: false}`, nil, "", false},
		{"demo, left out", `{}`, toolset.Demo, "", true},
		{"demo, off", `{exampleTools: false}`, toolset.Demo, "", false},
	} {
		s, err := worker.ReadSettings(settings(map[string]string{worker.EnvConfig: c.config}))
		if err != nil {
			t.Fatal(err)
		}
		h, err := worker.NewFront(worker.FrontOptions{Settings: s, Send: send, ExampleTools: c.tools})
		if c.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), c.wantErr) || !strings.Contains(err.Error(), worker.EnvConfig+": exampleTools") {
				t.Errorf("%s: want an error naming %s and the demo builds, got %v", c.name, worker.EnvConfig, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		r := httptest.NewRequest("GET", "/v1/catalog", nil)
		r.Header.Set("Authorization", "Bearer alice-token-0123456789")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if got := strings.Contains(w.Body.String(), "openclaw:core:echo"); w.Code != 200 || got != c.wantTool {
			t.Errorf("%s: catalog %d has the example tools: %v, want %v", c.name, w.Code, got, c.wantTool)
		}
	}
}
