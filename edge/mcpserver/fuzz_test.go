package mcpserver

import (
	"strings"
	"testing"

	"github.com/codemode-go/codemode/core"
)

// FuzzDecodeArgs: decoding exec's and wait's tools/call arguments never
// panics; it answers an input or a refusal naming the tool, never both,
// worded in JSON terms without Go type names (the HTTP API's
// FuzzDecodeRequest holds its bodies to the same).
func FuzzDecodeArgs(f *testing.F) {
	for _, s := range []string{
		`{"code":"return 1"}`, `{"code":"1","language":"typescript","restartSafe":true}`, `{"command":"x"}`, `{"runId":"cm_1"}`,
		``, `null`, `{}`, `[]`, `"x"`, `{"code":1}`, `{"Code":"x"}`, `{"code":"1","code":"2"}`, `{} x`, `{`, "{\"code\":\"\xff\"}",
		`{"restartSafe":tru}`, `{"scope":{}}`, `{"runId":[[[[[[[]]]]]]]}`,
	} {
		f.Add(s, true)
		f.Add(s, false)
	}
	f.Fuzz(func(t *testing.T, args string, exec bool) {
		tool := "wait"
		if exec {
			tool = "exec"
		}
		in, msg := decodeArgs(tool, []byte(args))
		if (in == nil) == (msg == "") {
			t.Fatalf("input %v and refusal %q", in, msg)
		}
		if msg == "" {
			switch in.(type) {
			case execIn:
				if !exec {
					t.Fatal("wait decoded to an exec input")
				}
			case core.WaitInput:
				if exec {
					t.Fatal("exec decoded to a wait input")
				}
			default:
				t.Fatalf("decoded to %T", in)
			}
			return
		}
		if !strings.HasPrefix(msg, tool+": ") {
			t.Fatalf("refusal %q does not name %s", msg, tool)
		}
		for _, bad := range []string{"edge.", "mcpserver", "*", "reflect", "json:", "[]uint8", "goroutine", "struct"} {
			if strings.Contains(msg, bad) && !strings.Contains(args, bad) {
				t.Fatalf("refusal %q shows %q", msg, bad)
			}
		}
	})
}
