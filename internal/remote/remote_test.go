package remote_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/codemode-go/codemode/core"
	"github.com/codemode-go/codemode/edge"
	"github.com/codemode-go/codemode/internal/catalog"
	"github.com/codemode-go/codemode/internal/config"
	"github.com/codemode-go/codemode/internal/remote"
	"github.com/codemode-go/codemode/internal/toolset"
)

// httpDo is remote.Doer over net/http, the native transport.
func httpDo(ctx context.Context, req remote.Request) (int, []byte, error) {
	r, err := http.NewRequestWithContext(ctx, req.Method, req.URL, bytes.NewReader(req.Body))
	if err != nil {
		return 0, nil, err
	}
	for k, v := range req.Headers {
		r.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(r)
	if err != nil {
		return 0, nil, err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	return res.StatusCode, b, err
}

func newRuntime(t *testing.T, tools []catalog.Tool) *core.Runtime {
	t.Helper()
	cfg := config.Default()
	cfg.Enabled = true
	rt, err := core.New(context.Background(), core.Options{Config: cfg,
		Tools: func(context.Context, catalog.Scope) ([]catalog.Tool, error) { return tools, nil }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rt.Close(context.Background()) })
	return rt
}

// A real server (edge over the example toolset) and a second core that sees
// its tools through the relay: trusted hints kept, calls relayed, failures
// named with the tool id and the status.
func TestRelayedServerTools(t *testing.T) {
	tools, err := toolset.Tools()
	if err != nil {
		t.Fatal(err)
	}
	h, err := edge.New(newRuntime(t, tools), edge.Options{})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	rem, err := remote.Load(context.Background(), remote.Options{URL: srv.URL + "/", Do: httpDo})
	if err != nil {
		t.Fatal(err)
	}
	local := newRuntime(t, rem.Tools)
	cat, err := local.Catalog(context.Background(), core.Scope{})
	if err != nil {
		t.Fatal(err)
	}
	var ship *catalog.ExportedEntry
	for i, e := range cat.Entries {
		if e.Name == "shipping_list" {
			ship = &cat.Entries[i]
		}
	}
	if ship == nil || ship.Output == "" || ship.Trust != catalog.Trusted {
		t.Fatalf("shipping_list relayed without its output hint: %+v", ship)
	}
	r := local.Exec(context.Background(), core.CallInfo{}, core.ExecInput{Code: `const s = await tools.callValue("` + ship.ID + `", {}); return s.length > 0;`})
	if r.Status != core.StatusCompleted || string(r.Value) != "true" {
		t.Fatalf("relayed call: %+v", r)
	}
	srv.Close()
	r = local.Exec(context.Background(), core.CallInfo{}, core.ExecInput{Code: `try { await tools.callValue("` + ship.ID + `", {}); } catch (e) { return e.message; }`})
	if msg := string(r.Value); !strings.Contains(msg, ship.ID) || !strings.Contains(msg, "unreachable") {
		t.Fatalf("unreachable server: %s", msg)
	}
}

func TestLoadErrorsNameTheURLAndStatus(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(http.StatusForbidden)
		io.WriteString(w, `{"error":{"code":"unauthorized","message":"bad token"}}`)
	}))
	defer srv.Close()
	tests := []struct{ url, want string }{
		{srv.URL, "answered HTTP 403: bad token"},
		{"ftp://x", "must be an http(s) URL"},
		{"http://127.0.0.1:1", "http://127.0.0.1:1/v1/catalog failed"},
	}
	for _, tc := range tests {
		_, err := remote.Load(context.Background(), remote.Options{URL: tc.url, Do: httpDo})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want %q", tc.url, err, tc.want)
		}
	}
}
