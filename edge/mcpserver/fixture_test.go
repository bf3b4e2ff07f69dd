package mcpserver_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/codemode-go/codemode/core"
	"github.com/codemode-go/codemode/core/mcp"
	"github.com/codemode-go/codemode/edge"
	"github.com/codemode-go/codemode/edge/mcpserver"
	"github.com/codemode-go/codemode/internal/catalog"
	"github.com/codemode-go/codemode/internal/config"
	"github.com/codemode-go/codemode/internal/namespace"
	json "github.com/goccy/go-json"
)

// tool is a test tool from a function.
type tool struct {
	spec catalog.Spec
	run  func(ctx context.Context, call catalog.Call) (catalog.Result, error)
}

func (t tool) Spec() catalog.Spec { return t.spec }
func (t tool) Execute(ctx context.Context, c catalog.Call) (catalog.Result, error) {
	return t.run(ctx, c)
}

var obj = json.RawMessage(`{"type":"object"}`)

// fixture is a runtime with test tools, an upstream MCP server (the official
// SDK's server, in process) and the Code Mode MCP server over both.
type fixture struct {
	rt       *core.Runtime
	srv      *mcpserver.Server
	upstream *sdk.Server
	// entered receives when the block tool starts, blocked once its
	// context ended.
	entered, blocked chan struct{}
}

func newFixture(t testing.TB, timeoutMs int) *fixture {
	t.Helper()
	f := &fixture{entered: make(chan struct{}, 4), blocked: make(chan struct{}, 4)}
	tools := []catalog.Tool{
		tool{catalog.Spec{Name: "sleep_ms", Description: "Sleeps.", Parameters: json.RawMessage(`{"type":"object","properties":{"ms":{"type":"integer"}},"required":["ms"]}`), Owner: "test"},
			func(ctx context.Context, c catalog.Call) (catalog.Result, error) {
				var in struct{ Ms int }
				json.Unmarshal(c.Input, &in)
				select {
				case <-time.After(time.Duration(in.Ms) * time.Millisecond):
				case <-ctx.Done():
					return catalog.Result{}, ctx.Err()
				}
				return catalog.Result{Details: json.RawMessage(`{"slept":` + string(mustJSON(in.Ms)) + `}`)}, nil
			}},
		tool{catalog.Spec{Name: "block", Description: "Blocks until its call is canceled.", Parameters: obj, Owner: "test"},
			func(ctx context.Context, c catalog.Call) (catalog.Result, error) {
				f.entered <- struct{}{}
				<-ctx.Done()
				f.blocked <- struct{}{}
				return catalog.Result{}, ctx.Err()
			}},
		tool{catalog.Spec{Name: "clock", Description: "Direct-only: the time.", Parameters: json.RawMessage(`{"type":"object","properties":{"zone":{"type":"string"}},"additionalProperties":false}`), Owner: "test", DirectOnly: true},
			func(ctx context.Context, c catalog.Call) (catalog.Result, error) {
				return catalog.Result{Details: json.RawMessage(`{"time":"12:00","input":` + string(c.Input) + `}`),
					Content: []json.RawMessage{json.RawMessage(`{"type":"text","text":"12:00"}`)}}, nil
			}},
	}
	f.upstream = sdk.NewServer(&sdk.Implementation{Name: "up", Version: "1"}, nil)
	sdk.AddTool(f.upstream, &sdk.Tool{Name: "ping", Description: "Pong."}, func(context.Context, *sdk.CallToolRequest, struct{}) (*sdk.CallToolResult, any, error) {
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "pong"}}}, nil, nil
	})
	f.upstream.AddResource(&sdk.Resource{URI: "note://one", Name: "one", MIMEType: "text/plain"}, func(context.Context, *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
		return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: "note://one", Text: "the first note"}}}, nil
	})
	ct, st := sdk.NewInMemoryTransports()
	if _, err := f.upstream.Connect(context.Background(), st, nil); err != nil {
		t.Fatal(err)
	}
	up, err := mcp.Connect(context.Background(), "up", ct)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { up.Close() })
	cfg := config.Default()
	cfg.Enabled = true
	cfg.TimeoutMs = timeoutMs
	f.rt, err = core.New(context.Background(), core.Options{
		Config:     cfg,
		Tools:      func(context.Context, core.Scope) ([]catalog.Tool, error) { return tools, nil },
		MCPServers: []*mcp.Server{up},
		Namespaces: namespace.NewRegistry(),
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.rt.Close(context.Background()) })
	f.srv = mcpserver.New(f.rt, mcpserver.Options{ProgressEvery: 50 * time.Millisecond})
	t.Cleanup(f.srv.Close)
	return f
}

func mustJSON(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}

