package core_test

import (
	"testing"

	"github.com/codemode-go/codemode/core"
	"github.com/codemode-go/codemode/internal/config"
)

func TestConsoleWritesTextOutput(t *testing.T) {
	rt := newRuntime(t, nil)
	r := exec(t, rt, `console.log("n =", 3, {a: [1]}, undefined); console.error(new Error("bad")); console.warn(10n); return 1`)
	want := `[{"type":"text","text":"n = 3 {\"a\":[1]} undefined"},{"type":"text","text":"[error] Error: bad"},{"type":"text","text":"[warn] 10n"}]`
	if got := jsonText(r.Output); got != want {
		t.Fatalf("output %s", got)
	}
}

func TestSetTimeoutIsAPendingOperation(t *testing.T) {
	rt := newRuntime(t, nil)
	got := value(t, exec(t, rt, `
	  const order = [];
	  await new Promise((resolve) => setTimeout(resolve, 30));
	  order.push("slept");
	  const cleared = setTimeout(() => order.push("never"), 10_000);
	  clearTimeout(cleared);
	  setTimeout((a, b) => order.push(a + b), 5, "x", "y");
	  await new Promise((resolve) => setTimeout(resolve, 20));
	  let err = ""; try { setTimeout("order.push(1)", 1); } catch (e) { err = e.name; }
	  return [order, err];`))
	if jsonText(got) != `[["slept","xy"],"TypeError"]` {
		t.Fatalf("got %s", jsonText(got))
	}
}

func TestTimerPastTheDeadlineSuspendsTheRun(t *testing.T) {
	rt := newRuntime(t, func(c *config.Config) { c.TimeoutMs = 100 })
	r := exec(t, rt, `await new Promise((resolve) => setTimeout(resolve, 300)); return "after timer"`)
	if r.Status != core.StatusWaiting || r.PendingToolCalls[0].Kind != "timer" {
		t.Fatalf("exec: %+v", r)
	}
	if value(t, waitUntilDone(t, rt, r)) != "after timer" {
		t.Fatal("timer did not fire after wait")
	}
}
