package mcpserver_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/codemode-go/codemode/core"
	"github.com/codemode-go/codemode/edge"
	"github.com/codemode-go/codemode/edge/mcpserver"
)

// remoteCore is a RemoteRuntime over an in-process core, the way the
// Worker's Forwarder is one over the session objects: cancel finds the call
// in flight by its scope and call id, and ending a session ends its runs.
type remoteCore struct {
	*core.Runtime
	mu      sync.Mutex
	flight  map[callKey]context.CancelFunc
	cancels chan core.CallInfo
}

func newRemoteCore(rt *core.Runtime) *remoteCore {
	return &remoteCore{Runtime: rt, flight: map[callKey]context.CancelFunc{}, cancels: make(chan core.CallInfo, 4)}
}

// callKey names a call in flight: its principal, scope and call id.
type callKey struct {
	principal, callID string
	scope             core.Scope
}

func keyOf(c core.CallInfo) callKey { return callKey{c.Principal, c.CallID, c.Scope} }

func (r *remoteCore) track(ctx context.Context, call core.CallInfo) (context.Context, func()) {
	ctx, cancel := context.WithCancel(ctx)
	r.mu.Lock()
	r.flight[keyOf(call)] = cancel
	r.mu.Unlock()
	return ctx, func() { r.mu.Lock(); delete(r.flight, keyOf(call)); r.mu.Unlock(); cancel() }
}

func (r *remoteCore) Exec(ctx context.Context, call core.CallInfo, in core.ExecInput) core.Result {
	ctx, done := r.track(ctx, call)
	defer done()
	return r.Runtime.Exec(ctx, call, in)
}

func (r *remoteCore) Wait(ctx context.Context, call core.CallInfo, in core.WaitInput) core.Result {
	ctx, done := r.track(ctx, call)
	defer done()
	return r.Runtime.Wait(ctx, call, in)
}

func (r *remoteCore) CancelCall(_ context.Context, call core.CallInfo) {
	r.mu.Lock()
	if cancel := r.flight[keyOf(call)]; cancel != nil {
		cancel()
	}
	r.mu.Unlock()
	r.cancels <- call
}

func (r *remoteCore) EndRemoteSession(_ context.Context, call core.CallInfo) {
	r.Runtime.EndSession(call.Scope)
}

// serveStateless serves the HTTP API with a stateless MCP server at /mcp.
func serveStateless(t testing.TB, f *fixture) (*httptest.Server, *remoteCore) {
	t.Helper()
	rc := newRemoteCore(f.rt)
	srv := mcpserver.NewStateless(rc, mcpserver.Options{})
	t.Cleanup(srv.Close)
	h, err := edge.New(f.rt, edge.Options{
		Tokens: []edge.Token{{Principal: "alice", Token: tokenAlice}, {Principal: "bob", Token: tokenBob}},
		MCP:    srv.HTTPHandler(),
	})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(h)
	t.Cleanup(hs.Close)
	return hs, rc
}

// TestStatelessSessions: initialize mints a session id; runs survive across
// requests of that session and are unknown to every other session, of the
// same principal or another; DELETE of the session ends them.
func TestStatelessSessions(t *testing.T) {
	f := newFixture(t, 200)
	hs, _ := serveStateless(t, f)
	a, ba := connectHTTP(t, hs.URL, tokenAlice, nil)
	a2, _ := connectHTTP(t, hs.URL, tokenAlice, nil)
	bob, _ := connectHTTP(t, hs.URL, tokenBob, nil)
	if ba.sid == "" {
		t.Fatal("initialize answered no Mcp-Session-Id")
	}
	list, err := a.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range list.Tools {
		names = append(names, tl.Name)
	}
	if strings.Join(names, ",") != "clock,exec,wait" {
		t.Fatalf("tools/list: %v", names)
	}
	r := call(t, context.Background(), a, "exec", map[string]any{"code": "const s = await tools.sleep_ms({ms: 5000}); return s.slept"})
	if r.Status != core.StatusWaiting {
		t.Fatalf("exec: %+v", r)
	}
	for name, cs := range map[string]*sdk.ClientSession{"second session": a2, "other principal": bob} {
		if w := call(t, context.Background(), cs, "wait", map[string]any{"runId": r.RunID}); w.Status != core.StatusFailed || w.Code != core.CodeInvalidInput {
			t.Fatalf("%s waited on the run: %+v", name, w)
		}
	}
	if f.rt.Suspended() != 1 {
		t.Fatalf("%d runs suspended, want 1", f.rt.Suspended())
	}
	if err := a.Close(); err != nil { // DELETE
		t.Fatal(err)
	}
	if n := f.rt.Suspended(); n != 0 {
		t.Fatalf("%d runs suspended after DELETE of their session", n)
	}
}

