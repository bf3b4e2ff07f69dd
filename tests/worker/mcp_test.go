package worker

import (
	"context"
	stdjson "encoding/json"
	"errors"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// mcpBearer adds a principal's token to every request of an MCP client and
// remembers the session id the Worker handed out at initialize.
type mcpBearer struct {
	token string
	mu    sync.Mutex
	sid   string
}

func (b *mcpBearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	res, err := noKeepAlive.RoundTrip(r)
	if err == nil && res.Header.Get("Mcp-Session-Id") != "" {
		b.mu.Lock()
		b.sid = res.Header.Get("Mcp-Session-Id")
		b.mu.Unlock()
	}
	return res, err
}

// mcpConnect opens an official Go SDK client session at the Worker's /mcp as
// the principal of token.
func mcpConnect(t testing.TB, token string) (*sdk.ClientSession, *mcpBearer) {
	t.Helper()
	b := &mcpBearer{token: token}
	tr := &sdk.StreamableClientTransport{Endpoint: env.url + "/mcp", HTTPClient: &http.Client{Transport: b, Timeout: 3 * time.Minute}}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "worker-test", Version: "1"}, nil).Connect(ctx, tr, nil)
	if err != nil {
		t.Fatalf("MCP initialize at the Worker's /mcp: %v", err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs, b
}

// mcpResult is exec's or wait's answer: the CodeModeResult of
// structuredContent, and isError with the first text.
type mcpResult struct {
	Status  string             `json:"status"`
	RunID   string             `json:"runId"`
	Value   stdjson.RawMessage `json:"value"`
	Error   string             `json:"error"`
	Code    string             `json:"code"`
	isError bool
	text    string
}

func mcpCall(t testing.TB, ctx context.Context, cs *sdk.ClientSession, tool string, args map[string]any) (mcpResult, error) {
	t.Helper()
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		return mcpResult{}, err
	}
	var r mcpResult
	if res.StructuredContent != nil {
		b, _ := stdjson.Marshal(res.StructuredContent)
		if err := stdjson.Unmarshal(b, &r); err != nil {
			t.Fatalf("%s: structuredContent is not a CodeModeResult: %s", tool, b)
		}
	}
	r.isError = res.IsError
	if len(res.Content) > 0 {
		if tc, ok := res.Content[0].(*sdk.TextContent); ok {
			r.text = tc.Text
		}
	}
	return r, nil
}

func mustCall(t testing.TB, cs *sdk.ClientSession, tool string, args map[string]any) mcpResult {
	t.Helper()
	r, err := mcpCall(t, context.Background(), cs, tool, args)
	if err != nil {
		t.Fatalf("tools/call %s: %v", tool, err)
	}
	return r
}

// The Worker's /mcp is the same MCP server as codemode serve's, stateless:
// initialize mints a session id, tools/list is the Code Mode surface, exec
// and wait answer CodeModeResults, and a run suspended in one request is
// resumed by wait in a later one (any isolate: the session's object holds it).
func TestMCPExecWaitAndSurfaceThroughSessionObjects(t *testing.T) {
	cs, b := mcpConnect(t, tokenAlice)
	if b.sid == "" {
		t.Fatal("initialize answered no Mcp-Session-Id")
	}
	list, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	var execDesc string
	for _, tl := range list.Tools {
		names = append(names, tl.Name)
		if tl.Name == "exec" {
			execDesc = tl.Description
			if tl.OutputSchema == nil {
				t.Error("exec has no outputSchema")
			}
		}
	}
	if !slices.Contains(names, "exec") || !slices.Contains(names, "wait") {
		t.Fatalf("tools/list: %v", names)
	}
	if !strings.Contains(execDesc, "sleep_ms") {
		t.Errorf("exec's description carries no quick index of the Worker's tools: %q", execDesc)
	}
	// The same surface as /v1/surface of an ordinary session.
	if st, m := post(t, tokenAlice, "/v1/surface", map[string]any{"scope": sessionScope(t)}); st != 200 || len(m["tools"].([]any)) != len(names) {
		t.Errorf("/v1/surface has %v tools, tools/list %d", m["tools"], len(names))
	}

	if r := mustCall(t, cs, "exec", map[string]any{"code": "return 6 * 7"}); r.Status != "completed" || string(r.Value) != "42" || r.isError {
		t.Fatalf("exec: %+v", r)
	}
	r := mustCall(t, cs, "exec", map[string]any{"code": "const s = await tools.sleep_ms({ms: 3500}); return 'slept ' + s.slept"})
	if r.Status != "waiting" || r.RunID == "" {
		t.Fatalf("exec of a slow tool with timeoutMs %d: %+v", testTimeoutMs, r)
	}
	for i := 0; r.Status == "waiting" && i < 10; i++ {
		r = mustCall(t, cs, "wait", map[string]any{"runId": r.RunID})
	}
	if r.Status != "completed" || string(r.Value) != `"slept 3500"` {
		t.Fatalf("wait: %+v", r)
	}

	// A guest error is a failed result with isError and the error first.
	g := mustCall(t, cs, "exec", map[string]any{"code": "null.x"})
	if !g.isError || g.Status != "failed" || !strings.HasPrefix(g.text, "TypeError") {
		t.Fatalf("guest error: %+v", g)
	}
	// Bad arguments are refused in the HTTP API's words.
	if bad := mustCall(t, cs, "exec", map[string]any{"code": "1", "cod": 2}); !bad.isError || !strings.Contains(bad.text, "cod") {
		t.Fatalf("unknown argument: %+v", bad)
	}
}

