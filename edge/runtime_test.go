package edge_test

import (
	"context"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/codemode-go/codemode/core"
	"github.com/codemode-go/codemode/edge"
	"github.com/codemode-go/codemode/internal/ops"
	"github.com/codemode-go/codemode/internal/surface"
)

// principalSeen wraps the real runtime and records the principal a route's
// context carries where the method has no CallInfo: what a forwarding Runtime
// needs to pick the right backend.
type principalSeen struct {
	*core.Runtime
	got chan string
}

func (p principalSeen) Surface(ctx context.Context, scope core.Scope, disable bool) (surface.Surface, error) {
	p.got <- edge.Principal(ctx)
	return p.Runtime.Surface(ctx, scope, disable)
}

func TestHandlerServesAnyRuntimeAndHandsItThePrincipal(t *testing.T) {
	rt := principalSeen{sharedRuntime(t), make(chan string, 1)}
	h, err := edge.New(rt, edge.Options{Tokens: []edge.Token{{Principal: "alice", Token: "alice-token-0123456789"}}})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	a := do(t, "POST", srv.URL+"/v1/surface", "alice-token-0123456789", `{"scope":{"agentId":"a"}}`)
	if a.status != 200 {
		t.Fatalf("status %d: %s", a.status, a.body)
	}
	if got := <-rt.got; got != "alice" {
		t.Fatalf("Principal(ctx) = %q, want alice", got)
	}
	if edge.Principal(context.Background()) != "" {
		t.Fatal("a context without a principal must give \"\"")
	}
}

// atCapacity answers every exec and wait as a runtime at its bound of running
// cells does.
type atCapacity struct{ *core.Runtime }

func (atCapacity) Exec(context.Context, core.CallInfo, core.ExecInput) core.Result {
	return core.Result{Status: core.StatusFailed, Code: core.CodeRuntimeUnavailable, Error: "code mode is at capacity", RetryAfter: 1500 * time.Millisecond}
}

func (a atCapacity) Wait(ctx context.Context, c core.CallInfo, _ core.WaitInput) core.Result {
	return a.Exec(ctx, c, core.ExecInput{})
}

// TestAtCapacityIs429WithRetryAfter: a result refused at capacity is answered
// 429 at_capacity with Retry-After in whole seconds, rounded up.
func TestAtCapacityIs429WithRetryAfter(t *testing.T) {
	h, err := edge.New(atCapacity{sharedRuntime(t)}, edge.Options{})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	for _, path := range []string{"/v1/exec", "/v1/wait"} {
		body := `{"code":"1","scope":{"agentId":"a"}}`
		if path == "/v1/wait" {
			body = `{"runId":"cm_x","scope":{"agentId":"a"}}`
		}
		a := do(t, "POST", srv.URL+path, "", body)
		if a.status != 429 || a.errorCode(t) != ops.CodeAtCapacity || a.header.Get("Retry-After") != "2" {
			t.Errorf("%s: %d Retry-After %q %s", path, a.status, a.header.Get("Retry-After"), a.body)
		}
	}
}
