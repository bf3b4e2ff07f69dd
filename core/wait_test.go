package core_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/codemode-go/codemode/core"
	"github.com/codemode-go/codemode/internal/catalog"
	"github.com/codemode-go/codemode/internal/config"
	"github.com/codemode-go/codemode/internal/hostopts"
)

// fast makes exec/wait give up quickly on slow tools.
func fast(c *config.Config) { c.TimeoutMs = 150 }

// waitUntilDone calls wait until the run leaves `waiting`.
func waitUntilDone(t *testing.T, rt *core.Runtime, r core.Result) core.Result {
	t.Helper()
	if r = waitDone(t, rt, r, 50); r.Status == core.StatusWaiting {
		t.Fatal("run never finished")
	}
	return r
}

func TestChecklist_WaitResumesSuspendedSnapshotAndReturnsFinalValue(t *testing.T) {
	rt := newRuntime(t, fast)
	r := exec(t, rt, `text("before"); const s = await tools.callValue("openclaw:core:sleep_ms", {ms: 400}); text("after " + s.slept); return {slept: s.slept};`)
	if r.Status != core.StatusWaiting || r.Reason != "pending_tools" || r.RunID == "" {
		t.Fatalf("exec: %+v", r)
	}
	if len(r.PendingToolCalls) != 1 || r.PendingToolCalls[0].ToolID != "openclaw:core:sleep_ms" {
		t.Fatalf("pending: %+v", r.PendingToolCalls)
	}
	if len(r.Output) != 1 || r.Output[0].Text != "before" {
		t.Fatalf("exec output: %+v", r.Output)
	}
	if st := core.StatsOf(rt); st.Suspended != 1 || st.SnapshotBytes == 0 {
		t.Fatalf("stats while suspended: %+v", st)
	}
	final := waitUntilDone(t, rt, r)
	if jsonText(value(t, final)) != `{"slept":400}` {
		t.Fatalf("final: %s", final.Value)
	}
	// E2E plan step 14: output produced after the restore reaches the caller.
	if n := len(final.Output); n == 0 || final.Output[n-1].Text != "after 400" {
		t.Fatalf("final output: %+v", final.Output)
	}
	// The entry is freed as soon as the run completes.
	if st := core.StatsOf(rt); st.Suspended != 0 || st.SnapshotBytes != 0 {
		t.Fatalf("stats after completion: %+v", st)
	}
	mustFail(t, wait(t, rt, r.RunID), core.CodeInvalidInput, "code mode run is unavailable or expired.")
}

func TestToolCallsSettlingBeforeTheDeadlineArePumpedInOneExec(t *testing.T) {
	rt := newRuntime(t, nil)
	got := value(t, exec(t, rt, `
	  const a = await tools.callValue("openclaw:core:sleep_ms", {ms: 10});
	  const [b, c] = await Promise.all([tools.callValue("openclaw:core:sleep_ms", {ms: 20}), tools.echo({message: "hi"})]);
	  return [a.slept, b.slept, c.message];`))
	if jsonText(got) != `[10,20,"hi"]` {
		t.Fatalf("got %s", jsonText(got))
	}
}

func TestYieldControlSuspendsAndWaitContinues(t *testing.T) {
	rt := newRuntime(t, nil)
	r := exec(t, rt, `text("step 1"); await yield_control("checkpoint"); text("step 2"); return "done";`)
	if r.Status != core.StatusWaiting || r.Reason != "yield" {
		t.Fatalf("exec: %+v", r)
	}
	final := wait(t, rt, r.RunID)
	if value(t, final) != "done" || final.Output[0].Text != "step 2" {
		t.Fatalf("wait: %+v", final)
	}
}

func TestPendingPromiseSurvivesManyWaits(t *testing.T) {
	rt := newRuntime(t, fast)
	r := exec(t, rt, `let n = 0; for (let i = 0; i < 3; i++) { await yield_control(); n += (await tools.callValue("openclaw:core:sleep_ms", {ms: 200})).slept; } return n;`)
	if got := value(t, waitUntilDone(t, rt, r)); got != 600.0 {
		t.Fatalf("got %v", got)
	}
}

