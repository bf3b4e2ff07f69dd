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
)

// streamTool streams one partial result per step, each step released by the
// test through next, then returns.
type streamTool struct {
	next  chan string
	scope chan catalog.Scope
}

func (streamTool) Spec() catalog.Spec {
	return catalog.Spec{Name: "stream", Description: "Streams progress.", Source: catalog.SourceOpenClaw, Owner: "core", ReadOnly: true,
		Parameters: []byte(`{"type":"object"}`)}
}

func (t streamTool) Execute(ctx context.Context, call catalog.Call) (catalog.Result, error) {
	t.scope <- call.Scope
	for step := range t.next {
		if step == "done" {
			break
		}
		if call.Update != nil {
			call.Update(catalog.Result{Details: []byte(`{"step":"` + step + `"}`)})
		}
	}
	return catalog.Result{Details: []byte(`"finished"`)}, nil
}

type updates struct {
	mu  sync.Mutex
	got []core.ToolUpdate
}

func (u *updates) add(up core.ToolUpdate) { u.mu.Lock(); u.got = append(u.got, up); u.mu.Unlock() }
func (u *updates) list() []core.ToolUpdate {
	u.mu.Lock()
	defer u.mu.Unlock()
	return append([]core.ToolUpdate(nil), u.got...)
}

// Spec "Verschachtelte Tool-Ausführung": a nested call keeps the sender and
// channel context and streams its updates to the exec or wait driving the
// run, named by the pending call id and the driving call; while the run is
// suspended nobody listens and updates are dropped.
func TestNestedCallsStreamUpdatesAndKeepTheChannel(t *testing.T) {
	tool := streamTool{next: make(chan string), scope: make(chan catalog.Scope, 1)}
	rt := newRuntime(t, func(c *config.Config) { c.TimeoutMs = 1000 }, tool)
	scope := core.Scope{AgentID: "a", SessionID: "s", SenderID: "u1", ChannelID: "c1"}
	var onExec, onWait updates
	done := make(chan core.Result)
	go func() {
		done <- rt.Exec(context.Background(), core.CallInfo{Scope: scope, CallID: "exec_9", OnUpdate: onExec.add},
			core.ExecInput{Code: `return await tools.callValue("openclaw:core:stream", {})`})
	}()
	if got := <-tool.scope; got != scope {
		t.Fatalf("the tool saw scope %+v, want %+v", got, scope)
	}
	tool.next <- "one" // unbuffered: the update is sent before exec's deadline
	tool.next <- "two"
	r := <-done
	if r.Status != core.StatusWaiting || len(r.PendingToolCalls) != 1 {
		t.Fatalf("exec: %+v", r)
	}
	got := onExec.list()
	if len(got) != 2 || got[0].CallID != r.PendingToolCalls[0].ID || got[0].ToolID != "openclaw:core:stream" ||
		got[0].ParentCallID != "exec_9" || got[0].RunID != r.RunID || string(got[1].Partial.Details) != `{"step":"two"}` {
		t.Fatalf("exec's updates: %+v", got)
	}
	r0 := r
	go func() {
		done <- rt.Wait(context.Background(), core.CallInfo{Scope: scope, CallID: "wait_9", OnUpdate: onWait.add}, core.WaitInput{RunID: r.RunID})
	}()
	// Once the wait has the run, an update reaches it; one sent just before
	// (no one driving the run) is dropped, so repeat until one arrives.
	for i := 0; rt.Suspended() != 0; i++ {
		if i > 1000 {
			t.Fatal("wait never took the run")
		}
		time.Sleep(5 * time.Millisecond)
	}
	for i := 0; len(onWait.list()) == 0; i++ {
		if i > 1000 {
			t.Fatal("no update reached the wait")
		}
		tool.next <- "three"
	}
	tool.next <- "done"
	r = <-done
	if v := value(t, r); v != "finished" {
		t.Fatalf("wait: %v", v)
	}
	got = onWait.list()
	if len(got) == 0 || got[0].ParentCallID != "wait_9" || got[0].RunID != r0.RunID || !strings.Contains(string(got[0].Partial.Details), "three") {
		t.Fatalf("wait's updates: %+v", got)
	}
	if n := len(onExec.list()); n != 2 {
		t.Fatalf("exec's callback called after exec returned: %d updates", n)
	}
}

// A tool restricted to a channel is in that channel's catalog only.
func TestToolScopedToAChannel(t *testing.T) {
	scoped := fixedTool{"channel_only", func() []byte { return []byte(`1`) }}
	rt := newRuntime(t, nil, channelScoped{scoped})
	cell := core.ExecInput{Code: `return ALL_TOOLS.some((t) => t.name === "channel_only")`}
	for ch, want := range map[string]bool{"c1": true, "c2": false, "": false} {
		r := rt.Exec(context.Background(), core.CallInfo{Scope: core.Scope{AgentID: "a", ChannelID: ch}}, cell)
		if v := value(t, r); v != want {
			t.Errorf("channel %q sees the tool: %v, want %v", ch, v, want)
		}
	}
}

type channelScoped struct{ catalog.Tool }

func (c channelScoped) Spec() catalog.Spec {
	s := c.Tool.Spec()
	s.Scope = &catalog.Scope{ChannelID: "c1"}
	return s
}
