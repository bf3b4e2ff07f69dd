package httpapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

func TestHealthz(t *testing.T) {
	r := call(t, "GET", "/healthz", "", nil)
	m := r.obj(t)
	if r.Status != 200 || m["ok"] != true {
		t.Fatalf("healthz: %d %s", r.Status, r.Body)
	}
	if v, _ := m["version"].(string); v == "" {
		t.Errorf("no version: %s", r.Body)
	}
	if e, _ := m["engine"].(string); e == "" {
		t.Errorf("no engine: %s", r.Body)
	}
}

// TestOpenAPIDocument: the server publishes its API as an OpenAPI 3.1
// document, without a token, that a real validator (kin-openapi) accepts and
// that names the routes this suite drives.
func TestOpenAPIDocument(t *testing.T) {
	r := call(t, "GET", "/openapi.json", "", nil)
	if r.Status != 200 {
		t.Fatalf("openapi.json: %d %.300s", r.Status, r.Body)
	}
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(r.Body)
	if err != nil {
		t.Fatalf("openapi.json does not load: %v", err)
	}
	if err := doc.Validate(loader.Context); err != nil {
		t.Fatalf("openapi.json is not valid: %v", err)
	}
	for path, method := range map[string]string{"/v1/exec": "POST", "/v1/wait": "POST", "/v1/surface": "POST", "/v1/catalog": "GET", "/v1/tools/call": "POST", "/healthz": "GET"} {
		if item := doc.Paths.Value(path); item == nil || item.GetOperation(method) == nil {
			t.Errorf("openapi.json lacks %s %s", method, path)
		}
	}
	// This server's answers match the schemas it publishes.
	c := jsonschema.NewCompiler()
	c.UseLoader(jsonschema.SchemeURLLoader{})
	raw, err := jsonschema.UnmarshalJSON(bytes.NewReader(r.Body))
	if err != nil || c.AddResource("urn:openapi", raw) != nil {
		t.Fatalf("openapi.json as JSON Schema: %v", err)
	}
	for name, answer := range map[string][]byte{
		"Result":          post(t, "/v1/exec", `{"code":"text('a'); return 1",`+scope(t)+`}`).Body,
		"Health":          call(t, "GET", "/healthz", "", nil).Body,
		"SurfaceResponse": post(t, "/v1/surface", `{"format":"openai-responses",`+scope(t)+`}`).Body,
		"Error":           post(t, "/v1/exec", `{"cod":"1"}`).Body,
	} {
		s, err := c.Compile("urn:openapi#/components/schemas/" + name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		v, err := jsonschema.UnmarshalJSON(bytes.NewReader(answer))
		if err != nil {
			t.Fatalf("%s answer: %v", name, err)
		}
		if err := s.Validate(v); err != nil {
			t.Errorf("the %s answer does not match openapi.json: %v\n%.300s", name, err, answer)
		}
	}
}

func TestExecCompletesAndFailureIsA200(t *testing.T) {
	if m := execCell(t, "text('hello'); return 6 * 7"); m["status"] != "completed" || m["value"] != 42.0 {
		t.Fatalf("completed: %v", m)
	}
	m := execCell(t, "throw new RangeError('too far')")
	if m["status"] != "failed" || !strings.Contains(m["error"].(string), "RangeError: too far") {
		t.Fatalf("failed: %v", m)
	}
	if _, ok := m["telemetry"].(map[string]any); !ok {
		t.Errorf("failed result without telemetry: %v", m)
	}
	if m := execCell(t, "import fs from 'fs'"); m["status"] != "failed" || m["code"] != "invalid_input" {
		t.Fatalf("import: %v", m)
	}
}

func TestTypeScriptCell(t *testing.T) {
	r := post(t, "/v1/exec", `{"code":"const n: number = 2; return n * 21","language":"typescript",`+scope(t)+`}`)
	if r.obj(t)["value"] != 42.0 {
		t.Fatalf("typescript: %s", r.Body)
	}
}

func TestYieldThenWaitInALaterRequest(t *testing.T) {
	m := execCell(t, "text('one'); await yield_control('checkpoint'); text('two'); return 'done'")
	if m["status"] != "waiting" || m["reason"] != "yield" {
		t.Fatalf("exec: %v", m)
	}
	id := m["runId"].(string)
	if m := waitRun(t, id); m["status"] != "completed" || m["value"] != "done" {
		t.Fatalf("wait: %v", m)
	}
	if m := waitRun(t, id); m["status"] != "failed" || m["code"] != "invalid_input" {
		t.Fatalf("second wait: %v", m)
	}
}

// TestSlowToolSuspendsAndWaitCompletes: a timer longer than the server's
// timeoutMs makes exec answer waiting; wait calls finish the run.
func TestSlowToolSuspendsAndWaitCompletes(t *testing.T) {
	code := "await new Promise((r) => setTimeout(r, 1500)); return 'slept'"
	if srv.own {
		code = "const s = await tools.sleep_ms({ms: 1500}); return 'slept ' + s.slept"
	}
	m := execCell(t, code)
	if srv.own && m["status"] != "waiting" {
		t.Fatalf("exec with timeoutMs 1000: %v", m)
	}
	for i := 0; m["status"] == "waiting" && i < 20; i++ {
		if p, _ := m["pendingToolCalls"].([]any); len(p) == 0 {
			t.Fatalf("waiting without pending calls: %v", m)
		}
		m = waitRun(t, m["runId"].(string))
	}
	if m["status"] != "completed" || !strings.HasPrefix(m["value"].(string), "slept") {
		t.Fatalf("after waits: %v", m)
	}
}

func TestWaitOnUnknownRun(t *testing.T) {
	m := waitRun(t, "cm_000000000000000000000000")
	if m["status"] != "failed" || m["code"] != "invalid_input" || !strings.Contains(m["error"].(string), "unavailable or expired") {
		t.Fatalf("unknown run: %v", m)
	}
}

func TestOtherSessionCannotWait(t *testing.T) {
	m := execCell(t, "await yield_control(); return 1")
	id, _ := m["runId"].(string)
	r := post(t, "/v1/wait", `{"runId":"`+id+`","scope":{"agentId":"httpapi","sessionId":"someone-else"}}`)
	if o := r.obj(t); o["status"] != "failed" || o["code"] != "invalid_input" {
		t.Fatalf("other session: %s", r.Body)
	}
	if m := waitRun(t, id); m["value"] != 1.0 {
		t.Fatalf("own wait after the refusal: %v", m)
	}
}

// TestOtherPrincipalSeesAnUnknownRun needs a second principal's token.
func TestOtherPrincipalSeesAnUnknownRun(t *testing.T) {
	if srv.token2 == "" || srv.token == "" {
		t.Skip("needs CODEMODE_HTTP_TOKEN and CODEMODE_HTTP_TOKEN2")
	}
	m := execCell(t, "await yield_control(); return 'mine'")
	id := m["runId"].(string)
	other := call(t, "POST", "/v1/wait", srv.token2, strings.NewReader(`{"runId":"`+id+`",`+scope(t)+`}`))
	unknown := call(t, "POST", "/v1/wait", srv.token2, strings.NewReader(`{"runId":"cm_ffffffffffffffffffffffff",`+scope(t)+`}`))
	if other.Status != unknown.Status || string(other.Body) != string(unknown.Body) {
		t.Fatalf("other principal:\n%d %s\nunknown run:\n%d %s", other.Status, other.Body, unknown.Status, unknown.Body)
	}
	if m := waitRun(t, id); m["value"] != "mine" {
		t.Fatalf("owner's wait: %v", m)
	}
}

func TestAuthRequired(t *testing.T) {
	if srv.token == "" {
		t.Skip("the target has no token")
	}
	for _, tok := range []string{"", "not-the-token-0000000000"} {
		r := call(t, "POST", "/v1/exec", tok, strings.NewReader(`{"code":"return 1",`+scope(t)+`}`))
		if r.Status != 401 || r.errCode(t) != "unauthorized" {
			t.Errorf("token %q: %d %s", tok, r.Status, r.Body)
		}
	}
}

func TestSurfaceFormats(t *testing.T) {
	for format, marker := range map[string]string{"plain": `"input_schema"`, "anthropic": `"input_schema"`, "openai": `"function":{"name":"exec"`,
		"openai-responses": `{"type":"function","name":"exec"`} {
		r := post(t, "/v1/surface", `{"format":"`+format+`",`+scope(t)+`}`)
		if r.Status != 200 || !strings.Contains(string(r.Body), `"name":"exec"`) || !strings.Contains(string(r.Body), `"name":"wait"`) || !strings.Contains(string(r.Body), marker) {
			t.Errorf("%s: %d %.300s", format, r.Status, r.Body)
		}
	}
}

// TestCatalogAndToolCallRelay: every catalog entry carries its schema, trust
// and owner; a trusted entry's tool runs through /v1/tools/call.
func TestCatalogAndToolCallRelay(t *testing.T) {
	r := call(t, "GET", "/v1/catalog?agentId=httpapi", "-", nil)
	if r.Status != 200 {
		t.Fatalf("catalog: %d %s", r.Status, r.Body)
	}
	var cat struct {
		Entries []struct {
			ID, Name, Source, Trust, Owner, Input string
			Parameters                            json.RawMessage
		}
		MCPServers []any `json:"mcpServers"`
	}
	if err := json.Unmarshal(r.Body, &cat); err != nil {
		t.Fatal(err)
	}
	if cat.MCPServers == nil {
		t.Errorf("no mcpServers list: %.300s", r.Body)
	}
	echo := ""
	for _, e := range cat.Entries {
		if e.ID == "" || e.Owner == "" || len(e.Parameters) == 0 || (e.Trust != "trusted" && e.Trust != "untrusted") {
			t.Errorf("incomplete entry %+v", e)
		}
		if (e.Source == "mcp" || e.Source == "client") && e.Trust != "untrusted" {
			t.Errorf("%s is %s but %s", e.ID, e.Source, e.Trust)
		}
		if e.Name == "echo" && e.Trust == "trusted" {
			echo = e.ID
		}
	}
	if echo == "" {
		t.Skip("the target has no trusted echo tool")
	}
	r = post(t, "/v1/tools/call", `{"id":"`+echo+`","input":{"message":"relayed"},"callId":"c1",`+scope(t)+`}`)
	if r.Status != 200 || !strings.Contains(string(r.Body), "relayed") {
		t.Fatalf("relay: %d %s", r.Status, r.Body)
	}
	r = post(t, "/v1/tools/call", `{"id":"openclaw:core:no_such_tool","input":{},`+scope(t)+`}`)
	if r.Status != 200 || r.errCode(t) != "unknown_tool" {
		t.Fatalf("unknown tool: %d %s", r.Status, r.Body)
	}
}

func TestBadRequests(t *testing.T) {
	sc := scope(t)
	for _, c := range []struct {
		name, path, ctype, body string
		status                  int
		code                    string
	}{
		{"malformed", "/v1/exec", "application/json", `{"code":`, 400, "invalid_json"},
		{"unknown field", "/v1/exec", "application/json", `{"source":"1",` + sc + `}`, 400, "unknown_field"},
		{"wrong type", "/v1/wait", "application/json", `{"runId":5,` + sc + `}`, 400, "wrong_type"},
		{"trailing", "/v1/exec", "application/json", `{"code":"1",` + sc + `}]`, 400, "trailing_data"},
		{"missing scope", "/v1/exec", "application/json", `{"code":"1"}`, 400, "missing_field"},
		{"content type", "/v1/exec", "text/plain", `{"code":"1",` + sc + `}`, 415, "unsupported_media_type"},
		{"bad format", "/v1/surface", "application/json", `{"format":"yaml",` + sc + `}`, 400, "invalid_field"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := call(t, "POST", c.path, "-", strings.NewReader(c.body), "Content-Type", c.ctype)
			if r.Status != c.status || r.errCode(t) != c.code {
				t.Fatalf("got %d %s, want %d %s", r.Status, r.Body, c.status, c.code)
			}
			noGo(t, r.Body)
		})
	}
}