func TestChecklist_ExpiredAbortedWrongSessionAndUnknownRunIDsFail(t *testing.T) {
	now := time.Now()
	var mu sync.Mutex
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	cfg := config.Default()
	cfg.Enabled, cfg.TimeoutMs, cfg.SnapshotTtlSeconds = true, 100, 60
	tools := []catalog.Tool{}
	opts := core.Options{Config: cfg,
		Tools: func(context.Context, core.Scope) ([]catalog.Tool, error) { return tools, nil }}
	hostopts.Of(&opts).Now = clock
	rt, err := core.New(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close(context.Background())
	suspend := func() string {
		r := exec(t, rt, `await yield_control(); return 1`)
		if r.Status != core.StatusWaiting {
			t.Fatalf("exec: %+v", r)
		}
		return r.RunID
	}
	t.Run("unknown", func(t *testing.T) {
		mustFail(t, wait(t, rt, "cm_nope"), core.CodeInvalidInput, "code mode run is unavailable or expired.")
		mustFail(t, rt.Wait(context.Background(), core.CallInfo{Scope: testScope}, core.WaitInput{}), core.CodeInvalidInput, "runId")
	})
	t.Run("wrong session", func(t *testing.T) {
		id := suspend()
		for _, other := range []core.Scope{
			{AgentID: "agent-1", SessionID: "s-2", SessionKey: "key-1", AgentRunID: "run-1"},
			{AgentID: "agent-2", SessionID: "s-1", SessionKey: "key-1", AgentRunID: "run-1"},
			{AgentID: "agent-1", SessionID: "s-1", SessionKey: "key-1", AgentRunID: "run-2"},
		} {
			r := rt.Wait(context.Background(), core.CallInfo{Scope: other}, core.WaitInput{RunID: id})
			mustFail(t, r, core.CodeInvalidInput, "code mode run belongs to a different session.")
		}
		value(t, wait(t, rt, id)) // the owner still can
	})
	t.Run("expired", func(t *testing.T) {
		id := suspend()
		mu.Lock()
		now = now.Add(61 * time.Second)
		mu.Unlock()
		mustFail(t, wait(t, rt, id), core.CodeInvalidInput, "code mode run is unavailable or expired.")
		if core.StatsOf(rt).Suspended != 0 {
			t.Fatal("expired run still stored")
		}
	})
	t.Run("aborted", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(30*time.Millisecond, cancel)
		r := rt.Exec(ctx, core.CallInfo{Scope: testScope}, core.ExecInput{Code: `while (true) {}`})
		mustFail(t, r, "", "aborted")
		if r.RunID != "" || core.StatsOf(rt).Suspended != 0 {
			t.Fatalf("aborted run kept: %+v", r)
		}
	})
}

func TestConcurrentWaitForTheSameRunIsRefused(t *testing.T) {
	release := make(chan struct{})
	held := coreTool("held", func(ctx context.Context, _ catalog.Call) (catalog.Result, error) {
		select {
		case <-release:
			return catalog.Result{Details: []byte(`"released"`)}, nil
		case <-ctx.Done():
			return catalog.Result{}, ctx.Err()
		}
	}, nil)
	rt := newRuntime(t, func(c *config.Config) { c.TimeoutMs = 1000 }, held)
	r := exec(t, rt, `return await tools.callValue("openclaw:core:held", {})`)
	if r.Status != core.StatusWaiting {
		t.Fatalf("exec: %+v", r)
	}
	done := make(chan core.Result)
	go func() { done <- wait(t, rt, r.RunID) }()
	// The first wait pumps for up to a second while the tool is held; a second
	// wait in that window is refused.
	time.Sleep(200 * time.Millisecond)
	mustFail(t, wait(t, rt, r.RunID), core.CodeInvalidInput, "code mode run is already being resumed.")
	close(release)
	if first := <-done; value(t, waitUntilDone(t, rt, first)) != "released" {
		t.Fatalf("first wait: %+v", first)
	}
}

func TestAtMost64SuspendedRuns(t *testing.T) {
	rt := newRuntime(t, nil)
	var ids []string
	for i := 0; i < 64; i++ {
		r := exec(t, rt, `await yield_control(); return 7`)
		if r.Status != core.StatusWaiting {
			t.Fatalf("run %d: %+v", i, r)
		}
		ids = append(ids, r.RunID)
	}
	mustFail(t, exec(t, rt, `await yield_control(); return 7`), core.CodeInvalidInput, "too many suspended code mode runs.")
	// Nothing already suspended was lost or evicted.
	if core.StatsOf(rt).Suspended != 64 {
		t.Fatalf("suspended = %d", core.StatsOf(rt).Suspended)
	}
	// A run that does not suspend still works while the store is full.
	if value(t, exec(t, rt, `return 1`)) != 1.0 {
		t.Fatal("completing run refused")
	}
	for _, id := range ids {
		if value(t, wait(t, rt, id)) != 7.0 {
			t.Fatal("suspended run lost")
		}
	}
	if st := core.StatsOf(rt); st.Suspended != 0 || st.SnapshotBytes != 0 {
		t.Fatalf("after all waits: %+v", st)
	}
}

