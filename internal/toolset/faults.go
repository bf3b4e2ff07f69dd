package toolset

import (
	"context"
	"fmt"
	"time"

	"github.com/codemode-go/codemode/internal/catalog"
	json "github.com/goccy/go-json"
)

// FaultTools returns the test-only tools that misbehave on purpose: panic_now
// panics inside Execute, so a load run can prove the host recovers (the model
// sees "tool ... failed unexpectedly", never the panic value or a stack) and
// keeps serving; fail_after returns an error from Execute after a delay, so a
// run can suspend on it and then fail on wait. Hosts add them only when a test
// config asks (codemode serve's faultTools key); they are never part of Tools.
func FaultTools() []catalog.Tool { return []catalog.Tool{panicNow{}, failAfter{}} }

type failAfter struct{}

func (failAfter) Spec() catalog.Spec {
	return catalog.Spec{
		Name: "fail_after", Description: "Test-only: wait ms milliseconds (0-60000), then fail with an error.",
		Parameters: json.RawMessage(`{"type":"object","properties":{"ms":{"type":"integer","minimum":0,"maximum":60000}},"required":["ms"],"additionalProperties":false}`),
		Source:     catalog.SourceOpenClaw, Owner: "core", Origin: catalog.OriginCore,
	}
}

func (failAfter) Execute(ctx context.Context, call catalog.Call) (catalog.Result, error) {
	var in struct {
		Ms int `json:"ms"`
	}
	if err := json.Unmarshal(call.Input, &in); err != nil || in.Ms < 0 || in.Ms > 60000 {
		return catalog.Result{}, fmt.Errorf("fail_after needs {ms: integer 0-60000}")
	}
	select {
	case <-time.After(time.Duration(in.Ms) * time.Millisecond):
	case <-ctx.Done():
		return catalog.Result{}, ctx.Err()
	}
	return catalog.Result{}, fmt.Errorf("fail_after: failed after %d ms, as asked", in.Ms)
}

type panicNow struct{}

func (panicNow) Spec() catalog.Spec {
	return catalog.Spec{
		Name: "panic_now", Description: "Test-only: panic inside the tool (the host must recover).",
		Parameters: json.RawMessage(`{"type":"object","properties":{"why":{"type":"string"}}}`),
		Source:     catalog.SourceOpenClaw, Owner: "core", Origin: catalog.OriginCore,
	}
}

func (panicNow) Execute(context.Context, catalog.Call) (catalog.Result, error) {
	panic(fmt.Sprintf("panic_now: deliberate panic from %s", "examples/toolset/faults.go"))
}
