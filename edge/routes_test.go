package edge_test

import (
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/codemode-go/codemode/edge"
	"github.com/codemode-go/codemode/internal/ops"
)

func TestExecCompletesAndFailedRunIsA200(t *testing.T) {
	srv := newServer(t, edge.Options{})
	a := post(t, srv, "/v1/exec", `{"code":"return 1 + 2",`+scope+`}`)
	if a.status != 200 || a.json(t)["status"] != "completed" || a.json(t)["value"] != 3.0 {
		t.Fatalf("exec: %d %s", a.status, a.body)
	}
	a = post(t, srv, "/v1/exec", `{"code":"throw new TypeError('nope')",`+scope+`}`)
	if a.status != 200 || a.json(t)["status"] != "failed" || !strings.Contains(a.json(t)["error"].(string), "TypeError: nope") {
		t.Fatalf("failed run: %d %s", a.status, a.body)
	}
	a = post(t, srv, "/v1/exec", `{"command":"return 'ts' as string","language":"typescript","restartSafe":true,`+scope+`}`)
	if a.json(t)["value"] != "ts" {
		t.Fatalf("typescript command: %s", a.body)
	}
}

func TestWaitResumesAYieldedRun(t *testing.T) {
	srv := newServer(t, edge.Options{})
	a := post(t, srv, "/v1/exec", `{"code":"text('before'); await yield_control('go on'); return 'after'",`+scope+`}`)
	m := a.json(t)
	if m["status"] != "waiting" {
		t.Fatalf("exec: %s", a.body)
	}
	a = post(t, srv, "/v1/wait", `{"runId":"`+m["runId"].(string)+`",`+scope+`}`)
	if a.status != 200 || a.json(t)["value"] != "after" {
		t.Fatalf("wait: %d %s", a.status, a.body)
	}
	a = post(t, srv, "/v1/wait", `{"runId":"`+m["runId"].(string)+`",`+scope+`}`)
	if a.status != 200 || a.json(t)["code"] != "invalid_input" {
		t.Fatalf("second wait: %d %s", a.status, a.body)
	}
}

func TestSurfaceInEachFormat(t *testing.T) {
	srv := newServer(t, edge.Options{})
	for format, key := range map[string]string{"": `"input_schema"`, "plain": `"input_schema"`, "anthropic": `"input_schema"`, "openai": `"function":{"name":"exec"`, "openai-responses": `{"type":"function","name":"exec"`} {
		body := `{` + scope + `}`
		if format != "" {
			body = `{"format":"` + format + `",` + scope + `}`
		}
		a := post(t, srv, "/v1/surface", body)
		if a.status != 200 || !strings.Contains(string(a.body), `"name":"exec"`) || !strings.Contains(string(a.body), key) {
			t.Errorf("format %q: %d %.300s", format, a.status, a.body)
		}
	}
	if a := post(t, srv, "/v1/surface", `{"format":"xml",`+scope+`}`); a.status != 400 || a.errorCode(t) != ops.CodeInvalidField {
		t.Errorf("bad format: %d %s", a.status, a.body)
	}
}

func TestHealthz(t *testing.T) {
	srv := newServer(t, edge.Options{Version: "1.2.3", Tokens: []edge.Token{{Principal: "p", Token: "0123456789abcdef0123"}}})
	a := do(t, "GET", srv.URL+"/healthz", "", "")
	m := a.json(t)
	if a.status != 200 || m["ok"] != true || m["version"] != "1.2.3" || m["engine"] != "quickjs-wasi" {
		t.Fatalf("healthz: %d %s", a.status, a.body)
	}
}

