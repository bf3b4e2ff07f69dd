package core

import (
	stdjson "encoding/json"
	"testing"

	"github.com/codemode-go/codemode/internal/catalog"
	json "github.com/codemode-go/codemode/internal/jsonx"
)

// bridgeResults are tool results as tools hand them back: compact and not,
// with characters encoding/json escapes, and shapes the fast path leaves.
var bridgeResults = []catalog.Result{
	{Details: json.RawMessage(`{"pong":0}`)},
	{Details: json.RawMessage(" { \"a\" : [ 1 , 2.50 , null ] ,\n\"b\":{} } ")},
	{Details: json.RawMessage(`{"html":"<b>&amp;</b>","ls":"` + "\u2028\u2029" + `","esc":"\u2028\"\\"}`)},
	{Details: json.RawMessage(`"é 😀 \ud83d\ude00"`)},
	{Details: json.RawMessage(`null`)},
	{Details: json.RawMessage(`12e3`)},
	{Details: json.RawMessage(`{"a":1} x`)},
	{Details: json.RawMessage(`{"a":`)},
	{Content: []json.RawMessage{json.RawMessage(`{"type":"text","text":"hi"}`)}, Details: json.RawMessage(`1`)},
	{IsError: true, Details: json.RawMessage(`{"e":1}`)},
	{},
}

// TestMarshalAnswerMatchesMarshal: tools.call's answer is byte for byte what
// json.Marshal (encoding/json in a page, jsonx natively) writes for the map it
// replaced, and fails where it fails.
func TestMarshalAnswerMatchesMarshal(t *testing.T) {
	for _, tool := range []string{"client:bench:ping", "mcp:srv:<tool>&", "x\u2028y", "bad\xffutf8"} {
		for _, res := range bridgeResults {
			checkMarshalAnswer(t, tool, res)
		}
	}
}

func checkMarshalAnswer(t *testing.T, tool string, res catalog.Result) {
	t.Helper()
	m := map[string]any{"tool": tool, "result": res}
	got, err := marshalAnswer(callAnswer{tool: tool, result: res})
	for name, marshal := range map[string]func(any) ([]byte, error){"encoding/json": stdjson.Marshal, "jsonx": json.Marshal} {
		want, werr := marshal(m)
		if (err != nil) != (werr != nil) || string(got) != string(want) {
			t.Fatalf("%q %s:\nfast %s (%v)\n%s %s (%v)", tool, res.Details, got, err, name, want, werr)
		}
	}
}

func FuzzMarshalAnswer(f *testing.F) {
	for _, res := range bridgeResults {
		f.Add("client:a:b", string(res.Details))
	}
	f.Fuzz(func(t *testing.T, tool, details string) {
		checkMarshalAnswer(t, tool, catalog.Result{Details: json.RawMessage(details)})
	})
}
