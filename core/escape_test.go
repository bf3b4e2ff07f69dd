package core_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/codemode-go/codemode/core"
	"github.com/codemode-go/codemode/internal/config"
)

// The ways a guest outran or escaped the limits before (issue 8, section 1),
// each as the cell that did it and what must happen now.
func TestGuestCannotOutrunTheLimitsThroughTheRuntime(t *testing.T) {
	rt := newRuntime(t, func(c *config.Config) { c.TimeoutMs = 1000 })
	for _, tc := range []struct {
		name   string
		code   string
		status core.Status
		code_  core.ErrorCode
		want   string // in the error, or the completed value's JSON
		bound  time.Duration
	}{
		{"prepareStackTrace cannot loop inside error construction",
			`Error.prepareStackTrace = () => { for (;;) {} }; for (;;) new Error()`,
			core.StatusFailed, core.CodeTimeout, "timeoutMs", livenessBound},
		{"prepareStackTrace is locked, in strict code a TypeError",
			`"use strict"; try { Error.prepareStackTrace = () => 1; return "assigned"; } catch (e) { return e.name; }`,
			core.StatusCompleted, "", `"TypeError"`, livenessBound},
		{"no CallSite hands out the bridge functions",
			`const got = []; Error.prepareStackTrace = (e, cs) => { for (const c of cs) got.push(c.getFunction()); return ""; };
			 try { await tools.search("x"); } catch (e) {} new Error("a").stack; return got.length;`,
			core.StatusCompleted, "", `0`, livenessBound},
		{"one allowance for describing thousands of hostile rejections",
			`const e = {get name() { for (;;) {} }}; for (let i = 0; i < 2000; i++) Promise.reject(e); return 1`,
			core.StatusFailed, "", "unhandled promise rejection", 10 * time.Second},
		{"a hostile thrown value is described within the allowance",
			`throw {get message() { for (;;) {} }, get name() { for (;;) {} }}`,
			core.StatusFailed, "", "Error", livenessBound},
	} {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			r := execWithin(t, rt, context.Background(), tc.code, tc.bound)
			if r.Status != tc.status {
				t.Fatalf("status %s (%s), want %s", r.Status, r.Error, tc.status)
			}
			if tc.status == core.StatusCompleted {
				if string(r.Value) != tc.want {
					t.Fatalf("value %s, want %s", r.Value, tc.want)
				}
			} else {
				mustFail(t, r, tc.code_, tc.want)
			}
			if d := time.Since(start); d > tc.bound {
				t.Fatalf("took %v", d)
			}
		})
	}
}

func TestPathologicalSourceIsInvalidInputBeforeAnyParser(t *testing.T) {
	rt := newRuntime(t, nil)
	for _, tc := range []struct {
		name, lang, code, want string
	}{
		{"TypeScript arrows that crashed esbuild", "typescript", "const f = " + strings.Repeat("() => ", 100000) + "1; return 1", "at most 65536 bytes"},
		{"TypeScript nested braces under the size bound", "typescript", "return " + strings.Repeat("{", 40000), "brackets"},
		{"10 MB of JavaScript", "javascript", "return 1;" + strings.Repeat("x = 1;\n", 10<<20/7), "at most 262144 bytes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			done := make(chan core.Result, 1)
			go func() {
				done <- rt.Exec(context.Background(), core.CallInfo{Scope: testScope, CallID: "exec_1"}, core.ExecInput{Code: tc.code, Language: tc.lang})
			}()
			select {
			case r := <-done:
				mustFail(t, r, core.CodeInvalidInput, tc.want)
			case <-time.After(livenessBound):
				t.Fatal("refusal took too long")
			}
		})
	}
}

// TestGuestJSONIsParsedStrictlyOnTheHost: what the guest serializes is parsed
// and re-serialized on the host, so nothing a decoder could read two ways
// reaches the result line, even from a guest that forges bridge messages. A
// lone surrogate (a cut emoji) is the one thing mended rather than refused: it
// becomes U+FFFD, as in a well-formed string, everywhere a string leaves the cell.
func TestGuestJSONIsParsedStrictlyOnTheHost(t *testing.T) {
	rt := newRuntime(t, nil)
	for _, tc := range []struct {
		name, code string
		value      string // the completed value, as JSON text
		output     string // the output items, as JSON text ("" = none)
	}{
		{"the result", `return "a\ud800b"`, `"a\ufffdb"`, ""},
		{"a result key", `return {"\udc00k": ["\ud83d"]}`, `{"\ufffdk":["\ufffd"]}`, ""},
		{"text output", `text("a\ud800b"); return 1`, `1`, `[{"type":"text","text":"a\ufffdb"}]`},
		{"console.log", `console.log("x\udfff"); return 1`, `1`, `[{"type":"text","text":"x\ufffd"}]`},
		{"json output", `json({s: "\udc00"}); return 1`, `1`, `[{"type":"json","value":{"s":"\ufffd"}}]`},
		{"a tool input", `return (await tools.echo({message: "\ud800!"})).message`, `"\ufffd!"`, ""},
		{"a pair stays a pair", `return "\ud83d\ude00"`, `"😀"`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := exec(t, rt, tc.code)
			if jsonText(value(t, r)) != normalJSON(t, tc.value) {
				t.Fatalf("value %s, want %s", r.Value, tc.value)
			}
			out := ""
			if len(r.Output) > 0 {
				out = normalJSON(t, jsonText(r.Output))
			}
			if out != normalJSON(t, tc.output) {
				t.Fatalf("output %s, want %s", out, tc.output)
			}
		})
	}
}

// normalJSON is JSON text as jsonText writes it ("" stays "").
func normalJSON(t *testing.T, s string) string {
	if s == "" {
		return ""
	}
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatal(err)
	}
	return jsonText(v)
}

func TestTypeScriptNamespacesAreNotModuleAccess(t *testing.T) {
	rt := newRuntime(t, nil)
	r := rt.Exec(context.Background(), core.CallInfo{Scope: testScope, CallID: "exec_1"},
		core.ExecInput{Language: "typescript", Code: "namespace N { export const v: number = 1 }\nreturn N.v + 1"})
	if got := value(t, r); got != 2.0 {
		t.Fatalf("got %v", got)
	}
}
