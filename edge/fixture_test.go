package edge_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/codemode-go/codemode/core"
	"github.com/codemode-go/codemode/edge"
	"github.com/codemode-go/codemode/internal/catalog"
	"github.com/codemode-go/codemode/internal/config"
	"github.com/codemode-go/codemode/internal/toolset"
	json "github.com/goccy/go-json"
)

// Test tools beside the example toolset: one that panics, one that fails, a
// control tool (the Code Mode exec itself) and one the policy denies.
type testTool struct {
	spec catalog.Spec
	run  func(ctx context.Context, call catalog.Call) (catalog.Result, error)
}

func (t testTool) Spec() catalog.Spec { return t.spec }
func (t testTool) Execute(ctx context.Context, c catalog.Call) (catalog.Result, error) {
	return t.run(ctx, c)
}

func extraTools() []catalog.Tool {
	obj := json.RawMessage(`{"type":"object"}`)
	return []catalog.Tool{
		testTool{catalog.Spec{Name: "boom", Description: "Panics.", Parameters: obj, Owner: "core"},
			func(context.Context, catalog.Call) (catalog.Result, error) {
				panic("kaboom at /home/secret/path.go:12")
			}},
		testTool{catalog.Spec{Name: "fail", Description: "Fails.", Parameters: obj, Owner: "core"},
			func(context.Context, catalog.Call) (catalog.Result, error) {
				return catalog.Result{}, errors.New("fail: it failed")
			}},
		testTool{catalog.Spec{Name: "exec", Description: "Code Mode exec.", Parameters: obj, Owner: "core", Control: true},
			func(context.Context, catalog.Call) (catalog.Result, error) { return catalog.Result{}, nil }},
		testTool{catalog.Spec{Name: "secret_admin", Description: "Denied by policy.", Parameters: obj, Owner: "core"},
			func(context.Context, catalog.Call) (catalog.Result, error) {
				return catalog.Result{Details: json.RawMessage(`"ran"`)}, nil
			}},
	}
}

var (
	rtOnce sync.Once
	rtVal  *core.Runtime
	rtErr  error
)

// sharedRuntime is one runtime for the package's tests: loading QuickJS is the
// slow part, and the handler must be safe to share anyway.
func sharedRuntime(t testing.TB) *core.Runtime {
	t.Helper()
	rtOnce.Do(func() {
		tools, err := toolset.Tools()
		if err != nil {
			rtErr = err
			return
		}
		tools = append(tools, extraTools()...)
		cfg := config.Default()
		cfg.Enabled = true
		cfg.TimeoutMs = 1000
		rtVal, rtErr = core.New(context.Background(), core.Options{
			Config: cfg,
			Tools:  func(context.Context, core.Scope) ([]catalog.Tool, error) { return tools, nil },
			Policy: catalog.Policy{Deny: []string{"secret_admin"}},
		})
	})
	if rtErr != nil {
		t.Fatal(rtErr)
	}
	return rtVal
}

func newServer(t testing.TB, opts edge.Options) *httptest.Server {
	t.Helper()
	h, err := edge.New(sharedRuntime(t), opts)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv
}

type answer struct {
	status int
	header http.Header
	body   []byte
}

func (a answer) json(t testing.TB) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(a.body, &m); err != nil {
		t.Fatalf("body is not a JSON object: %v: %s", err, a.body)
	}
	return m
}

// errorCode returns error.code of an error answer.
func (a answer) errorCode(t testing.TB) string {
	t.Helper()
	e, _ := a.json(t)["error"].(map[string]any)
	if e == nil {
		t.Fatalf("no error object in %s", a.body)
	}
	if _, ok := e["message"].(string); !ok {
		t.Fatalf("error has no message: %s", a.body)
	}
	code, _ := e["code"].(string)
	return code
}

func do(t testing.TB, method, url, token, body string, hdr ...string) answer {
	t.Helper()
	req, err := http.NewRequest(method, url, bytes.NewBufferString(body))
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	set := map[string]bool{} // a header named twice is sent twice
	for i := 0; i+1 < len(hdr); i += 2 {
		switch {
		case hdr[i+1] == "":
			req.Header.Del(hdr[i])
		case set[hdr[i]]:
			req.Header.Add(hdr[i], hdr[i+1])
		default:
			req.Header.Set(hdr[i], hdr[i+1])
			set[hdr[i]] = true
		}
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return answer{resp.StatusCode, resp.Header, b}
}

func post(t testing.TB, srv *httptest.Server, path, body string) answer {
	return do(t, http.MethodPost, srv.URL+path, "", body)
}

const scope = `"scope":{"agentId":"a","sessionId":"s","sessionKey":"k","agentRunId":"r"}`