func TestRestartSafeRuns(t *testing.T) {
	rt := newRuntime(t, nil, sideEffectTool{})
	run := func(code string) core.Result {
		return rt.Exec(context.Background(), core.CallInfo{Scope: testScope}, core.ExecInput{Code: code, RestartSafe: true})
	}
	// Side-effecting catalog calls are refused before the tool runs.
	got := value(t, run(`try { await tools.callValue("openclaw:core:write_note", {text: "x"}); return "ran"; } catch (e) { return e.message; }`))
	if s, _ := got.(string); s == "ran" || s == "" {
		t.Fatalf("side effect ran in a restartSafe run: %v", got)
	}
	// Pending calls are never auto-pumped: the 300 ms call would settle well
	// inside the 10 s timeout, yet exec returns waiting instead of completing.
	r := run(`return (await tools.callValue("openclaw:core:sleep_ms", {ms: 300})).slept`)
	if r.Status != core.StatusWaiting || r.Reason != "pending_tools" || !r.RestartSafe || !strings.Contains(jsonText(r), `"restartSafe":true`) {
		t.Fatalf("restartSafe exec: %+v", r)
	}
	for i := 0; r.Status == core.StatusWaiting; i++ {
		if i > 100 {
			t.Fatal("restartSafe run never finished through wait")
		}
		time.Sleep(20 * time.Millisecond)
		r = wait(t, rt, r.RunID)
	}
	if value(t, r) != 300.0 {
		t.Fatal("restartSafe run did not finish through wait")
	}
}

// sideEffectTool writes somewhere; restartSafe runs must refuse it.
type sideEffectTool struct{}

func (sideEffectTool) Spec() catalog.Spec {
	return catalog.Spec{Name: "write_note", Description: "Write a note.", Source: catalog.SourceOpenClaw, Owner: "core",
		Parameters: []byte(`{"type":"object","properties":{"text":{"type":"string"}}}`), SideEffects: true}
}

func (sideEffectTool) Execute(context.Context, catalog.Call) (catalog.Result, error) {
	return catalog.Result{Details: []byte(`{"written":true}`)}, nil
}

func TestOversizedToolResultIsACatchableError(t *testing.T) {
	huge := sideEffectFree("huge_result", func() []byte {
		return []byte(`{"blob":"` + strings.Repeat("x", 17<<20) + `"}`)
	})
	rt := newRuntime(t, nil, huge)
	got := value(t, exec(t, rt, `try { await tools.callValue("openclaw:core:huge_result", {}); return "no"; } catch (e) { return [e.name, e.message.includes("is too large to hand to the cell")]; }`))
	if jsonText(got) != `["RangeError",true]` {
		t.Fatalf("got %s", jsonText(got))
	}
}

// sideEffectFree is a read-only core tool returning fixed details.
type fixedTool struct {
	name    string
	details func() []byte
}

func sideEffectFree(name string, details func() []byte) catalog.Tool { return fixedTool{name, details} }

func (f fixedTool) Spec() catalog.Spec {
	return catalog.Spec{Name: f.name, Description: "Returns fixed details.", Source: catalog.SourceOpenClaw, Owner: "core",
		Parameters: []byte(`{"type":"object"}`)}
}

func (f fixedTool) Execute(context.Context, catalog.Call) (catalog.Result, error) {
	return catalog.Result{Details: f.details()}, nil
}

// TestRuntimeOnTheInterpreter runs a tool call, a suspension and a resume on
// wazero's interpreter: the engine every GOARCH=wasm build of the core uses.
func TestRuntimeOnTheInterpreter(t *testing.T) {
	rt := newRuntimeWith(t, nil, func(o *core.Options) { o.Engine.Interpreter = true })
	r := exec(t, rt, `const s = await tools.shipping_list({}); await yield_control("check"); return s.length`)
	if r.Status != core.StatusWaiting {
		t.Fatalf("exec: %+v", r)
	}
	if value(t, wait(t, rt, r.RunID)) != 6.0 {
		t.Fatal("resume on the interpreter failed")
	}
}

func TestAbortAndSessionEndDiscardSuspendedRuns(t *testing.T) {
	canceled := make(chan struct{})
	slow := coreTool("slow", func(ctx context.Context, _ catalog.Call) (catalog.Result, error) {
		<-ctx.Done() // only ends when the run is aborted
		close(canceled)
		return catalog.Result{}, ctx.Err()
	}, nil)
	rt := newRuntime(t, func(c *config.Config) { c.TimeoutMs = 100 }, slow)
	r := exec(t, rt, `return await tools.slow({})`)
	if r.Status != core.StatusWaiting {
		t.Fatalf("exec: %+v", r)
	}
	other := core.Scope{AgentID: "agent-1", SessionID: "s-9", SessionKey: "key-9", AgentRunID: "run-1"}
	if rt.Abort(other, r.RunID) {
		t.Fatal("another session aborted the run")
	}
	if !rt.Abort(testScope, r.RunID) {
		t.Fatal("abort found no run")
	}
	<-canceled // the pending tool call was canceled
	mustFail(t, wait(t, rt, r.RunID), core.CodeInvalidInput, "code mode run is unavailable or expired.")

	for i := 0; i < 3; i++ {
		if r := exec(t, rt, `await yield_control(); return 1`); r.Status != core.StatusWaiting {
			t.Fatalf("exec: %+v", r)
		}
	}
	if n := rt.EndSession(other); n != 0 {
		t.Fatalf("ended %d runs of another session", n)
	}
	if n := rt.EndSession(testScope); n != 3 || core.StatsOf(rt).Suspended != 0 {
		t.Fatalf("ended %d, %d left", n, core.StatsOf(rt).Suspended)
	}
}
