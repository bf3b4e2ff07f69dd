package core_test

import (
	"strings"
	"testing"
	"time"

	"github.com/codemode-go/codemode/core"
	"github.com/codemode-go/codemode/internal/config"
)

func TestChecklist_InfiniteLoopsTimeOutAndCannotBlockTheGateway(t *testing.T) {
	rt := newRuntime(t, func(c *config.Config) { c.TimeoutMs = 1000 })
	for _, code := range []string{
		`while (true) {}`,
		`for (;;) { try { while (true) {} } catch (e) {} }`, // the interrupt is uncatchable
		`const p = new Promise(() => {}); (async () => { while (true) { await null; } })(); await p;`,
	} {
		start := time.Now()
		mustFail(t, exec(t, rt, code), core.CodeTimeout, "timeoutMs")
		if d := time.Since(start); d > 5*time.Second {
			t.Fatalf("%s took %v", code, d)
		}
	}
	// While a guest spins, the process keeps serving: another cell runs to
	// completion before the spinning one is stopped.
	spin := make(chan core.Result)
	go func() { spin <- exec(t, rt, `while (true) {}`) }()
	if value(t, exec(t, rt, `return (await tools.echo({message: "served"})).message`)) != "served" {
		t.Fatal("runtime blocked by a spinning guest")
	}
	select {
	case r := <-spin:
		t.Fatalf("the spinning cell ended before the other was served: %+v", r)
	default:
	}
	mustFail(t, <-spin, core.CodeTimeout, "timeoutMs")
	// Nothing is left behind, and the runtime still serves.
	if core.StatsOf(rt).Suspended != 0 {
		t.Fatal("timed-out run kept")
	}
	if value(t, exec(t, rt, `return "alive"`)) != "alive" {
		t.Fatal("runtime unusable after timeouts")
	}
}

func TestChecklist_MemoryLimitErrorsEndTheGuestVM(t *testing.T) {
	rt := newRuntime(t, func(c *config.Config) { c.MemoryLimitBytes = 8 << 20 })
	r := exec(t, rt, `const a = []; while (true) a.push("x".repeat(4096) + a.length);`)
	mustFail(t, r, "", "out of memory")
	if !strings.Contains(r.Error, "memoryLimitBytes") {
		t.Fatalf("error does not name the limit: %q", r.Error)
	}
	if value(t, exec(t, rt, `return [1, 2].length`)) != 2.0 {
		t.Fatal("runtime unusable after an out-of-memory run")
	}
}

func TestDeepRecursionIsACatchableRangeError(t *testing.T) {
	rt := newRuntime(t, nil)
	if got := value(t, exec(t, rt, `function f() { return f(); } try { f(); } catch (e) { return e.name; }`)); got != "RangeError" {
		t.Fatalf("got %v", got)
	}
	mustFail(t, exec(t, rt, `function f() { return f(); } f();`), "", "RangeError")
}

func TestMaxPendingToolCalls(t *testing.T) {
	rt := newRuntime(t, func(c *config.Config) { c.MaxPendingToolCalls = 2 })
	got := value(t, exec(t, rt, `
	  const ok = [tools.callValue("openclaw:core:sleep_ms", {ms: 30}), tools.callValue("openclaw:core:sleep_ms", {ms: 30})];
	  let refused = "";
	  try { await tools.callValue("openclaw:core:sleep_ms", {ms: 1}); } catch (e) { refused = e.message; }
	  const done = await Promise.all(ok);
	  const later = await tools.callValue("openclaw:core:sleep_ms", {ms: 1});
	  return [refused.includes("maxPendingToolCalls = 2"), done.length, later.slept];`))
	if jsonText(got) != `[true,2,1]` {
		t.Fatalf("got %s", jsonText(got))
	}
}