// TestHugeBodyIsRefusedEarly sends (up to) 64 MiB without a declared length;
// the server must answer 413 having read only a few MiB of it.
func TestHugeBodyIsRefusedEarly(t *testing.T) {
	src := &spaces{left: 64 << 20}
	req, _ := http.NewRequest("POST", srv.url+"/v1/exec", src)
	req.Header.Set("Content-Type", "application/json")
	if srv.token != "" {
		req.Header.Set("Authorization", "Bearer "+srv.token)
	}
	start := time.Now()
	resp, err := client.Do(req)
	if err != nil {
		// Some servers reset the connection after the refusal; the answer
		// must still have come before the whole body was sent.
		if src.sent.Load() >= 64<<20 {
			t.Fatalf("the whole body was sent before the error: %v", err)
		}
		t.Logf("connection closed after %d bytes: %v", src.sent.Load(), err)
		return
	}
	defer resp.Body.Close()
	b, rerr := io.ReadAll(resp.Body)
	if resp.StatusCode == 413 && rerr != nil && len(b) == 0 {
		// workerd closes the connection while the client is still sending;
		// the reset can discard the answer's body from the client's receive
		// buffer after its status line was read. The status came early
		// (before the whole body was sent), which is what this test holds.
		if src.sent.Load() >= 64<<20 {
			t.Fatalf("the whole body was sent before the 413: %v", rerr)
		}
		t.Logf("413 after %d bytes sent; its body was lost to the reset: %v", src.sent.Load(), rerr)
		return
	}
	if resp.StatusCode != 413 || !strings.Contains(string(b), "body_too_large") {
		t.Fatalf("%d %s (reading the body: %v, after %d bytes sent)", resp.StatusCode, b, rerr, src.sent.Load())
	}
	t.Logf("413 after %d bytes sent, %v", src.sent.Load(), time.Since(start))
}

