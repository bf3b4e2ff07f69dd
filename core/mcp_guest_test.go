//go:build !js && !wasip1

package core_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/codemode-go/codemode/core"
	"github.com/codemode-go/codemode/core/mcp"
	"github.com/codemode-go/codemode/internal/catalog"
	"github.com/codemode-go/codemode/internal/config"
	"github.com/codemode-go/codemode/internal/relay"
)

// TestGuestMCP runs the guest-side MCP checks against the real server-everything
// over both transports. The HTTP server is connected as "everything-server", a
// name that is not a JavaScript identifier, so the guest reaches it through its
// safe spelling MCP.everythingServer.
func TestChecklist_MCPNamespace(t *testing.T) {
	for _, tc := range []struct {
		transport, name, safe string
		connect               func(testing.TB, string) *mcp.Server
	}{
		{"stdio", "everything", "everything", connectEverythingStdio},
		{"streamableHTTP", "everything-server", "everythingServer", connectEverythingHTTP},
	} {
		t.Run(tc.transport, func(t *testing.T) {
			srv := tc.connect(t, tc.name)
			tr := &core.Transcript{}
			rt := newRuntimeWith(t, nil, func(o *core.Options) {
				o.MCPServers = []*mcp.Server{srv}
				o.Transcript = tr
			})
			ns := "MCP." + tc.safe
			decl := "mcp/" + tc.safe + ".d.ts"

			t.Run("NamespaceCallsWorkWithObjectInput", func(t *testing.T) {
				v := obj(t, exec(t, rt, `return await `+ns+`.echo({ message: "hello from the guest" });`))
				if !strings.Contains(jsonText(v), "Echo: hello from the guest") {
					t.Errorf("echo = %s", jsonText(v))
				}
				// A non-identifier tool name gets a safe spelling too.
				v = obj(t, exec(t, rt, `return await `+ns+`.getSum({ a: 2, b: 40 });`))
				if !strings.Contains(jsonText(v), "42") {
					t.Errorf("getSum = %s", jsonText(v))
				}
			})

			t.Run("DirectMCPEntriesAbsentFromTools", func(t *testing.T) {
				r := exec(t, rt, `const hits = await tools.search("echo", { limit: 50 });
const all = await tools.search("", { limit: 50 });
let viaTools = "", describe = "";
try { await tools.callValue("mcp:`+tc.name+`:echo", { message: "x" }); } catch (e) { viaTools = e.message; }
try { await tools.describe("mcp:`+tc.name+`:echo"); } catch (e) { describe = e.message; }
return { all: ALL_TOOLS.filter((e) => e.source === "mcp" || e.id.startsWith("mcp:")).length,
  hits: hits.concat(all).filter((e) => e.source === "mcp").length, echoShort: "get_sum" in tools ? typeof tools.get_sum : "undefined", viaTools, describe };`)
				v := obj(t, r)
				if v["all"] != float64(0) || v["hits"] != float64(0) || v["echoShort"] != "undefined" {
					t.Errorf("MCP entries leak into tools.*: %v", v)
				}
				for _, k := range []string{"viaTools", "describe"} {
					if msg := v[k].(string); !strings.Contains(msg, "is an MCP tool") || !strings.Contains(msg, "MCP.<server>.<tool>") {
						t.Errorf("%s error = %q, want the MCP hint", k, msg)
					}
				}
				if r.Telemetry.CatalogBySource.MCP < 5 {
					t.Errorf("telemetry MCP count = %d, want the server's tools", r.Telemetry.CatalogBySource.MCP)
				}
			})

			t.Run("APIListAndReadProvideDeclarationsWithoutBridgeCall", func(t *testing.T) {
				before := len(tr.Entries())
				r := execAs(rt, "exec_api", core.ExecInput{Code: `const files = await API.list("mcp");
const dts = await API.read("` + decl + `");
const index = await API.read("mcp/index.d.ts");
return { files: files.map((f) => f.path), dts, index };`})
				v := obj(t, r)
				files := v["files"].([]any)
				if !slices.Contains(files, any("mcp/index.d.ts")) || !slices.Contains(files, any(decl)) || slices.Contains(files, any("tools/index.d.ts")) {
					t.Errorf(`API.list("mcp") = %v`, files)
				}
				dts := v["dts"].(string)
				for _, w := range []string{"declare namespace " + ns, "function echo(", "message", "function $api("} {
					if !strings.Contains(dts, w) {
						t.Errorf("%s lacks %q:\n%s", decl, w, dts)
					}
				}
				if !strings.Contains(v["index"].(string), tc.safe) {
					t.Errorf("mcp/index.d.ts does not mention %s:\n%s", tc.safe, v["index"])
				}
				if r.Telemetry.CallCount != 0 {
					t.Errorf("reading declarations made %d tool calls", r.Telemetry.CallCount)
				}
				entries := tr.Entries()[before:]
				if len(entries) != 1 || entries[0].CallID != "exec_api" || len(entries[0].Nested) != 0 {
					t.Errorf("transcript after API.read = %s, want one exec without nested calls", jsonText(entries))
				}
			})

			t.Run("BadPathsRejected", func(t *testing.T) {
				for _, c := range []struct{ call, want string }{
					{`API.read("mcp/../tools/index.d.ts")`, "TypeError: API.read: invalid path"},
					{`API.read("../etc/passwd")`, "TypeError: API.read: invalid path"},
					{`API.read("mcp/./index.d.ts")`, "TypeError: API.read: invalid path"},
					{`API.read("/mcp/index.d.ts")`, "TypeError: API.read: invalid path"},
					{`API.read("mcp//index.d.ts")`, "TypeError: API.read: invalid path"},
					{`API.read("mcp\\index.d.ts")`, "TypeError: API.read: invalid path"},
					{`API.read("")`, "TypeError: API.read: invalid path"},
					{`API.read("mcp/nope.d.ts")`, "Error: API.read: no such file"},
					{`API.read("mcp")`, "Error: API.read: no such file"},
					{`API.list("mcp/..")`, "TypeError: API.list: invalid path prefix"},
					{`API.list("../")`, "TypeError: API.list: invalid path prefix"},
					{`API.list("/")`, "TypeError: API.list: invalid path prefix"},
					{`API.list("./mcp")`, "TypeError: API.list: invalid path prefix"},
				} {
					v := exec(t, rt, `try { await `+c.call+`; return "no error"; } catch (e) { return e.name + ": " + e.message; }`)
					if got, _ := value(t, v).(string); !strings.HasPrefix(got, c.want) {
						t.Errorf("%s = %q, want %q", c.call, got, c.want)
					}
				}
				// Valid prefixes, with or without a trailing slash; unknown ones list nothing.
				v := obj(t, exec(t, rt, `const n = async (p) => (await API.list(p)).length;
return { mcp: await n("mcp"), slash: await n("mcp/"), tools: await n("tools"), none: await n("nope"), all: await n() };`))
				if v["mcp"] != float64(2) || v["slash"] != float64(2) || v["tools"] != float64(1) || v["none"] != float64(0) || v["all"] != float64(3) {
					t.Errorf("API.list counts = %v", v)
				}
			})

			t.Run("ApiRemainsInlineSchemaFallback", func(t *testing.T) {
				v := obj(t, exec(t, rt, `const all = await `+ns+`.$api();
const one = await `+ns+`.$api("echo", { schema: true });
const plain = await `+ns+`.$api("echo");
let bad = ""; try { await `+ns+`.$api("no_such_tool"); } catch (e) { bad = e.message; }
return { all, one, plainSchema: plain.schema === undefined, bad };`))
				all := v["all"].(map[string]any)
				if all["server"] != tc.name || all["namespace"] != ns || !strings.Contains(all["declaration"].(string), "function echo(") {
					t.Errorf("$api() = %v", all)
				}
				one := v["one"].(map[string]any)
				schema, _ := one["schema"].(map[string]any)
				if one["tool"] != "echo" || !strings.Contains(one["declaration"].(string), "function echo(") || schema == nil || schema["properties"].(map[string]any)["message"] == nil {
					t.Errorf(`$api("echo", {schema: true}) = %v`, one)
				}
				if v["plainSchema"] != true || !strings.Contains(v["bad"].(string), "no tool") {
					t.Errorf("$api without schema / unknown tool = %v", v)
				}
			})

			t.Run("ResourcesAndPrompts", func(t *testing.T) {
				res := srv.Resources()
				if len(res) == 0 {
					t.Fatal("server lists no resources")
				}
				uri := res[0].URI
				var promptNames []string
				for _, p := range srv.Prompts() {
					promptNames = append(promptNames, p.Name)
				}
				if !slices.Contains(promptNames, "args-prompt") {
					t.Fatalf("prompts = %v, want args-prompt", promptNames)
				}
				v := obj(t, exec(t, rt, `const r = await `+ns+`.resources.read({ uri: `+jsonText(uri)+` });
const p = await `+ns+`.prompts.get({ name: "args-prompt", arguments: { city: "Berlin" } });
let badPrompt = ""; try { await `+ns+`.prompts.get({ name: "no-such-prompt" }); } catch (e) { badPrompt = e.message; }
return { uri: r.contents[0].uri, n: r.contents.length, p, badPrompt };`))
				if v["uri"] != uri || v["n"] != float64(1) {
					t.Errorf("resources.read(%s) = %v", uri, v)
				}
				if !strings.Contains(jsonText(v["p"]), "weather in Berlin") {
					t.Errorf("prompts.get = %s", jsonText(v["p"]))
				}
				if !strings.Contains(v["badPrompt"].(string), "no-such-prompt") {
					t.Errorf("unknown prompt error = %q", v["badPrompt"])
				}
			})

			t.Run("NestedCallsInTranscript", func(t *testing.T) {
				before := len(tr.Entries())
				r := execAs(rt, "exec_mcp", core.ExecInput{Code: `await ` + ns + `.echo({ message: "a" }); await ` + ns + `.getSum({ a: 1, b: 1 }); return 1;`})
				value(t, r)
				if r.Telemetry.CallCount != 2 {
					t.Errorf("callCount = %d, want 2", r.Telemetry.CallCount)
				}
				entries := tr.Entries()[before:]
				if len(entries) != 1 || len(entries[0].Nested) != 2 {
					t.Fatalf("transcript = %s", jsonText(entries))
				}
				for _, n := range entries[0].Nested {
					if n.ParentCallID != "exec_mcp" || n.Via != "mcp" || !strings.HasPrefix(n.ToolID, "mcp:"+tc.name+":") {
						t.Errorf("nested = %+v", n)
					}
				}
			})
		})
	}
}

