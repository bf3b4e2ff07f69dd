package edge

import (
	"bytes"
	stdjson "encoding/json"
	"strings"
	"testing"
)

// FuzzDecodeRequest: decoding never panics; whatever it accepts is a single
// valid JSON document that encoding/json also accepts with unknown fields
// disallowed; refusals carry a code and a message free of Go type names.
func FuzzDecodeRequest(f *testing.F) {
	for _, s := range []string{
		`{"code":"return 1","scope":{"agentId":"a"}}`, `{"runId":"x","scope":{}}`, `{"id":"t","input":{"a":[1,{"b":null}]},"scope":{},"callId":"c"}`,
		`{"code":1}`, `{"Code":"x"}`, `{"code":"1","code":"2"}`, `{} x`, `{`, `[]`, `null`, `{"scope":null}`, "{\"code\":\"\xff\"}",
		`{"restartSafe":tru}`, `{"input":[[[[[[[[]]]]]]]]}`, `  {"format":"openai","scope":{"sessionKey":"k"}}  `,
		`{"server":"s","name":"p","arguments":{"a":"b","a":"c"},"scope":{}}`, `{"server":"s","uri":"u","arguments":{"a":[1]}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		for _, target := range []func() any{
			func() any { return new(ExecRequest) }, func() any { return new(WaitRequest) },
			func() any { return new(SurfaceRequest) }, func() any { return new(ToolCallRequest) },
			func() any { return new(MCPResourceRequest) }, func() any { return new(MCPPromptRequest) },
		} {
			v := target()
			err := decodeStrict(body, v)
			if err != nil {
				if err.Code == "" || err.Message == "" || err.Status != 400 {
					t.Fatalf("refusal without code/message/status: %+v", err)
				}
				for _, bad := range []string{"edge.", "*", "reflect", "json:", "[]uint8", "goroutine"} {
					if strings.Contains(err.Message, bad) && !strings.Contains(string(body), bad) {
						t.Fatalf("message %q shows %q", err.Message, bad)
					}
				}
				continue
			}
			if !stdjson.Valid(body) {
				t.Fatalf("accepted invalid JSON %q", body)
			}
			dec := stdjson.NewDecoder(bytes.NewReader(body))
			dec.DisallowUnknownFields()
			ref := target()
			if err := dec.Decode(ref); err != nil {
				t.Fatalf("accepted %q that encoding/json refuses: %v", body, err)
			}
			a, _ := stdjson.Marshal(v)
			b, _ := stdjson.Marshal(ref)
			if !bytes.Equal(a, b) {
				t.Fatalf("decoded %s, encoding/json decoded %s", a, b)
			}
		}
	})
}