// TestStatelessCancellation: notifications/cancelled, a POST of its own,
// names the call the exec ran as, in the exec's session and principal.
func TestStatelessCancellation(t *testing.T) {
	f := newFixture(t, 30000)
	hs, rc := serveStateless(t, f)
	cs, b := connectHTTP(t, hs.URL, tokenAlice, nil)
	f.cancelBlockedExec(t, cs) // the cancel reached the exec it named
	select {
	case c := <-rc.cancels:
		if c.Principal != "alice" || c.Scope.SessionID != b.sid || !strings.HasPrefix(c.CallID, "mcp:") {
			t.Fatalf("cancel named %+v (session %s)", c, b.sid)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("notifications/cancelled never reached the runtime")
	}
}

// TestStatelessRefusals: what a stateless server refuses, and in which words.
func TestStatelessRefusals(t *testing.T) {
	f := newFixture(t, 1000)
	hs, _ := serveStateless(t, f)
	for _, c := range []struct {
		name, method, sid, body string
		status                  int
		want                    string
	}{
		{"no session", "POST", "", `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, 400, "send initialize first"},
		{"bad session id", "POST", "a b", `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, 400, "visible ASCII"},
		{"delete without session", "DELETE", "", ``, 400, "Mcp-Session-Id"},
		{"get", "GET", "mcp_x", ``, 405, ""},
		{"no token", "POST", "mcp_x", `{}`, 401, "unauthorized"},
	} {
		t.Run(c.name, func(t *testing.T) {
			req, _ := http.NewRequest(c.method, hs.URL+"/mcp", strings.NewReader(c.body))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			if c.name != "no token" {
				req.Header.Set("Authorization", "Bearer "+tokenAlice)
			}
			if c.sid != "" {
				req.Header.Set("Mcp-Session-Id", c.sid)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			body, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != c.status || !strings.Contains(string(body), c.want) {
				t.Fatalf("%d %s, want %d containing %q", resp.StatusCode, body, c.status, c.want)
			}
		})
	}
}

// FuzzStatelessHTTP: whatever a client POSTs or DELETEs with whatever
// session id, the stateless handler (its JSON-RPC peek, the session id
// check, initialize's minting) answers without panicking, never 5xx, and
// mints a session id only for initialize without one.
func FuzzStatelessHTTP(f *testing.F) {
	fx := newFixture(f, 1000)
	rc := newRemoteCore(fx.rt)
	srv := mcpserver.NewStateless(rc, mcpserver.Options{})
	f.Cleanup(srv.Close)
	go func() { // cancels are recorded; nobody reads them here
		for range rc.cancels {
		}
	}()
	h := srv.HTTPHandler()
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"f","version":"1"}}}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`, `{"jsonrpc":"2.0","id":"x","method":"tools/call","params":{"name":"exec","arguments":{"code":"return 1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":[1,{"a":2}]}}`, `[]`, `{`, ``, `{"method":7}`, "\xff",
	} {
		f.Add("POST", "", s)
		f.Add("POST", "mcp_ABC", s)
		f.Add("DELETE", "mcp_ABC", s)
	}
	f.Fuzz(func(t *testing.T, method, sid, body string) {
		if method != "POST" && method != "DELETE" && method != "GET" {
			method = "POST"
		}
		req := httptest.NewRequest(method, "/mcp", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
		if sid != "" {
			req.Header["Mcp-Session-Id"] = []string{sid}
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code >= 500 {
			t.Fatalf("%s %q: %d %s", method, body, rec.Code, rec.Body)
		}
		if minted := rec.Header().Get("Mcp-Session-Id"); minted != "" && (sid != "" || method != "POST") {
			t.Fatalf("minted %q for %s with session %q", minted, method, sid)
		}
	})
}