// TestBadInput: every class of bad request is a 4xx naming the problem, in the
// {error: {code, message}} shape, with nothing of Go in it.
func TestBadInput(t *testing.T) {
	srv := newServer(t, edge.Options{MaxBodyBytes: 1 << 16})
	cases := []struct {
		name, path, body, ctype string
		status                  int
		code, mentions          string
	}{
		{"malformed JSON", "/v1/exec", `{"code": "x",`, "", 400, ops.CodeInvalidJSON, "not valid JSON"},
		{"not an object", "/v1/exec", `[1]`, "", 400, ops.CodeWrongType, "the request body must be an object (got an array)"},
		{"null body", "/v1/wait", `null`, "", 400, ops.CodeWrongType, "the request body must be an object (got null)"},
		{"empty body", "/v1/exec", ``, "application/json", 400, ops.CodeInvalidJSON, "empty"},
		{"unknown field", "/v1/exec", `{"cod":"x",` + scope + `}`, "", 400, ops.CodeUnknownField, `"cod"`},
		{"unknown field by case", "/v1/exec", `{"Code":"x",` + scope + `}`, "", 400, ops.CodeUnknownField, `"Code"`},
		{"unknown scope field", "/v1/wait", `{"runId":"x","scope":{"agent":"a"}}`, "", 400, ops.CodeUnknownField, `"scope.agent"`},
		{"duplicate field", "/v1/exec", `{"code":"1","code":"2",` + scope + `}`, "", 400, ops.CodeDuplicateField, `"code"`},
		{"wrong type", "/v1/exec", `{"code":42,` + scope + `}`, "", 400, ops.CodeWrongType, `"code" must be a string (got a number)`},
		{"wrong nested type", "/v1/exec", `{"code":"1","scope":{"agentId":true}}`, "", 400, ops.CodeWrongType, `"scope.agentId" must be a string`},
		{"wrong bool", "/v1/exec", `{"code":"1","restartSafe":"yes",` + scope + `}`, "", 400, ops.CodeWrongType, "boolean"},
		{"trailing garbage", "/v1/exec", `{"code":"1",` + scope + `} x`, "", 400, ops.CodeTrailingData, "after the JSON value"},
		{"two values", "/v1/wait", `{"runId":"x",` + scope + `}{}`, "", 400, ops.CodeTrailingData, "after the JSON value"},
		{"missing scope", "/v1/exec", `{"code":"1"}`, "", 400, ops.CodeMissingField, `"scope"`},
		{"missing scope on wait", "/v1/wait", `{"runId":"x"}`, "", 400, ops.CodeMissingField, `"scope"`},
		{"missing scope on surface", "/v1/surface", `{}`, "", 400, ops.CodeMissingField, `"scope"`},
		{"missing tool id", "/v1/tools/call", `{"input":{},` + scope + `}`, "", 400, ops.CodeMissingField, `"id"`},
		{"deep input", "/v1/tools/call", `{"id":"x","input":` + strings.Repeat("[", 200) + strings.Repeat("]", 200) + `,` + scope + `}`, "", 400, ops.CodeTooDeep, "deeper"},
		{"invalid UTF-8", "/v1/exec", "{\"code\":\"\xff\"," + scope + "}", "", 400, ops.CodeInvalidJSON, "UTF-8"},
		{"wrong content type", "/v1/exec", `{"code":"1",` + scope + `}`, "text/plain", 415, edge.CodeUnsupportedMediaType, "application/json"},
		{"form content type", "/v1/wait", `runId=x`, "application/x-www-form-urlencoded", 415, edge.CodeUnsupportedMediaType, "application/json"},
		{"wrong charset", "/v1/exec", `{}`, "application/json; charset=latin1", 415, edge.CodeUnsupportedMediaType, "UTF-8"},
		{"body over the limit", "/v1/exec", `{"code":"` + strings.Repeat("x", 1<<16) + `",` + scope + `}`, "", 413, edge.CodeBodyTooLarge, "exceeds"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ct := c.ctype
			if ct == "" {
				ct = "application/json"
			}
			a := do(t, "POST", srv.URL+c.path, "", c.body, "Content-Type", ct)
			if a.status != c.status || a.errorCode(t) != c.code {
				t.Fatalf("got %d %s, want %d %s", a.status, a.body, c.status, c.code)
			}
			msg := a.json(t)["error"].(map[string]any)["message"].(string)
			if !strings.Contains(msg, c.mentions) {
				t.Errorf("message %q does not mention %q", msg, c.mentions)
			}
			assertNoGo(t, a.body)
		})
	}
}

