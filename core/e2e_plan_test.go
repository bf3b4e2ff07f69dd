//go:build !js && !wasip1

package core_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/codemode-go/codemode/core"
	"github.com/codemode-go/codemode/core/mcp"
	"github.com/codemode-go/codemode/internal/catalog"
	"github.com/codemode-go/codemode/internal/config"
	"github.com/codemode-go/codemode/internal/hostopts"
	"github.com/codemode-go/codemode/internal/surface"
	"github.com/codemode-go/codemode/internal/toolset"
)

// TestE2EPlan walks the spec's end-to-end test plan (steps 1-16) in one
// scenario: OpenClaw core, plugin, MCP (the real server-everything) and client
// tools, a denied tool, a direct-only tool, a nested call that outlives exec,
// and the clean-up of timed-out, aborted and expired runs.
func TestE2EPlan(t *testing.T) {
	ctx := context.Background()
	base, err := toolset.Tools()
	if err != nil {
		t.Fatal(err)
	}
	release := make(chan struct{})
	clientTool := coreTool("select_file", func(ctx context.Context, call catalog.Call) (catalog.Result, error) {
		select { // the person picks a file after exec has already returned
		case <-release:
		case <-ctx.Done():
			return catalog.Result{}, ctx.Err()
		}
		return catalog.Result{Details: json.RawMessage(`{"name":"report.csv","size":1234}`)}, nil
	}, func(s *catalog.Spec) { s.Source, s.Owner, s.Origin = catalog.SourceClient, "app", catalog.OriginClient })
	secret := coreTool("secret_admin", func(context.Context, catalog.Call) (catalog.Result, error) {
		t.Error("a denied tool ran")
		return catalog.Result{}, nil
	}, nil)
	tools := append(base, clientTool, secret)
	srv := connectEverythingStdio(t, "everything")
	policy := catalog.Policy{Deny: []string{"secret_admin"}}

	// Steps 1-3: disabled, the model-visible tools are untouched.
	off := config.Default()
	s, err := surface.Apply(append(tools, srv.Tools()...), surface.Options{Config: off, Build: catalog.BuildOptions{Policy: policy}})
	if err != nil || s.Active || len(s.Tools) < len(tools) {
		t.Fatalf("disabled surface: active %v, %d tools, %v", s.Active, len(s.Tools), err)
	}

	// Steps 4-6: enabled, the model sees exec, wait and the direct-only tools.
	on := config.Default()
	on.Enabled, on.TimeoutMs, on.SnapshotTtlSeconds = true, 1500, 60
	now := time.Now()
	var tr core.Transcript
	rt := newRuntimeOver(t, tools, func(c *config.Config) { *c = on }, func(o *core.Options) {
		o.MCPServers = []*mcp.Server{srv}
		o.Policy = policy
		o.Transcript = &tr
		hostopts.Of(o).Now = func() time.Time { return now }
	})
	s, err = rt.Surface(ctx, testScope, false)
	if err != nil || !slices.Equal(s.Names(), []string{"exec", "wait", "screenshot"}) {
		t.Fatalf("enabled surface: %v, %v", s.Names(), err)
	}
	if err := surface.CheckPayload(s.Names(), s); err != nil {
		t.Fatal(err)
	}

	// Step 7: ALL_TOOLS holds the catalogued tools, not the direct-only one.
	ids := value(t, execAs(rt, "e7", core.ExecInput{Code: `return ALL_TOOLS.map((e) => e.id)`}))
	got := jsonText(ids)
	for _, want := range []string{"openclaw:core:echo", "openclaw:shipping:shipping_list", "openclaw:github:github_list_issues", "client:app:select_file"} {
		if !strings.Contains(got, want) {
			t.Fatalf("ALL_TOOLS lacks %s: %s", want, got)
		}
	}
	for _, absent := range []string{"screenshot", "secret_admin", "mcp:"} {
		if strings.Contains(got, absent) {
			t.Fatalf("ALL_TOOLS shows %s: %s", absent, got)
		}
	}

	// Step 8: search, describe, callValue and call for OpenClaw/plugin tools.
	v := value(t, execAs(rt, "e8", core.ExecInput{Code: `
	  const [ship] = await tools.search("list shipments", {limit: 1});
	  const d = await tools.describe(ship.id);
	  const rows = await tools.callValue(ship.id, {});
	  const env = await tools.call("openclaw:core:echo", {message: "hi"});
	  return [ship.id, typeof d.parameters, rows.length, env.tool, env.result.details.message];`}))
	if jsonText(v) != `["openclaw:shipping:shipping_list","object",6,"openclaw:core:echo","hi"]` {
		t.Fatalf("step 8: %s", jsonText(v))
	}

	// Steps 9-10: MCP declarations through API, calls through MCP.<server>.
	v = value(t, execAs(rt, "e9", core.ExecInput{Code: `
	  const files = (await API.list("mcp")).map((f) => f.path);
	  const dts = await API.read("mcp/everything.d.ts");
	  const echoed = await MCP.everything.echo({message: "via mcp"});
	  const inTools = (await tools.search("echo")).some((e) => e.source === "mcp");
	  return [files, dts.includes("function echo("), JSON.stringify(echoed).includes("via mcp"), inTools];`}))
	if jsonText(v) != `[["mcp/everything.d.ts","mcp/index.d.ts"],true,true,false]` {
		t.Fatalf("steps 9-10: %s", jsonText(v))
	}

	// Step 11: a denied tool is absent and cannot be called by a guessed id.
	v = value(t, execAs(rt, "e11", core.ExecInput{Code: `
	  try { await tools.callValue("openclaw:core:secret_admin", {}); return "ran"; } catch (e) { return e.message; }`}))
	if s, _ := v.(string); s == "ran" || !strings.Contains(s, "secret_admin") {
		t.Fatalf("step 11: %v", v)
	}

	// Steps 12-14: a nested call resolves after exec returned waiting; wait
	// restores the VM, delivers the result, and output made after the restore
	// reaches the caller.
	r := execAs(rt, "e12", core.ExecInput{Code: `
	  text("asking the person for a file");
	  const file = await tools.callValue("client:app:select_file", {});
	  text("got " + file.name);
	  return file.size;`})
	if r.Status != core.StatusWaiting || r.PendingToolCalls[0].ToolID != "client:app:select_file" {
		t.Fatalf("step 12: %+v", r)
	}
	close(release)
	final := waitDone(t, rt, r, 10)
	if value(t, final) != 1234.0 || final.Output[len(final.Output)-1].Text != "got report.csv" {
		t.Fatalf("steps 13-14: %+v", final)
	}

	// Step 15: timeout, abort and expiry leave no runtime state behind.
	mustFail(t, execAs(rt, "e15a", core.ExecInput{Code: `while (true) {}`}), core.CodeTimeout, "")
	aborted := execAs(rt, "e15b", core.ExecInput{Code: `await yield_control(); return 1`})
	if !rt.Abort(testScope, aborted.RunID) {
		t.Fatal("step 15: nothing to abort")
	}
	expiring := execAs(rt, "e15c", core.ExecInput{Code: `await yield_control(); return 1`})
	now = now.Add(2 * time.Minute)
	if n, b := core.SnapshotStats(rt); n != 0 || b != 0 {
		t.Fatalf("step 15: state left: %d runs, %d bytes", n, b)
	}
	mustFail(t, rt.Wait(ctx, core.CallInfo{Scope: testScope}, core.WaitInput{RunID: expiring.RunID}), core.CodeInvalidInput, "unavailable or expired")

	// Step 16: the exported trajectory shows nested calls under their exec.
	b, _ := json.Marshal(&tr)
	var export struct {
		Entries []core.TranscriptEntry `json:"entries"`
	}
	json.Unmarshal(b, &export)
	var e12 *core.TranscriptEntry
	for i := range export.Entries {
		if export.Entries[i].CallID == "e12" {
			e12 = &export.Entries[i]
		}
	}
	if e12 == nil || e12.Tool != "exec" || len(e12.Nested) != 1 || e12.Nested[0].ToolID != "client:app:select_file" || e12.Nested[0].ParentCallID != "e12" {
		t.Fatalf("step 16: %+v", e12)
	}
}