// spaces is read by the client transport's goroutine, which may still be
// sending when the response arrives: the count is atomic.
type spaces struct {
	left int
	sent atomic.Int64
}

func (s *spaces) Read(p []byte) (int, error) {
	left := s.left - int(s.sent.Load())
	if left <= 0 {
		return 0, io.EOF
	}
	n := min(len(p), left)
	for i := range p[:n] {
		p[i] = ' '
	}
	s.sent.Add(int64(n))
	return n, nil
}

func TestMethodsAndRoutes(t *testing.T) {
	for path, allow := range map[string]string{"/v1/exec": "POST", "/v1/wait": "POST", "/v1/surface": "POST", "/v1/tools/call": "POST", "/v1/catalog": "GET, HEAD", "/healthz": "GET, HEAD", "/openapi.json": "GET, HEAD"} {
		method := "GET"
		if allow != "POST" {
			method = "PUT"
		}
		r := call(t, method, path, "-", nil)
		if r.Status != 405 || r.Header.Get("Allow") != allow || r.errCode(t) != "method_not_allowed" {
			t.Errorf("%s %s: %d Allow=%q %s", method, path, r.Status, r.Header.Get("Allow"), r.Body)
		}
	}
	r := call(t, "GET", "/v1/does-not-exist", "-", nil)
	if r.Status != 404 || r.errCode(t) != "not_found" {
		t.Errorf("unknown route: %d %s", r.Status, r.Body)
	}
}