func TestChecklist_OutputAndSnapshotLimitsForCompletedAndSuspendedRuns(t *testing.T) {
	t.Run("text over maxOutputBytes", func(t *testing.T) {
		rt := newRuntime(t, func(c *config.Config) { c.MaxOutputBytes = 1024 })
		r := exec(t, rt, `for (let i = 0; i < 100; i++) text("line " + i + " ".repeat(40)); return 1`)
		mustFail(t, r, core.CodeOutputLimitExceeded, "maxOutputBytes (1024")
		if n := outputBytes(r); n > 1024 {
			t.Fatalf("output carries %d bytes", n)
		}
	})
	t.Run("catching the limit error does not help", func(t *testing.T) {
		rt := newRuntime(t, func(c *config.Config) { c.MaxOutputBytes = 1024 })
		r := exec(t, rt, `try { text("x".repeat(2000)); } catch (e) {} return "sneaky"`)
		mustFail(t, r, core.CodeOutputLimitExceeded, "")
	})
	t.Run("value over maxOutputBytes", func(t *testing.T) {
		rt := newRuntime(t, func(c *config.Config) { c.MaxOutputBytes = 1024 })
		mustFail(t, exec(t, rt, `return "y".repeat(5000)`), core.CodeOutputLimitExceeded, "result value")
	})
	t.Run("error message is truncated, not passed through", func(t *testing.T) {
		rt := newRuntime(t, func(c *config.Config) { c.MaxOutputBytes = 1024 })
		r := exec(t, rt, `throw new Error("z".repeat(100000))`)
		if r.Status != core.StatusFailed || len(r.Error) > 1100 || !strings.Contains(r.Error, "truncated") {
			t.Fatalf("error of %d bytes: %.120q", len(r.Error), r.Error)
		}
	})
	t.Run("output budget spans exec and wait", func(t *testing.T) {
		rt := newRuntime(t, func(c *config.Config) { c.MaxOutputBytes = 1024 })
		r := exec(t, rt, `text("a".repeat(800)); await yield_control(); text("b".repeat(800)); return 1`)
		if r.Status != core.StatusWaiting {
			t.Fatalf("exec: %+v", r)
		}
		mustFail(t, wait(t, rt, r.RunID), core.CodeOutputLimitExceeded, "")
	})
	t.Run("snapshot over maxSnapshotBytes", func(t *testing.T) {
		rt := newRuntime(t, func(c *config.Config) { c.MaxSnapshotBytes = 4096 })
		r := exec(t, rt, `globalThis.big = Array.from({length: 20000}, (_, i) => "item-" + i * 7919); await yield_control(); return big.length`)
		mustFail(t, r, core.CodeSnapshotLimitExceeded, "maxSnapshotBytes (4096)")
		if core.StatsOf(rt).Suspended != 0 {
			t.Fatal("over-limit snapshot stored")
		}
	})
	t.Run("json output in call order", func(t *testing.T) {
		rt := newRuntime(t, nil)
		r := exec(t, rt, `text("one"); json({two: 2}); text({three: [3]}); json(new Map([["k", 1n]])); return null`)
		want := `[{"type":"text","text":"one"},{"type":"json","value":{"two":2}},{"type":"text","text":"{\n  \"three\": [\n    3\n  ]\n}"},{"type":"json","value":[["k","1n"]]}]`
		if got := jsonText(r.Output); got != want {
			t.Fatalf("output %s", got)
		}
		mustFail(t, exec(t, rt, `json(new Uint8Array(4).buffer)`), "", "binary data")
	})
}

func outputBytes(r core.Result) int {
	n := 0
	for _, o := range r.Output {
		n += len(o.Text) + len(o.Value)
	}
	return n
}

func TestTelemetryOnEveryResult(t *testing.T) {
	rt := newRuntime(t, nil)
	results := []core.Result{
		exec(t, rt, `await tools.search("ship"); await tools.describe("openclaw:core:echo"); await tools.echo({message: "secret-input-value"}); return 1`),
		exec(t, rt, `throw new Error("x")`),
		exec(t, rt, `ls -la`),
	}
	for i, r := range results {
		tel := r.Telemetry
		if tel.CatalogSize == 0 || tel.CatalogBySource.OpenClaw == 0 || len(tel.ModelVisibleTools) < 2 {
			t.Fatalf("result %d telemetry: %+v", i, tel)
		}
		if strings.Contains(jsonText(tel), "secret-input-value") {
			t.Fatal("telemetry carries a raw tool input")
		}
	}
	tel := results[0].Telemetry
	if tel.SearchCount != 1 || tel.DescribeCount != 1 || tel.CallCount != 1 {
		t.Fatalf("counts: %+v", tel)
	}
	if got := strings.Join(tel.ModelVisibleTools, ","); got != "exec,wait,screenshot" {
		t.Fatalf("model-visible tools: %s", got)
	}
}

func TestEmptyOutputItemsStillCount(t *testing.T) {
	rt := newRuntime(t, func(c *config.Config) { c.MaxOutputBytes = 1024 })
	r := exec(t, rt, `for (let i = 0; i < 1e6; i++) text(""); return 1`)
	mustFail(t, r, core.CodeOutputLimitExceeded, "maxOutputBytes")
	if len(r.Output) > 1024/24 {
		t.Fatalf("%d output items kept", len(r.Output))
	}
}