// Two MCP sessions are two scopes (two session objects): a run suspended in
// one is unknown to the other, of the same principal or another, and ends
// when its session is deleted.
func TestMCPSessionsCannotSeeEachOthersRuns(t *testing.T) {
	a, ba := mcpConnect(t, tokenAlice)
	a2, _ := mcpConnect(t, tokenAlice)
	bob, _ := mcpConnect(t, tokenBob)
	r := mustCall(t, a, "exec", map[string]any{"code": "await tools.sleep_ms({ms: 20000}); return 1"})
	if r.Status != "waiting" {
		t.Fatalf("exec: %+v", r)
	}
	for name, cs := range map[string]*sdk.ClientSession{"second session": a2, "other principal": bob} {
		w := mustCall(t, cs, "wait", map[string]any{"runId": r.RunID})
		if w.Status != "failed" || w.Code != "invalid_input" || !w.isError {
			t.Fatalf("%s waited on the run: %+v", name, w)
		}
	}
	// Its own session still finds it; then DELETE of the session ends it.
	sidA := ba.sid
	if w := mustCall(t, a, "wait", map[string]any{"runId": r.RunID}); w.Status != "waiting" {
		t.Fatalf("own session: %+v", w)
	}
	if err := a.Close(); err != nil { // DELETE /mcp with the session id
		t.Fatalf("closing the session: %v", err)
	}
	if body := rawMCP(t, tokenAlice, sidA, `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"wait","arguments":{"runId":"`+r.RunID+`"}}}`); !strings.Contains(body, "invalid_input") {
		t.Fatalf("wait in the deleted session: %s", body)
	}
}

// rawMCP POSTs one JSON-RPC message to /mcp in session sid and returns the
// answer's body.
func rawMCP(t *testing.T, token, sid, msg string) string {
	t.Helper()
	req, _ := http.NewRequest("POST", env.url+"/mcp", strings.NewReader(msg))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Mcp-Session-Id", sid)
	req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	resp, err := (&http.Client{Timeout: 3 * time.Minute, Transport: noKeepAlive}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 {
		t.Fatalf("POST /mcp: %d %s", resp.StatusCode, b)
	}
	return string(b)
}

// notifications/cancelled, a POST of its own, aborts the run of the call it
// names in the session's object: a wait in flight is aborted, and the run is
// gone for every later wait.
func TestMCPCancellationAbortsTheRun(t *testing.T) {
	cs, _ := mcpConnect(t, tokenAlice)
	r := mustCall(t, cs, "exec", map[string]any{"code": "await tools.sleep_ms({ms: 30000}); return 1"})
	if r.Status != "waiting" {
		t.Fatalf("exec: %+v", r)
	}
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(500*time.Millisecond, cancel)
	if _, err := mcpCall(t, ctx, cs, "wait", map[string]any{"runId": r.RunID}); !errors.Is(err, context.Canceled) {
		t.Fatalf("wait after cancel: %v", err)
	}
	var w mcpResult
	deadline := time.Now().Add(30 * time.Second)
	for {
		w = mustCall(t, cs, "wait", map[string]any{"runId": r.RunID})
		if w.Status == "failed" || time.Now().After(deadline) {
			break
		}
		time.Sleep(200 * time.Millisecond) // the cancel is still on its way
	}
	if w.Status != "failed" || w.Code != "invalid_input" {
		t.Fatalf("the cancelled wait's run is still there: %+v", w)
	}
	// The session still serves.
	if r := mustCall(t, cs, "exec", map[string]any{"code": "return 2"}); string(r.Value) != "2" {
		t.Fatalf("after cancel: %+v", r)
	}
}