// TestMCPReadRelay: POST /v1/mcp/resources/read and /v1/mcp/prompts/get refuse
// other methods and incomplete bodies, answer an unknown (or hidden) server
// like a relayed tool's failure, and, when the target lists an MCP server with
// a resource (the Worker's remote server-everything), read it for real.
func TestMCPReadRelay(t *testing.T) {
	for _, path := range []string{"/v1/mcp/resources/read", "/v1/mcp/prompts/get"} {
		if r := call(t, "GET", path, "-", nil); r.Status != 405 {
			t.Errorf("GET %s: %d, want 405", path, r.Status)
		}
		if r := post(t, path, `{`+scope(t)+`}`); r.Status != 400 || r.errCode(t) != "missing_field" {
			t.Errorf("%s without server: %d %.300s", path, r.Status, r.Body)
		}
	}
	for path, body := range map[string]string{
		"/v1/mcp/resources/read": `{"server":"nowhere","uri":"demo://x",` + scope(t) + `}`,
		"/v1/mcp/prompts/get":    `{"server":"nowhere","name":"p","arguments":{"a":"b"},` + scope(t) + `}`,
	} {
		r := post(t, path, body)
		noGo(t, r.Body)
		if r.Status != 200 || r.errCode(t) != "unknown_tool" || !strings.Contains(string(r.Body), "unknown MCP server nowhere") {
			t.Errorf("%s on an unknown server: %d %.300s", path, r.Status, r.Body)
		}
	}
	r := call(t, "GET", "/v1/catalog?agentId=httpapi", "-", nil)
	var cat struct {
		MCPServers []struct {
			Name      string
			Resources []struct{ URI string }
		} `json:"mcpServers"`
	}
	if err := json.Unmarshal(r.Body, &cat); err != nil {
		t.Fatal(err)
	}
	for _, s := range cat.MCPServers {
		if len(s.Resources) == 0 {
			continue
		}
		b, _ := json.Marshal(map[string]any{"server": s.Name, "uri": s.Resources[0].URI})
		r := post(t, "/v1/mcp/resources/read", strings.TrimSuffix(string(b), "}")+`,`+scope(t)+`}`)
		if r.Status != 200 || !strings.Contains(string(r.Body), `"result":{"contents":[`) {
			t.Errorf("read %s of %s: %d %.300s", s.Resources[0].URI, s.Name, r.Status, r.Body)
		}
		return
	}
	t.Log("the target lists no MCP resource; the successful read is covered where it does (the Worker, hostjs)")
}

