package edge_test

import (
	"context"
	"net/http/httptest"
	"testing"

	"github.com/codemode-go/codemode/core"
	"github.com/codemode-go/codemode/core/surface"
	"github.com/codemode-go/codemode/edge"
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
