package catalog

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	gojson "github.com/goccy/go-json"
)

// Small real tools used by the tests. They do real (if tiny) work on their input,
// so the tests exercise the catalog, not a mock of it.

type goTool struct {
	spec Spec
	run  func(ctx context.Context, c Call) (Result, error)
}

func (t goTool) Spec() Spec { return t.spec }
func (t goTool) Execute(ctx context.Context, c Call) (Result, error) {
	return t.run(ctx, c)
}

func detailsResult(v any) (Result, error) {
	b, err := gojson.Marshal(v)
	if err != nil {
		return Result{}, err
	}
	text, _ := gojson.Marshal(map[string]string{"type": "text", "text": string(b)})
	return Result{Content: []json.RawMessage{text}, Details: b}, nil
}

// messageTool "sends" a message: it checks the input and reports what it sent.
func messageTool() Tool {
	return goTool{spec: Spec{Name: "message", Label: "Message", Description: "Send a message to a channel.",
		Parameters: json.RawMessage(`{"type":"object","properties":{"to":{"type":"string"},"text":{"type":"string"}},"required":["to","text"]}`),
		Source:     SourceOpenClaw, Owner: "core", Origin: OriginCore, SideEffects: true},
		run: func(_ context.Context, c Call) (Result, error) {
			var in struct{ To, Text string }
			if err := gojson.Unmarshal(c.Input, &in); err != nil {
				return Result{}, err
			}
			if in.To == "" {
				return Result{}, fmt.Errorf("to is required")
			}
			return detailsResult(map[string]any{"sent": true, "to": in.To, "chars": len(in.Text)})
		}}
}

// shellExecTool is the core shell tool named exec. It never runs a process here;
// it echoes the command as the shell would print it with `echo`.
func shellExecTool() Tool {
	return goTool{spec: Spec{Name: "exec", Description: "Run a shell command.",
		Parameters: json.RawMessage(`{"type":"object","properties":{"command":{"type":"string"}},"required":["command"]}`),
		Source:     SourceOpenClaw, Owner: "core", SideEffects: true},
		run: func(_ context.Context, c Call) (Result, error) {
			var in struct{ Command string }
			if err := gojson.Unmarshal(c.Input, &in); err != nil {
				return Result{}, err
			}
			out, _ := strings.CutPrefix(in.Command, "echo ")
			return detailsResult(map[string]any{"stdout": out + "\n", "exitCode": 0})
		}}
}

const shipmentSchema = `{"type":"array","items":{"type":"object","properties":{"id":{"type":"string"},"paid":{"type":"boolean"},"tons":{"type":"number"}},"required":["id","paid","tons"],"additionalProperties":false}}`

// shipments is a plugin tool with a closed output contract.
type shipment struct {
	ID   string  `json:"id"`
	Paid bool    `json:"paid"`
	Tons float64 `json:"tons"`
}

func shippingListTool(data []shipment) Tool {
	return goTool{spec: Spec{Name: "shipping_list", Description: "List shipments.",
		Parameters:   json.RawMessage(`{"type":"object","properties":{},"additionalProperties":false}`),
		OutputSchema: json.RawMessage(shipmentSchema),
		Source:       SourceOpenClaw, Owner: "shipping", Origin: OriginBundledPlugin},
		run: func(_ context.Context, _ Call) (Result, error) { return detailsResult(data) }}
}

// kvTool is a tiny key-value store: get/put on an in-memory map.
func kvTool(name string, origin Origin, owner string) Tool {
	store := map[string]string{"greeting": "hello"}
	return goTool{spec: Spec{Name: name, Description: "Read a key from the store.",
		Parameters: json.RawMessage(`{"type":"object","properties":{"key":{"type":"string"}},"required":["key"]}`),
		Source:     "", Owner: owner, Origin: origin, ReadOnly: true},
		run: func(_ context.Context, c Call) (Result, error) {
			var in struct{ Key string }
			if err := gojson.Unmarshal(c.Input, &in); err != nil {
				return Result{}, err
			}
			return detailsResult(map[string]any{"key": in.Key, "value": store[in.Key]})
		}}
}

// mcpTool adds two numbers, as a remote MCP server would.
func mcpTool(server, name string) Tool {
	return goTool{spec: Spec{Name: name, Description: "Add numbers (remote).",
		Parameters:   json.RawMessage(`{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}}}`),
		OutputSchema: json.RawMessage(`{"type":"object","properties":{"sum":{"type":"number"}},"additionalProperties":false}`),
		Source:       SourceMCP, Owner: server, Origin: OriginMCP},
		run: func(_ context.Context, c Call) (Result, error) {
			var in struct{ A, B float64 }
			if err := gojson.Unmarshal(c.Input, &in); err != nil {
				return Result{}, err
			}
			return detailsResult(map[string]any{"sum": in.A + in.B})
		}}
}

func clientTool(app, name string) Tool {
	return goTool{spec: Spec{Name: name, Description: "Pick a file in the page.",
		Parameters:   json.RawMessage(`{"type":"object","properties":{"accept":{"type":"string"}}}`),
		OutputSchema: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}},"additionalProperties":false}`),
		Source:       SourceClient, Owner: app, Origin: OriginClient},
		run: func(_ context.Context, c Call) (Result, error) {
			return detailsResult(map[string]any{"path": "/tmp/a.txt"})
		}}
}

func directOnlyTool(name string) Tool {
	return goTool{spec: Spec{Name: name, Description: "Load an image for the model.", DirectOnly: true,
		Source: SourceOpenClaw, Owner: "core"},
		run: func(context.Context, Call) (Result, error) { return Result{}, nil }}
}

// controlTool stands for the Code Mode exec/wait or a Tool Search control.
func controlTool(name string, flag bool) Tool {
	return goTool{spec: Spec{Name: name, Description: "control", Control: flag, Source: SourceOpenClaw, Owner: "core"},
		run: func(context.Context, Call) (Result, error) { return detailsResult("control ran") }}
}

// fixture is a run's effective tool list with every kind of tool.
func fixture() []Tool {
	return []Tool{
		clientTool("app", "select_file"),
		mcpTool("github", "add"),
		shippingListTool([]shipment{{"s1", false, 12}, {"s2", true, 30}, {"s3", false, 4}}),
		messageTool(),
		shellExecTool(),
		kvTool("kv_get", OriginExternalPlugin, "kv"),
		directOnlyTool("image"),
		controlTool("exec", true),
		controlTool("wait", true),
		controlTool("tool_search", false),
		controlTool("tool_search_code", false),
		controlTool("tool_describe", false),
		controlTool("tool_call", false),
	}
}

func mustBuild(t interface {
	Helper()
	Fatal(...any)
}, tools []Tool, opts BuildOptions) *Catalog {
	t.Helper()
	c, err := Build(tools, opts)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func ids(es []Entry) []string {
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = e.ID
	}
	return out
}
