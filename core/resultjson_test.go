package core

import (
	stdjson "encoding/json"
	"testing"

	"github.com/codemode-go/codemode/internal/catalog"
	json "github.com/codemode-go/codemode/internal/jsonx"
)

// marshals are the references the direct writers are held to: encoding/json
// (a page's codec) and jsonx (goccy natively).
var marshals = map[string]func(any) ([]byte, error){"encoding/json": stdjson.Marshal, "jsonx": json.Marshal}

var tel = catalog.Telemetry{CatalogSize: 3, CatalogBySource: catalog.SourceCounts{OpenClaw: 1, MCP: 1, Client: 1},
	SearchCount: 2, DescribeCount: -1, CallCount: 1 << 40, ModelVisibleTools: []string{"exec", "wait", "<b>&x\u2028"}}

// jsonResults cover every variant and field of Result: present and absent,
// characters encoding/json escapes, raw values compact and not, and invalid.
var jsonResults = []Result{
	{Status: StatusCompleted, Value: json.RawMessage(`42`)},
	{Status: StatusCompleted, Telemetry: tel, Output: []Output{{Type: "text", Text: "hi <b>\n"}, {Type: "text"},
		{Type: "json", Value: json.RawMessage(" { \"a\" : [1, \"<&>\u2029\"] } ")}, {Type: "json"}}},
	{Status: StatusCompleted, Value: json.RawMessage(" [ 1 ,\n2 ] "), Output: []Output{}},
	{Status: StatusCompleted, Value: json.RawMessage(`{"a":`)},
	{Status: StatusCompleted, Value: json.RawMessage(``)},
	{Status: StatusCompleted, Output: []Output{{Type: "json", Value: json.RawMessage(`nope`)}}},
	{Status: StatusWaiting, RunID: "cm_1", Reason: "pending_tools", RestartSafe: true, Telemetry: tel,
		PendingToolCalls: []PendingToolCall{{ID: "c1", ToolID: "client:a:b", Kind: "call"}, {ID: "t\xff", Kind: "timer"}},
		Output:           []Output{{Type: "text", Text: "x"}}},
	{Status: StatusWaiting, Value: json.RawMessage(`1`), Error: "ignored", Code: CodeTimeout},
	{Status: StatusFailed, Error: "boom \"quoted\" \x01", Code: CodeTimeout, Value: json.RawMessage(`1`), RunID: "ignored", RestartSafe: true},
	{Status: StatusFailed, Telemetry: catalog.Telemetry{ModelVisibleTools: []string{}}},
	{Status: "weird", Error: "e"},
	{},
}

// TestResultJSONMatchesReflection: MarshalJSON's direct writer gives the
// bytes (and the failures) of the reflective encoding it replaced, under both
// codecs.
func TestResultJSONMatchesReflection(t *testing.T) {
	for _, r := range jsonResults {
		checkResultJSON(t, r)
		for _, o := range r.Output {
			checkOutputJSON(t, o)
		}
	}
}

func checkResultJSON(t *testing.T, r Result) {
	t.Helper()
	checkDirect(t, r, r.MarshalJSON, r.marshalReflect)
}

func checkOutputJSON(t *testing.T, o Output) {
	t.Helper()
	checkDirect(t, o, o.MarshalJSON, o.marshalReflect)
}

// checkDirect holds a direct writer's bytes, and its failing, to the
// reflective reference under each codec of marshals.
func checkDirect(t *testing.T, v any, direct func() ([]byte, error), reference func(func(any) ([]byte, error)) ([]byte, error)) {
	t.Helper()
	got, err := direct()
	for name, marshal := range marshals {
		want, werr := reference(marshal)
		if (err != nil) != (werr != nil) || string(got) != string(want) {
			t.Fatalf("%+v:\ndirect %s (%v)\n%s %s (%v)", v, got, err, name, want, werr)
		}
	}
}

// TestRunDataJSONMatchesMarshal: the run's data for the guest is written as
// json.Marshal writes it.
func TestRunDataJSONMatchesMarshal(t *testing.T) {
	entries := []catalog.Entry{
		{ID: "client:app:t", Name: "t", Description: "d <b>", Source: catalog.SourceClient, SourceName: "app", Input: "unknown"},
		{ID: "openclaw:core:x", Name: "x", Label: "X\u2028", Description: "", Source: catalog.SourceOpenClaw, Input: "{ a: string }", Output: "number"},
	}
	for _, d := range []runData{
		{AllTools: []catalog.Entry{}, MCP: map[string]mcpServerData{}, Namespaces: json.RawMessage("[]")},
		{AllTools: entries, SafeNames: map[string]string{"b": "client:app:t", "a": "x&y"},
			MCP:        map[string]mcpServerData{"srv_b": {Server: "srv-b", Tools: map[string]string{"z": "Z", "echo": "echo"}}, "a": {Server: "a"}},
			Namespaces: json.RawMessage(` [ {"id":"github","x":"<"} ] `)},
		{Namespaces: json.RawMessage(`[`)},
		{},
	} {
		checkRunData(t, d)
	}
}

func checkRunData(t *testing.T, d runData) {
	t.Helper()
	checkDirect(t, d, d.marshal, func(marshal func(any) ([]byte, error)) ([]byte, error) { return marshal(d) })
}

// FuzzResultJSON holds the direct writers to both codecs for any text in
// the fields that carry text or raw JSON.
func FuzzResultJSON(f *testing.F) {
	f.Add("completed", "42", "hi", "cm_1", "client:a:b", "<b>")
	f.Add("failed", "{\"a\":", "\xff", "", "\u2028", "x")
	f.Add("waiting", " [1] ", "", "r", "t", "")
	f.Fuzz(func(t *testing.T, status, raw, text, id, tool, name string) {
		r := Result{Status: Status(status), Value: json.RawMessage(raw), RunID: id, Reason: text, Error: text, Code: ErrorCode(name),
			PendingToolCalls: []PendingToolCall{{ID: id, ToolID: tool, Kind: name}},
			Output:           []Output{{Type: "text", Text: text}, {Type: "json", Value: json.RawMessage(raw)}, {Type: name, Text: text}},
			Telemetry:        catalog.Telemetry{ModelVisibleTools: []string{name, tool}}, RestartSafe: len(text)%2 == 0}
		checkResultJSON(t, r)
		checkRunData(t, runData{
			AllTools:  []catalog.Entry{{ID: id, Name: name, Label: text, Description: text, Source: catalog.Source(tool), SourceName: name, Input: text, Output: tool}},
			SafeNames: map[string]string{name: tool, text: id}, MCP: map[string]mcpServerData{name: {Server: text, Tools: map[string]string{tool: id}}},
			Namespaces: json.RawMessage(raw),
		})
	})
}