// TestGuestMCP_PendingCallSuspendsAndResumes: a real MCP call still running at the
// exec deadline (server-everything's trigger-long-running-operation) makes exec
// return waiting; wait restores the VM and delivers the server's result.
func TestGuestMCP_PendingCallSuspendsAndResumes(t *testing.T) {
	srv := connectEverythingStdio(t, "everything")
	tr := &core.Transcript{}
	rt := newRuntimeWith(t, func(c *config.Config) { c.TimeoutMs = 300 }, func(o *core.Options) {
		o.MCPServers = []*mcp.Server{srv}
		o.Transcript = tr
	})
	r := exec(t, rt, `text("started");
const res = await MCP.everything.triggerLongRunningOperation({ duration: 1.5, steps: 1 });
text("resumed");
return res.content[0].text;`)
	if r.Status != core.StatusWaiting || r.Reason != "pending_tools" || len(r.PendingToolCalls) != 1 ||
		r.PendingToolCalls[0].ToolID != "mcp:everything:trigger-long-running-operation" || r.PendingToolCalls[0].Kind != "mcp.call" {
		t.Fatalf("exec = %s, want waiting on the MCP call", jsonText(r))
	}
	if len(r.Output) != 1 || r.Output[0].Text != "started" {
		t.Errorf("exec output = %+v", r.Output)
	}
	r = waitDone(t, rt, r, 40)
	got, _ := value(t, r).(string)
	if !strings.Contains(got, "Long running operation completed") {
		t.Errorf("value = %q", got)
	}
	if len(r.Output) != 1 || r.Output[0].Text != "resumed" {
		t.Errorf("output after wait = %+v, want [resumed]", r.Output)
	}
	if rt.Suspended() != 0 {
		t.Errorf("%d runs still suspended", rt.Suspended())
	}
	entries := tr.Entries()
	if len(entries) < 2 || len(entries[0].Nested) != 1 || entries[0].Nested[0].ParentCallID != "exec_1" {
		t.Errorf("the MCP call is not filed under its exec: %s", jsonText(entries))
	}
}

