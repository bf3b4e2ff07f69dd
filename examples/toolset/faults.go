package toolset

import (
	"context"
	"fmt"

	"github.com/codemode-go/codemode/core/catalog"
	json "github.com/goccy/go-json"
)

// FaultTools returns the test-only tools that misbehave on purpose: panic_now
// panics inside Execute, so a load run can prove the host recovers (the model
// sees "tool ... failed unexpectedly", never the panic value or a stack) and
// keeps serving. Hosts add them only when a test config asks (codemode serve's
// faultTools key); they are never part of Tools.
func FaultTools() []catalog.Tool { return []catalog.Tool{panicNow{}} }

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