// TestAdmissionControl floods the server with busy cells. Past its bound of
// running cells it answers 429 with Retry-After (at_capacity) instead of
// slowing every cell down; no request is lost (each is either run to its
// timeout or refused), and the server serves normally afterwards. The suite's
// own server allows 2 running cells, so 8 at once must see refusals; another
// server (the Worker's objects are unbounded) need only answer each one.
func TestAdmissionControl(t *testing.T) {
	const n = 8
	answers := make(chan reply, n)
	for i := range n {
		go func() {
			body := `{"code":"while (true) {}","scope":{"agentId":"httpapi","sessionId":"flood-` + strconv.Itoa(i) + `"}}`
			answers <- call(t, "POST", "/v1/exec", "-", strings.NewReader(body))
		}()
	}
	admitted, refused := 0, 0
	for range n {
		r := <-answers
		switch r.Status {
		case 200:
			if o := r.obj(t); o["status"] != "failed" || o["code"] != "timeout" {
				t.Errorf("admitted busy cell: %.300s", r.Body)
			}
			admitted++
		case 429:
			e, _ := r.obj(t)["error"].(map[string]any)
			secs, err := strconv.Atoi(r.Header.Get("Retry-After"))
			if e == nil || e["code"] != "at_capacity" || !strings.Contains(fmt.Sprint(e["message"]), "retry") || err != nil || secs < 1 {
				t.Errorf("refused cell: Retry-After %q, %.300s", r.Header.Get("Retry-After"), r.Body)
			}
			refused++
		default:
			t.Errorf("busy cell: %d %.300s", r.Status, r.Body)
		}
	}
	if admitted == 0 || (srv.own && refused == 0) {
		t.Errorf("%d admitted, %d refused: want some of each", admitted, refused)
	}
	if r := post(t, "/v1/exec", `{"code":"return 1",`+scope(t)+`}`); r.Status != 200 || r.obj(t)["value"] != 1.0 {
		t.Errorf("after the flood: %d %.300s", r.Status, r.Body)
	}
}