// TestMCPServerHiddenByPolicyIsInvisible: when policy denies every tool of a
// server, the run shows no MCP.<server>, no declaration file, and no way to
// reach its resources or prompts.
func TestMCPServerHiddenByPolicyIsInvisible(t *testing.T) {
	srv := connectEverythingStdio(t, "everything")
	rt := newRuntimeWith(t, nil, func(o *core.Options) {
		o.MCPServers = []*mcp.Server{srv}
		o.Policy = catalog.Policy{Deny: []string{"mcp:everything:*"}}
	})
	got := value(t, exec(t, rt, `return [Object.keys(MCP), (await API.list("mcp")).map((f) => f.path), "everything" in MCP ? typeof MCP.everything : "undefined"]`))
	if s := jsonText(got); s != `[[],["mcp/index.d.ts"],"undefined"]` {
		t.Fatalf("hidden server visible: %s", s)
	}
	if tel := exec(t, rt, `return 1`).Telemetry; tel.CatalogBySource.MCP != 0 {
		t.Fatalf("telemetry counts hidden MCP tools: %+v", tel)
	}
}

// TestRestartSafeTrustsTheHostNotTheServer: server-everything marks echo
// readOnlyHint: true, but that is the server's own claim, so a restartSafe run
// refuses it (naming the tool and why) until the host vouches for it.
func TestRestartSafeTrustsTheHostNotTheServer(t *testing.T) {
	srv := connectEverythingStdio(t, "everything")
	if !slices.Contains(srv.ReadOnlyHints(), "echo") {
		t.Fatalf("server-everything no longer hints echo as read-only: %v", srv.ReadOnlyHints())
	}
	rt := newRuntimeWith(t, nil, func(o *core.Options) { o.MCPServers = []*mcp.Server{srv} })
	cell := core.ExecInput{RestartSafe: true, Code: `try { await MCP.everything.echo({message: "x"}); return "ran"; } catch (e) { return e.message; }`}
	msg, _ := value(t, execAs(rt, "exec_rs", cell)).(string)
	if !strings.Contains(msg, `"mcp:everything:echo"`) || !strings.Contains(msg, "readOnlyHint is not trusted") {
		t.Fatalf("restartSafe run with the server's own hint: %q", msg)
	}
	if err := srv.TrustReadOnly("echo"); err != nil {
		t.Fatal(err)
	}
	r := waitDone(t, rt, execAs(rt, "exec_rs2", cell), 40)
	if msg, _ := value(t, r).(string); msg != "ran" {
		t.Fatalf("restartSafe run after TrustReadOnly(echo): %q", msg)
	}
}