// assertNoGo fails when an answer shows Go internals: type names, stacks, paths.
func assertNoGo(t *testing.T, body []byte) {
	t.Helper()
	for _, bad := range []string{"goroutine", ".go:", "*edge.", "edge.", "core.", "reflect", "main.", "[]uint8", "json.", "/root/", "/home/", "/tmp/", "runtime error"} {
		if strings.Contains(string(body), bad) {
			t.Errorf("answer contains %q: %s", bad, body)
		}
	}
}

// TestHugeBodyRefusedUnread: a 64 MiB body is refused at once; with a declared
// length nothing is read, without one the server stops at its limit.
func TestHugeBodyRefusedUnread(t *testing.T) {
	srv := newServer(t, edge.Options{})
	const size = 64 << 20
	for _, chunked := range []bool{false, true} {
		src := &countingReader{n: size}
		req, _ := http.NewRequest("POST", srv.URL+"/v1/exec", src)
		req.Header.Set("Content-Type", "application/json")
		if chunked {
			req.ContentLength = -1
		} else {
			req.ContentLength = size
		}
		start := time.Now()
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatalf("chunked=%v: %v", chunked, err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 413 || !strings.Contains(string(b), edge.CodeBodyTooLarge) {
			t.Fatalf("chunked=%v: %d %s", chunked, resp.StatusCode, b)
		}
		if src.sent.Load() > 16<<20 {
			t.Errorf("chunked=%v: the client sent %d bytes before the refusal", chunked, src.sent.Load())
		}
		t.Logf("chunked=%v: refused in %v after %d bytes sent", chunked, time.Since(start), src.sent.Load())
	}
}

// countingReader is read by the client transport's goroutine, which may still
// be sending when the response arrives: the count is atomic.
type countingReader struct {
	n    int
	sent atomic.Int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	read := int(c.sent.Load())
	if read >= c.n {
		return 0, io.EOF
	}
	k := min(len(p), c.n-read)
	for i := range p[:k] {
		p[i] = ' '
	}
	c.sent.Add(int64(k))
	return k, nil
}

func TestWrongMethodAndUnknownRoute(t *testing.T) {
	srv := newServer(t, edge.Options{})
	for path, allow := range map[string]string{"/v1/exec": "POST", "/v1/wait": "POST", "/v1/surface": "POST", "/v1/tools/call": "POST", "/v1/catalog": "GET, HEAD", "/healthz": "GET, HEAD"} {
		method := "GET"
		if allow != "POST" {
			method = "DELETE"
		}
		a := do(t, method, srv.URL+path, "", "")
		if a.status != 405 || a.header.Get("Allow") != allow || a.errorCode(t) != edge.CodeMethodNotAllowed {
			t.Errorf("%s %s: %d Allow=%q %s", method, path, a.status, a.header.Get("Allow"), a.body)
		}
	}
	for _, path := range []string{"/v1/nope", "/", "/index.html", "/v1/exec/x"} {
		a := do(t, "GET", srv.URL+path, "", "")
		if a.status != 404 || a.errorCode(t) != ops.CodeNotFound || a.header.Get("Content-Type") != "application/json" {
			t.Errorf("GET %s: %d %s", path, a.status, a.body)
		}
	}
}

func TestPanickingToolIsAFailedCallAndTheServerKeepsServing(t *testing.T) {
	srv := newServer(t, edge.Options{})
	a := post(t, srv, "/v1/exec", `{"code":"try { await tools.call('openclaw:core:boom', {}) } catch (e) { return 'caught: ' + e.message }",`+scope+`}`)
	if a.status != 200 || !strings.HasPrefix(a.json(t)["value"].(string), "caught: ") {
		t.Fatalf("exec: %d %s", a.status, a.body)
	}
	assertNoGo(t, a.body)
	if strings.Contains(string(a.body), "kaboom") {
		t.Errorf("the panic value reached the answer: %s", a.body)
	}
	if a := post(t, srv, "/v1/exec", `{"code":"return 'still here'",`+scope+`}`); a.json(t)["value"] != "still here" {
		t.Fatalf("after the panic: %s", a.body)
	}
}
