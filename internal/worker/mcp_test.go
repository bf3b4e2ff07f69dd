package worker_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/codemode-go/codemode/core"
	"github.com/codemode-go/codemode/internal/surface"
	"github.com/codemode-go/codemode/internal/worker"
	json "github.com/goccy/go-json"
)

// authed adds alice's token to every request of an MCP client and keeps the
// session id initialize answered.
type authed struct{ sid string }

func (a *authed) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer alice-token-0123456789")
	res, err := http.DefaultTransport.RoundTrip(r)
	if err == nil && res.Header.Get("Mcp-Session-Id") != "" {
		a.sid = res.Header.Get("Mcp-Session-Id")
	}
	return res, err
}

// The front's /mcp forwards to the object named by the principal and the MCP
// session id: the surface (tools/list), exec with its call id, cancel naming
// that call id, and end when the client deletes the session.
func TestFrontMCPForwardsToTheSessionObject(t *testing.T) {
	s, err := worker.ReadSettings(settings(nil))
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var sent []worker.Request
	send := func(_ context.Context, r worker.Request) ([]byte, error) {
		mu.Lock()
		sent = append(sent, r)
		mu.Unlock()
		switch r.Op {
		case "surface":
			return json.Marshal([]surface.ToolDef{surface.ExecTool(nil, []string{"javascript"}, nil, surface.IndexLimits{}), surface.WaitTool()})
		case "exec":
			return []byte(`{"status":"completed","value":42,"telemetry":{}}`), nil
		}
		return []byte(`{}`), nil
	}
	h, err := worker.NewFront(worker.FrontOptions{Settings: s, Send: send})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	a := &authed{}
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "t", Version: "1"}, nil).Connect(context.Background(),
		&sdk.StreamableClientTransport{Endpoint: srv.URL + "/mcp", HTTPClient: &http.Client{Transport: a}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	object := worker.ObjectName("alice", core.Scope{AgentID: "mcp", SessionID: a.sid})
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "exec", Arguments: map[string]any{"code": "return 42"}})
	if err != nil || res.IsError {
		t.Fatalf("exec: %+v %v", res, err)
	}
	// A cancel is a POST of its own, naming the call by its JSON-RPC id.
	req, _ := http.NewRequest("POST", srv.URL+"/mcp", strings.NewReader(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7}}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Session-Id", a.sid)
	req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	if resp, err := (&http.Client{Transport: a}).Do(req); err != nil || resp.StatusCode != http.StatusAccepted {
		t.Fatalf("notifications/cancelled: %v %v", resp, err)
	}
	if err := cs.Close(); err != nil {
		t.Fatal(err)
	}
	var ops []string
	for _, r := range sent {
		if r.Object != object {
			t.Fatalf("%s went to another object than the session's", r.Op)
		}
		var m struct {
			Principal, CallID string
		}
		json.Unmarshal(r.Body, &m)
		if m.Principal != "alice" {
			t.Fatalf("%s for principal %q", r.Op, m.Principal)
		}
		if (r.Op == "exec" || r.Op == "cancel") && !strings.HasPrefix(m.CallID, "mcp:") {
			t.Fatalf("%s without the call id: %s", r.Op, r.Body)
		}
		if r.Op == "cancel" && m.CallID != "mcp:7" {
			t.Fatalf("cancel names %q, want mcp:7", m.CallID)
		}
		ops = append(ops, r.Op)
	}
	if got := strings.Join(ops, ","); got != "surface,exec,touch,cancel,end" && got != "surface,exec,cancel,end" {
		t.Fatalf("forwarded %s", got)
	}
}
