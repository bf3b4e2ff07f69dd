package ops_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	json "github.com/codemode-go/codemode/internal/jsonx"
	"github.com/codemode-go/codemode/internal/ops"
)

// FuzzDispatch: every operation of the table, fed any message, never panics,
// answers valid JSON, and a refusal is a 4xx {error: {code, message}} whose
// message shows no Go type name, path or stack (unless the message itself
// carried the text).
func FuzzDispatch(f *testing.F) {
	for _, s := range []string{
		`{"code":"return 1","scope":{"agentId":"a"}}`, `{"runId":"x","scope":{}}`, `{"id":"t","input":{"a":[1,{"b":null}]},"scope":{},"callId":"c"}`,
		`{"code":1}`, `{"Code":"x"}`, `{"code":"1","code":"2"}`, `{} x`, `{`, `[]`, `null`, `{"scope":null}`, "{\"code\":\"\xff\"}",
		`{"restartSafe":tru}`, `{"input":[[[[[[[[]]]]]]]]}`, `  {"format":"openai","scope":{"sessionKey":"k"}}  `,
		`{"server":"s","name":"p","arguments":{"a":"b","a":"c"},"scope":{}}`, `{"server":"s","uri":"u","arguments":{"a":[1]}}`,
		`{"runId":"cm_1","scope":{"agentId":"broken"}}`, `{"format":"xml","scope":{}}`,
	} {
		f.Add([]byte(s))
	}
	rt := &controlled{}
	f.Fuzz(func(t *testing.T, msg []byte) {
		for name := range ops.Table() {
			status, out := ops.Dispatch(context.Background(), rt, name, ops.Call{}, msg)
			if !json.Valid(out) {
				t.Fatalf("%s answered no JSON: %q", name, out)
			}
			if status == http.StatusOK {
				continue
			}
			var e struct {
				Error struct{ Code, Message string }
			}
			if err := json.Unmarshal(out, &e); err != nil || e.Error.Code == "" || e.Error.Message == "" || status < 400 {
				t.Fatalf("%s: refusal %d without code/message: %s", name, status, out)
			}
			for _, bad := range []string{"ops.", "core.", "*", "reflect", "json:", "[]uint8", "goroutine", "/secret", ".go:"} {
				if strings.Contains(e.Error.Message, bad) && !strings.Contains(string(msg), bad) {
					t.Fatalf("%s: message %q shows %q", name, e.Error.Message, bad)
				}
			}
		}
	})
}