// TestMCPServersPerScope: Options.MCP resolves servers per run, so one
// agent's server is in its catalog, MCP namespace, declaration files and relay
// answers, and nowhere in another agent's; a second server of a name the run
// already has is left out rather than merged.
func TestMCPServersPerScope(t *testing.T) {
	srv := connectEverythingStdio(t, "everything")
	dup := connectEverythingStdio(t, "everything")
	rt := newRuntimeWith(t, nil, func(o *core.Options) {
		o.MCP = func(_ context.Context, s core.Scope) ([]*mcp.Server, error) {
			if s.AgentID == "owner" {
				return []*mcp.Server{srv, nil}, nil
			}
			if s.AgentID == "twice" {
				return []*mcp.Server{srv, dup}, nil
			}
			return nil, nil
		}
	})
	cell := core.ExecInput{Code: `return [Object.keys(MCP), (await API.list("mcp")).map((f) => f.path)]`}
	for _, tc := range []struct {
		agent, want string
		mcp         int
	}{
		{"owner", `[["everything"],["mcp/everything.d.ts","mcp/index.d.ts"]]`, 1},
		{"twice", `[["everything"],["mcp/everything.d.ts","mcp/index.d.ts"]]`, 1},
		{"other", `[[],["mcp/index.d.ts"]]`, 0},
	} {
		scope := core.Scope{AgentID: tc.agent, SessionID: "s"}
		r := rt.Exec(context.Background(), core.CallInfo{Scope: scope}, cell)
		if got := jsonText(value(t, r)); got != tc.want {
			t.Errorf("%s sees %s, want %s", tc.agent, got, tc.want)
		}
		cat, err := rt.Catalog(context.Background(), scope)
		if err != nil || len(cat.MCPServers) != tc.mcp {
			t.Errorf("%s: relay catalog has %d MCP servers (%v), want %d", tc.agent, len(cat.MCPServers), err, tc.mcp)
		}
		_, terr := rt.ReadMCP(context.Background(), core.CallInfo{Scope: scope}, relay.MCPRead{Server: "everything", Prompt: "simple-prompt"})
		if (terr == nil) != (tc.mcp == 1) {
			t.Errorf("%s: reading the server's prompt: %v", tc.agent, terr)
		}
		_, terr = rt.CallTool(context.Background(), core.CallInfo{Scope: scope}, "mcp:everything:echo", []byte(`{"message":"x"}`))
		if (terr == nil) != (tc.mcp == 1) {
			t.Errorf("%s: relaying the server's tool: %v", tc.agent, terr)
		}
	}
}
