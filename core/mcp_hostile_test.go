//go:build !js && !wasip1

package core_test

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/codemode-go/codemode/core"
	"github.com/codemode-go/codemode/core/mcp"
	"github.com/codemode-go/codemode/internal/config"
	"github.com/codemode-go/codemode/internal/mcptest/hostile"
)

// TestMain lets this test binary double as the hostile MCP server: the tests
// re-exec it with hostile.EnvServe=stdio, so the server is a real child process
// speaking MCP over real pipes through the official SDK.
func TestMain(m *testing.M) {
	hostile.Serve()
	os.Exit(m.Run())
}

// connectHostileStdio starts the hostile server as a child process.
func connectHostileStdio(t testing.TB, name string) *mcp.Server {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s, err := mcp.ConnectStdio(ctx, name, mcp.StdioCommand{Path: os.Args[0], Env: append(os.Environ(), hostile.EnvServe+"=stdio"), Stderr: testWriter{t}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// connectHostileHTTP serves the hostile server over Streamable HTTP on 127.0.0.1.
func connectHostileHTTP(t testing.TB, name string) *mcp.Server {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewUnstartedServer(hostile.Handler())
	srv.Listener = l
	srv.Start()
	t.Cleanup(srv.Close)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s, err := mcp.ConnectHTTP(ctx, name, srv.URL, &http.Client{Timeout: 60 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

type testWriter struct{ t testing.TB }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Logf("server stderr: %s", p)
	return len(p), nil
}

// goInternals are words that only a Go decoder or runtime would print.
var goInternals = []string{"Go struct", "Go value", "json: cannot", "unmarshal", "wireContent", "jsonrpc2", "mcp.res", "goroutine", ".go:", "*mcp.", "[]*"}

func noGoInternals(t *testing.T, what, s string) {
	t.Helper()
	for _, w := range goInternals {
		if strings.Contains(s, w) {
			t.Errorf("%s leaks Go internals (%q): %.300s", what, w, s)
		}
	}
}

// guestString runs code and returns its string value (a caught error's message
// is returned as "E:"+message by the cells below).
func guestString(t *testing.T, rt *core.Runtime, code string) string {
	t.Helper()
	// A loaded machine can push a 9 MiB answer past the deadline: the run then
	// suspends, and wait collects it.
	r := waitDone(t, rt, exec(t, rt, code), 6)
	s, ok := value(t, r).(string)
	if !ok {
		t.Fatalf("%s: value %s is not a string", code, r.Value)
	}
	return s
}

// TestHostileMCPServer connects the hostile server (internal/mcptest/hostile)
// over stdio and Streamable HTTP and asserts, through the guest, that its
// metadata is bounded and escaped and absent from the model-visible surface, that
// colliding names never shadow helpers or object members, and that oversized,
// deep and polluting results are refused or inert.
func TestHostileMCPServer(t *testing.T) {
	for _, tc := range []struct {
		name    string
		connect func(testing.TB, string) *mcp.Server
	}{{"stdio", connectHostileStdio}, {"streamableHTTP", connectHostileHTTP}} {
		t.Run(tc.name, func(t *testing.T) {
			srv := tc.connect(t, "hostile")
			dropped := map[string]string{}
			for _, d := range srv.Dropped() {
				dropped[d.Name] = d.Reason
				if len(d.Name) > 128 /* core/mcp maxNameBytes */ +len("…") {
					t.Errorf("dropped name not clipped: %d bytes", len(d.Name))
				}
			}
			for _, n := range []string{"has space", "ctl\x07char", "line\u2028sep", "schema_deep", "schema_wide"} {
				if dropped[n] == "" {
					t.Errorf("%q was not dropped (dropped: %v)", n, dropped)
				}
			}
			for _, tl := range srv.Tools() {
				if d := tl.Spec().Description; len(d) > 4<<10 /* core/mcp maxDescriptionBytes */ {
					t.Errorf("%s description is %d bytes", tl.Spec().Name, len(d))
				}
			}
			rt := newRuntimeWith(t, nil, func(o *core.Options) { o.MCPServers = []*mcp.Server{srv} })

			t.Run("NeverInTheModelVisibleSurface", func(t *testing.T) {
				sf, err := rt.Surface(context.Background(), testScope, false)
				if err != nil {
					t.Fatal(err)
				}
				b, _ := json.Marshal(sf)
				for _, w := range []string{"IGNORE ALL", "pwned", "huge_description", "AAAAAAAA"} {
					if strings.Contains(string(b), w) {
						t.Errorf("surface contains %q", w)
					}
				}
			})
			t.Run("CollidingNamesNeverShadow", func(t *testing.T) {
				v := obj(t, exec(t, rt, `const h = MCP.hostile;
return { then: typeof h.then, proto: Object.getPrototypeOf(h) === Object.prototype || Object.getPrototypeOf(h) === null,
  thenCall: (await h.then_({})).content[0].text, protoCall: (await h["__proto___"]({})).content[0].text,
  ctor: (await h.constructor_({})).content[0].text, search: (await h.search({})).content[0].text,
  toolsSearch: typeof tools.search, keys: Object.keys(h).length };`))
				want := map[string]any{"then": "undefined", "proto": true, "thenCall": "called then", "protoCall": "called __proto__", "ctor": "called constructor", "search": "called search", "toolsSearch": "function"}
				for k, w := range want {
					if v[k] != w {
						t.Errorf("%s = %v, want %v", k, v[k], w)
					}
				}
			})
			t.Run("DeclarationsEscapeInjection", func(t *testing.T) {
				dts := guestString(t, rt, `return await API.read("mcp/hostile.d.ts")`)
				// The renderer escapes "*/" inside comments, so the injection stays text.
				if strings.Contains(dts, "*/ } declare const pwned") || !strings.Contains(dts, "*\\/ } declare const pwned") {
					t.Errorf("injection is not escaped in hostile.d.ts")
				}
				if len(dts) > 64<<10 {
					t.Errorf("hostile.d.ts is %d bytes", len(dts))
				}
			})
			t.Run("OversizedResultRefusedNamingTheServer", func(t *testing.T) {
				for _, code := range []string{
					`try { await MCP.hostile.big_result({}); return "no error" } catch (e) { return "E:" + e.message }`,
					`try { await MCP.hostile.resources.read({ uri: "hostile://r" }); return "no error" } catch (e) { return "E:" + e.message }`,
				} {
					msg := guestString(t, rt, code)
					if !strings.HasPrefix(msg, "E:mcp: hostile") || !strings.Contains(msg, "limit 8388608") {
						t.Errorf("%s => %q, want a bound error naming the server", code, msg)
					}
				}
			})
			t.Run("UnansweredDeepResultSuspendsNotHangs", func(t *testing.T) {
				// The SDK never delivers a response nested 20,000 levels (on either
				// transport the call just stays unanswered), so the guarantee is the
				// run's own deadline: exec answers waiting on time, the run can be
				// aborted, and other cells keep running.
				rt := newRuntimeWith(t, func(c *config.Config) { c.TimeoutMs = 1000 }, func(o *core.Options) { o.MCPServers = []*mcp.Server{srv} })
				start := time.Now()
				r := exec(t, rt, `try { await MCP.hostile.deep_result({}); return "no error" } catch (e) { return "E:" + e.message }`)
				if d := time.Since(start); d > 5*time.Second {
					t.Errorf("exec took %v", d)
				}
				switch r.Status {
				case core.StatusWaiting:
					if !rt.Abort(testScope, r.RunID) {
						t.Errorf("waiting run %s could not be aborted", r.RunID)
					}
				case core.StatusCompleted:
					msg, _ := value(t, r).(string)
					if !strings.HasPrefix(msg, "E:mcp: hostile") {
						t.Errorf("deep result => %q, want an error naming the server", msg)
					}
					noGoInternals(t, "deep result", msg)
				default:
					t.Errorf("deep result: status %s code %s: %s", r.Status, r.Code, r.Error)
				}
			})
			t.Run("PollutingResultIsInert", func(t *testing.T) {
				v := obj(t, exec(t, rt, `const r = await MCP.hostile.pollute({});
return { own: Object.keys(r.structuredContent).sort().join(","), polluted: ({}).polluted === undefined, thenType: typeof r.then };`))
				if v["polluted"] != true || v["thenType"] != "undefined" {
					t.Errorf("pollute = %v", v)
				}
			})
			t.Run("ToolErrorIsAValueTheGuestInspects", func(t *testing.T) {
				v := obj(t, exec(t, rt, `return await MCP.hostile.tool_error({})`))
				if v["isError"] != true {
					t.Errorf("tool_error = %v", v)
				}
			})
			t.Run("RuntimeKeepsServing", func(t *testing.T) {
				if got := value(t, exec(t, rt, `return 6 * 7`)); got != float64(42) {
					t.Errorf("plain cell = %v", got)
				}
			})
		})
	}
}

// TestHostileMCPMalformedResponses sends broken JSON-RPC for a tools/call (the
// stdio proxy rewrites the response): each call fails with an error naming the
// server and tool, without the SDK's Go decoder text (regression: those errors
// quoted "Go struct field ... of type []*mcp.wireContent").
func TestHostileMCPMalformedResponses(t *testing.T) {
	for kind := range hostile.MalformedKinds {
		t.Run(kind, func(t *testing.T) {
			srv := connectHostileStdio(t, "hostile")
			rt := newRuntimeWith(t, nil, func(o *core.Options) { o.MCPServers = []*mcp.Server{srv} })
			msg := guestString(t, rt, `try { await MCP.hostile.malformed({ kind: "`+kind+`" }); return "no error" } catch (e) { return "E:" + e.message }`)
			if !strings.HasPrefix(msg, `E:mcp: hostile`) {
				t.Errorf("malformed %s => %q, want an error naming the server", kind, msg)
			}
			noGoInternals(t, kind, msg)
			// Relayed through the host API too (the HTTP /v1/tools/call path).
			_, terr := rt.CallTool(context.Background(), core.CallInfo{Scope: testScope, CallID: "relay"}, "mcp:hostile:malformed", json.RawMessage(`{"kind":"`+kind+`"}`))
			if terr == nil {
				t.Fatalf("relayed malformed %s succeeded", kind)
			}
			noGoInternals(t, "relayed "+kind, terr.Message)
			if got := value(t, exec(t, rt, `return 1 + 1`)); got != float64(2) {
				t.Errorf("next exec = %v", got)
			}
		})
	}
}

// TestHostileMCPServerDiesMidCall kills the stdio server inside a tools/call: the
// call fails naming the server, every later call reports it unavailable at once,
// and the runtime keeps serving other cells.
func TestHostileMCPServerDiesMidCall(t *testing.T) {
	srv := connectHostileStdio(t, "hostile")
	rt := newRuntimeWith(t, nil, func(o *core.Options) { o.MCPServers = []*mcp.Server{srv} })
	if got := guestString(t, rt, `return (await MCP.hostile.ok({})).content[0].text`); got != "ok" {
		t.Fatalf("ok before = %q", got)
	}
	msg := guestString(t, rt, `try { await MCP.hostile.die({}); return "no error" } catch (e) { return "E:" + e.message }`)
	if msg != `E:mcp: server "hostile" is unavailable: its connection closed; the host must reconnect it` {
		t.Errorf("die => %q", msg)
	}
	for i := 0; i < 3; i++ {
		start := time.Now()
		msg = guestString(t, rt, `try { await MCP.hostile.ok({}); return "no error" } catch (e) { return "E:" + e.message }`)
		if !strings.Contains(msg, `server "hostile" is unavailable`) {
			t.Errorf("call %d after death => %q, want the server reported unavailable", i, msg)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("call %d after death took %v", i, d)
		}
	}
	if got := value(t, exec(t, rt, `return [1, 2, 3].length`)); got != float64(3) {
		t.Errorf("runtime after death: %v", got)
	}
}
