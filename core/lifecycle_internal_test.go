package core

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/codemode-go/codemode/internal/config"
	"github.com/codemode-go/codemode/internal/engine"
	"github.com/codemode-go/codemode/internal/engine/wazeroengine"
	"github.com/codemode-go/codemode/internal/hostopts"
)

func testConfig(mod func(*config.Config)) config.Config {
	cfg := config.Default()
	cfg.Enabled = true
	if mod != nil {
		mod(&cfg)
	}
	return cfg
}

// closeCounter is the real engine, counting Close calls.
type closeCounter struct {
	engine.Engine
	closes atomic.Int32
}

func (c *closeCounter) Close(ctx context.Context) error {
	c.closes.Add(1)
	return c.Engine.Close(ctx)
}

// Close releases the wazero engine New made for the runtime (its compiled
// code and compilation cache handles), exactly once.
func TestCloseReleasesTheEngineItCreated(t *testing.T) {
	ctx := context.Background()
	rt, err := New(ctx, Options{Config: testConfig(nil)})
	if err != nil {
		t.Fatal(err)
	}
	if rt.ownEngine == nil {
		t.Fatal("the runtime does not know it owns its engine")
	}
	cc := &closeCounter{Engine: rt.ownEngine}
	rt.ownEngine = cc
	if err := rt.Close(ctx); err != nil {
		t.Fatal(err)
	}
	rt.Close(ctx)
	if n := cc.closes.Load(); n != 1 {
		t.Fatalf("the engine New created was closed %d times", n)
	}
}

// An engine the host passed in stays the host's: Close leaves it open.
func TestCloseLeavesAHostEngineOpen(t *testing.T) {
	ctx := context.Background()
	// Without the loop guard Load of an empty module instantiates nothing, so
	// it succeeds exactly while the engine is open.
	eng, err := wazeroengine.New(ctx, wazeroengine.Options{NoLoopGuard: true})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close(ctx)
	cc := &closeCounter{Engine: eng}
	rt, err := New(ctx, Options{Config: testConfig(nil), host: hostopts.Options{Engine: cc}})
	if err != nil {
		t.Fatal(err)
	}
	if rt.ownEngine != nil {
		t.Fatal("the runtime claims the host's engine")
	}
	if err := rt.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if n := cc.closes.Load(); n != 0 {
		t.Fatalf("Close closed the host's engine (%d times)", n)
	}
}

// Spec "Lebenszyklus von Lauf und Snapshot" (snapshotTtlSeconds): at the TTL
// the expired run leaves the store and its snapshot is freed, with no call to
// the runtime in between.
func TestExpiredSnapshotIsFreedAtTheTTL(t *testing.T) {
	ctx := context.Background()
	rt, err := New(ctx, Options{Config: testConfig(func(c *config.Config) { c.SnapshotTtlSeconds = 1 })})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close(ctx)
	res := rt.Exec(ctx, CallInfo{}, ExecInput{Code: `await yield_control(); return 1`})
	if res.Status != StatusWaiting {
		t.Fatalf("exec: %+v", res)
	}
	held := func() (n int, snap bool) {
		rt.store.mu.Lock()
		defer rt.store.mu.Unlock()
		for _, r := range rt.store.runs {
			n++
			snap = snap || r.snap != nil
		}
		return
	}
	if n, snap := held(); n != 1 || !snap {
		t.Fatalf("suspended run not held: %d, %v", n, snap)
	}
	time.Sleep(1500 * time.Millisecond)
	if n, snap := held(); n != 0 || snap {
		t.Fatalf("1.5 s after a 1 s TTL the store still holds %d runs (snapshot %v)", n, snap)
	}
}
