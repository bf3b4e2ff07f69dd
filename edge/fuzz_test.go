package edge

import (
	"strings"
	"testing"
)

// FuzzDecodeRequest: decoding the API's requests never panics, and every
// refusal is a 400 with one of the API's codes and a message free of Go type
// names. (That what is accepted decodes as encoding/json would decode it is
// internal/jsonin's FuzzDecode.)
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
			err := decodeStrict(body, target())
			if err == nil {
				continue
			}
			if err.Code == "" || err.Message == "" || err.Status != 400 {
				t.Fatalf("refusal without code/message/status: %+v", err)
			}
			for _, bad := range []string{"edge.", "*", "reflect", "json:", "[]uint8", "goroutine"} {
				if strings.Contains(err.Message, bad) && !strings.Contains(string(body), bad) {
					t.Fatalf("message %q shows %q", err.Message, bad)
				}
			}
		}
	})
}