// connect opens a Go SDK client session to the server over an in-memory
// pipe (the stdio path: Server.Run), with opts for its handlers.
func (f *fixture) connect(t testing.TB, opts *sdk.ClientOptions) *sdk.ClientSession {
	t.Helper()
	ct, st := sdk.NewInMemoryTransports()
	go f.srv.Run(context.Background(), st)
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, opts).Connect(context.Background(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// Tokens of the HTTP tests' two principals.
const (
	tokenAlice = "alice-token-0123456789"
	tokenBob   = "bob-token-0123456789ab"
)

// serveHTTP serves the HTTP API with the MCP server at /mcp, with two
// principals' tokens.
func (f *fixture) serveHTTP(t testing.TB, maxBody int64) *httptest.Server {
	t.Helper()
	h, err := edge.New(f.rt, edge.Options{
		Tokens:         []edge.Token{{Principal: "alice", Token: tokenAlice}, {Principal: "bob", Token: tokenBob}},
		AllowedOrigins: []string{"https://app.example"}, MaxBodyBytes: maxBody, MCP: f.srv.HTTPHandler(),
	})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(h)
	t.Cleanup(hs.Close)
	return hs
}

// bearer adds a token to every request, and remembers the session id the
// server handed out.
type bearer struct {
	token string
	mu    sync.Mutex
	sid   string
}

func (b *bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	res, err := http.DefaultTransport.RoundTrip(r)
	if err == nil && res.Header.Get("Mcp-Session-Id") != "" {
		b.mu.Lock()
		b.sid = res.Header.Get("Mcp-Session-Id")
		b.mu.Unlock()
	}
	return res, err
}

// connectHTTP opens a Go SDK client session over Streamable HTTP as the
// principal of token.
func connectHTTP(t testing.TB, url, token string, opts *sdk.ClientOptions) (*sdk.ClientSession, *bearer) {
	t.Helper()
	b := &bearer{token: token}
	tr := &sdk.StreamableClientTransport{Endpoint: url + "/mcp", HTTPClient: &http.Client{Transport: b}}
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, opts).Connect(context.Background(), tr, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs, b
}

// result is a tools/call answer of exec or wait: the CodeModeResult from
// structuredContent and the texts.
type result struct {
	core.Result
	texts   []string
	isError bool
}

func call(t *testing.T, ctx context.Context, cs *sdk.ClientSession, name string, args any) result {
	t.Helper()
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return decode(t, res)
}

func decode(t *testing.T, res *sdk.CallToolResult) result {
	t.Helper()
	var r result
	r.isError = res.IsError
	for _, c := range res.Content {
		tc, ok := c.(*sdk.TextContent)
		if !ok {
			t.Fatalf("content %T, want text", c)
		}
		r.texts = append(r.texts, tc.Text)
	}
	if res.StructuredContent != nil {
		b, _ := json.Marshal(res.StructuredContent)
		if err := json.Unmarshal(b, &r.Result); err != nil {
			t.Fatalf("structuredContent %s: %v", b, err)
		}
		// The text content carries the same CodeModeResult.
		if last := r.texts[len(r.texts)-1]; !jsonEqual(last, string(b)) {
			t.Fatalf("text %s differs from structuredContent %s", last, b)
		}
	}
	return r
}

func jsonEqual(a, b string) bool {
	var x, y any
	if json.Unmarshal([]byte(a), &x) != nil || json.Unmarshal([]byte(b), &y) != nil {
		return false
	}
	return string(mustJSON(x)) == string(mustJSON(y))
}

// waitDone calls wait while the run answers waiting.
func waitDone(t *testing.T, cs *sdk.ClientSession, r result) result {
	t.Helper()
	for i := 0; r.Status == core.StatusWaiting; i++ {
		if i > 50 {
			t.Fatal("still waiting after 50 waits")
		}
		r = call(t, context.Background(), cs, "wait", map[string]any{"runId": r.RunID})
	}
	return r
}

func contains(ss []string, want string) bool {
	for _, s := range ss {
		if strings.Contains(s, want) {
			return true
		}
	}
	return false
}

// cancelBlockedExec runs an exec that blocks in a tool, cancels the call
// once the tool runs (the Go client then sends notifications/cancelled) and
// waits until the tool's own context ended.
func (f *fixture) cancelBlockedExec(t *testing.T, cs *sdk.ClientSession) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "exec", Arguments: map[string]any{"code": `await tools.block({}); return 1`}})
		done <- err
	}()
	select {
	case <-f.entered:
	case <-time.After(10 * time.Second):
		t.Fatal("the block tool never started")
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("CallTool after cancel: %v", err)
	}
	select {
	case <-f.blocked:
	case <-time.After(10 * time.Second):
		t.Fatal("the cancelled exec's tool call was never canceled")
	}
}
