package core_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/codemode-go/codemode/core"
	"github.com/codemode-go/codemode/internal/catalog"
	"github.com/codemode-go/codemode/internal/config"
	"github.com/codemode-go/codemode/internal/issuesdemo"
	"github.com/codemode-go/codemode/internal/namespace"
	"github.com/codemode-go/codemode/internal/toolset"
)

// newRuntimeWith is newRuntime with access to the remaining Options (policy,
// hooks, transcript, MCP servers). Tools come from a fresh example toolset plus
// extra; the toolset registers the Issues namespace again.
func newRuntimeWith(t testing.TB, mod func(*config.Config), opts func(*core.Options), extra ...catalog.Tool) *core.Runtime {
	t.Helper()
	base, err := toolset.Tools()
	if err != nil {
		t.Fatal(err)
	}
	return newRuntimeOver(t, append(base, extra...), mod, opts)
}

// newRuntimeOver builds a runtime over exactly these tools.
func newRuntimeOver(t testing.TB, tools []catalog.Tool, mod func(*config.Config), opts func(*core.Options)) *core.Runtime {
	t.Helper()
	cfg := config.Default()
	cfg.Enabled = true
	if mod != nil {
		mod(&cfg)
	}
	o := core.Options{
		Config: cfg,
		Tools:  func(context.Context, core.Scope) ([]catalog.Tool, error) { return tools, nil },
		// Tests run cells side by side on loaded machines; admission control
		// has its own tests (admission_test.go) with their own bounds.
		MaxRunningCells: -1,
	}
	if opts != nil {
		opts(&o)
	}
	if o.Namespaces == nil { // the example toolset's Issues namespace, this runtime's own
		o.Namespaces = issuesRegistry(t)
	}
	rt, err := core.New(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rt.Close(context.Background()) })
	return rt
}

// execAs runs a cell under a given exec call id.
func execAs(rt *core.Runtime, callID string, in core.ExecInput) core.Result {
	return rt.Exec(context.Background(), core.CallInfo{Scope: testScope, CallID: callID}, in)
}

// waitDone calls wait until the run is no longer waiting (at most n times).
func waitDone(t testing.TB, rt *core.Runtime, r core.Result, n int) core.Result {
	t.Helper()
	for i := 0; r.Status == core.StatusWaiting && i < n; i++ {
		r = rt.Wait(context.Background(), core.CallInfo{Scope: testScope, CallID: fmt.Sprintf("wait_%d", i+1)}, core.WaitInput{RunID: r.RunID})
	}
	return r
}

// fnTool is a catalog tool made of a spec and a function.
type fnTool struct {
	spec catalog.Spec
	fn   func(ctx context.Context, call catalog.Call) (catalog.Result, error)
}

func (f fnTool) Spec() catalog.Spec { return f.spec }
func (f fnTool) Execute(ctx context.Context, call catalog.Call) (catalog.Result, error) {
	if f.fn == nil {
		return catalog.Result{Details: json.RawMessage(`{"ran":"` + f.spec.Name + `"}`)}, nil
	}
	return f.fn(ctx, call)
}

// coreTool is a core-owned OpenClaw tool with a permissive object schema.
func coreTool(name string, fn func(ctx context.Context, call catalog.Call) (catalog.Result, error), mod func(*catalog.Spec)) catalog.Tool {
	s := catalog.Spec{Name: name, Description: "test tool " + name,
		Parameters: json.RawMessage(`{"type":"object"}`),
		Source:     catalog.SourceOpenClaw, Owner: "core", Origin: catalog.OriginCore}
	if mod != nil {
		mod(&s)
	}
	return fnTool{spec: s, fn: fn}
}

// gateApprover blocks every approval until release is called.
type gateApprover struct {
	asked    chan catalog.ApprovalRequest
	decision chan bool
}

func newGate() *gateApprover {
	return &gateApprover{asked: make(chan catalog.ApprovalRequest, 16), decision: make(chan bool, 16)}
}

func (g *gateApprover) Approve(ctx context.Context, req catalog.ApprovalRequest) (bool, error) {
	g.asked <- req
	select {
	case ok := <-g.decision:
		return ok, nil
	case <-ctx.Done():
		return false, ctx.Err()
	}
}

func (g *gateApprover) release(ok bool) { g.decision <- ok }

// issuesRegistry is a namespace registry of this test alone holding only the
// example Issues namespace, so tests never share registrations and may run in
// parallel.
func issuesRegistry(t testing.TB) *namespace.Registry {
	t.Helper()
	reg := namespace.NewRegistry()
	if err := issuesdemo.RegisterIn(reg); err != nil {
		t.Fatal(err)
	}
	return reg
}

// obj decodes a completed value as a JSON object.
func obj(t testing.TB, r core.Result) map[string]any {
	t.Helper()
	m, ok := value(t, r).(map[string]any)
	if !ok {
		t.Fatalf("value %s is not an object", r.Value)
	}
	return m
}
