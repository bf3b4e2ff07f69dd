// Package toolset is the small built-in example toolset the native command and
// the tests run cells against: a plugin tool with a declared output contract
// (shipping_list), an echo, a tool slow enough to force `waiting` (sleep_ms),
// the GitHub-style issue tools behind the Issues namespace, and one direct-only
// tool that stays visible to the model.
package toolset

import (
	"context"
	"fmt"
	"time"

	"github.com/codemode-go/codemode/internal/catalog"
	"github.com/codemode-go/codemode/internal/issuesdemo"
	"github.com/codemode-go/codemode/internal/namespace"
	json "github.com/goccy/go-json"
)

// Tools returns a fresh toolset (its own issue store). The Issues namespace
// over its issue tools is a registration of its own (Namespaces), so a runtime
// shows it only when its host passes that registry.
func Tools() ([]catalog.Tool, error) {
	store, err := issuesdemo.NewStore(
		issuesdemo.Issue{Number: 1, Title: "Gateway logs lose the request id", State: "open", Labels: []string{"bug"}},
		issuesdemo.Issue{Number: 2, Title: "Document the wait tool", State: "open", Labels: []string{"docs"}},
		issuesdemo.Issue{Number: 3, Title: "Snapshot TTL is not configurable", State: "closed", Labels: []string{"enhancement"}},
	)
	if err != nil {
		return nil, err
	}
	tools := []catalog.Tool{echo{}, sleepMs{}, shippingList{}, screenshot{}}
	return append(tools, store.Tools()...), nil
}

// Namespaces returns a fresh namespace registry holding the Issues namespace
// (the spec's example, plugin "github") over the toolset's issue tools: pass it
// as core.Options.Namespaces. A registry per runtime, never the process's.
func Namespaces() (*namespace.Registry, error) {
	reg := namespace.NewRegistry()
	if err := issuesdemo.RegisterIn(reg); err != nil {
		return nil, err
	}
	return reg, nil
}

// Shipment is one row of shipping_list.
type Shipment struct {
	// ID identifies the shipment.
	ID string `json:"id"`
	// Paid reports whether it is paid.
	Paid bool `json:"paid"`
	// Tons is its weight.
	Tons float64 `json:"tons"`
}

var shipments = []Shipment{
	{"SH-1001", true, 4.5}, {"SH-1002", false, 12}, {"SH-1003", false, 8.25},
	{"SH-1004", true, 22}, {"SH-1005", false, 31.5}, {"SH-1006", false, 10},
}

type shippingList struct{}

func (shippingList) Spec() catalog.Spec {
	return catalog.Spec{
		Name: "shipping_list", Label: "List shipments", Description: "List shipments with payment state and weight in tons.",
		Parameters:   json.RawMessage(`{"type":"object","properties":{},"additionalProperties":false}`),
		OutputSchema: json.RawMessage(`{"type":"array","items":{"type":"object","properties":{"id":{"type":"string"},"paid":{"type":"boolean"},"tons":{"type":"number"}},"required":["id","paid","tons"],"additionalProperties":false}}`),
		Source:       catalog.SourceOpenClaw, Owner: "shipping", Origin: catalog.OriginBundledPlugin, ReadOnly: true,
	}
}

func (shippingList) Execute(ctx context.Context, _ catalog.Call) (catalog.Result, error) {
	return detailsResult(shipments, fmt.Sprintf("%d shipments", len(shipments)))
}

type echo struct{}

func (echo) Spec() catalog.Spec {
	return catalog.Spec{
		Name: "echo", Description: "Return the input unchanged.",
		Parameters: json.RawMessage(`{"type":"object","properties":{"message":{"type":"string"}},"required":["message"]}`),
		Source:     catalog.SourceOpenClaw, Owner: "core", Origin: catalog.OriginCore, ReadOnly: true,
	}
}

func (echo) Execute(ctx context.Context, call catalog.Call) (catalog.Result, error) {
	var in struct {
		Message *string `json:"message"`
	}
	if err := json.Unmarshal(call.Input, &in); err != nil || in.Message == nil {
		return catalog.Result{}, fmt.Errorf("echo needs {message: string}")
	}
	return detailsResult(map[string]string{"message": *in.Message}, *in.Message)
}

type sleepMs struct{}

func (sleepMs) Spec() catalog.Spec {
	return catalog.Spec{
		Name: "sleep_ms", Description: "Wait for ms milliseconds (0-60000), then report how long it slept.",
		Parameters:   json.RawMessage(`{"type":"object","properties":{"ms":{"type":"integer","minimum":0,"maximum":60000}},"required":["ms"],"additionalProperties":false}`),
		OutputSchema: json.RawMessage(`{"type":"object","properties":{"slept":{"type":"integer"}},"required":["slept"],"additionalProperties":false}`),
		Source:       catalog.SourceOpenClaw, Owner: "core", Origin: catalog.OriginCore, ReadOnly: true,
	}
}

func (sleepMs) Execute(ctx context.Context, call catalog.Call) (catalog.Result, error) {
	var in struct {
		Ms *int `json:"ms"`
	}
	if err := json.Unmarshal(call.Input, &in); err != nil || in.Ms == nil || *in.Ms < 0 || *in.Ms > 60000 {
		return catalog.Result{}, fmt.Errorf("sleep_ms needs {ms: integer 0-60000}")
	}
	select {
	case <-time.After(time.Duration(*in.Ms) * time.Millisecond):
	case <-ctx.Done():
		return catalog.Result{}, ctx.Err()
	}
	return detailsResult(map[string]int{"slept": *in.Ms}, fmt.Sprintf("slept %d ms", *in.Ms))
}

// screenshot is direct-only: its image result cannot cross the JSON bridge, so
// it stays a model-visible tool and never enters the catalog.
type screenshot struct{}

func (screenshot) Spec() catalog.Spec {
	return catalog.Spec{
		Name: "screenshot", Description: "Take a screenshot of the current screen (image result).",
		Parameters: json.RawMessage(`{"type":"object","properties":{}}`),
		Source:     catalog.SourceOpenClaw, Owner: "core", Origin: catalog.OriginCore, DirectOnly: true,
	}
}

func (screenshot) Execute(ctx context.Context, _ catalog.Call) (catalog.Result, error) {
	return catalog.Result{}, fmt.Errorf("screenshot has no screen in this example toolset")
}

func detailsResult(details any, summary string) (catalog.Result, error) {
	d, err := json.Marshal(details)
	if err != nil {
		return catalog.Result{}, err
	}
	c, _ := json.Marshal(map[string]string{"type": "text", "text": summary})
	return catalog.Result{Content: []json.RawMessage{c}, Details: d}, nil
}

// Demo is the example toolset and its Issues namespace together, as a demo
// build hands them to its host (internal/demo.Tools).
func Demo() ([]catalog.Tool, *namespace.Registry, error) {
	tools, err := Tools()
	if err != nil {
		return nil, nil, err
	}
	ns, err := Namespaces()
	if err != nil {
		return nil, nil, err
	}
	return tools, ns, nil
}
