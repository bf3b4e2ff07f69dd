package core_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/codemode-go/codemode/core"
	"github.com/codemode-go/codemode/internal/config"
)

func TestChecklist_TranscriptReplayAndPersistenceKeepCodeModeControlCalls(t *testing.T) {
	var tr core.Transcript
	// 1 s leaves the exec room to start both calls on a loaded machine; the
	// 2 s sleep still outlasts it, so the run suspends.
	rt := newRuntimeWith(t, func(c *config.Config) { c.TimeoutMs = 1000 }, func(o *core.Options) { o.Transcript = &tr })
	ctx := context.Background()
	r := rt.Exec(ctx, core.CallInfo{Scope: testScope, CallID: "toolu_exec"}, core.ExecInput{Code: `
	  await tools.echo({message: "a"});
	  const s = await tools.sleep_ms({ms: 2000});
	  return s.slept;`})
	if r.Status != core.StatusWaiting {
		t.Fatalf("exec: %+v", r)
	}
	for i := 0; r.Status == core.StatusWaiting; i++ {
		r = rt.Wait(ctx, core.CallInfo{Scope: testScope, CallID: "toolu_wait_" + string(rune('a'+i))}, core.WaitInput{RunID: r.RunID})
	}
	if value(t, r) != 2000.0 {
		t.Fatalf("final %+v", r)
	}
	entries := tr.Entries()
	if len(entries) < 2 || entries[0].Tool != "exec" || entries[0].CallID != "toolu_exec" || entries[0].Status != core.StatusWaiting ||
		entries[len(entries)-1].Tool != "wait" || entries[len(entries)-1].Status != core.StatusCompleted {
		t.Fatalf("control calls: %+v", entries)
	}
	for _, e := range entries {
		if e.ToolKind != "code_mode_exec" || e.RunID != entries[0].RunID {
			t.Fatalf("entry %+v", e)
		}
	}
	// Both nested calls belong to the exec that made them, even the one that
	// finished while the run was suspended.
	if n := entries[0].Nested; len(n) != 2 || n[0].ToolID != "openclaw:core:echo" || n[1].ToolID != "openclaw:core:sleep_ms" || n[1].ParentCallID != "toolu_exec" {
		t.Fatalf("nested under exec: %+v", n)
	}
	// Persist and load: the same control calls and nested calls come back.
	b, err := json.Marshal(&tr)
	if err != nil {
		t.Fatal(err)
	}
	var loaded core.Transcript
	if err := json.Unmarshal(b, &loaded); err != nil {
		t.Fatal(err)
	}
	again, _ := json.Marshal(&loaded)
	if string(again) != string(b) || len(loaded.Entries()) != len(entries) {
		t.Fatalf("round trip differs:\n%s\n%s", again, b)
	}
}
