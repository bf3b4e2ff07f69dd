package core

import (
	"context"
	"testing"
	"time"

	"github.com/codemode-go/codemode/core/config"
	"github.com/codemode-go/codemode/core/engine/wazeroengine"
)

func testConfig(mod func(*config.Config)) config.Config {
	cfg := config.Default()
	cfg.Enabled = true
	if mod != nil {
		mod(&cfg)
	}
	return cfg
}

// Close releases the wazero engine New made for the runtime (its compiled
// code and compilation cache handles), and nothing else may use it afterwards.
func TestCloseReleasesTheEngineItCreated(t *testing.T) {
	ctx := context.Background()
	rt, err := New(ctx, Options{Config: testConfig(nil)})
	if err != nil {
		t.Fatal(err)
	}
	if rt.ownEngine == nil {
		t.Fatal("the runtime does not know it owns its engine")
	}
	if err := rt.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := rt.ownEngine.Load(ctx, emptyModule, nil); err == nil {
		t.Fatal("the engine New created is still open after Close")
	}
}

// An engine the host passed in stays the host's: Close leaves it open.
func TestCloseLeavesAHostEngineOpen(t *testing.T) {
	ctx := context.Background()
	eng, err := wazeroengine.New(ctx, wazeroengine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close(ctx)
	rt, err := New(ctx, Options{Config: testConfig(nil), Engine: eng})
	if err != nil {
		t.Fatal(err)
	}
	if rt.ownEngine != nil {
		t.Fatal("the runtime claims the host's engine")
	}
	if err := rt.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := eng.Load(ctx, emptyModule, nil); err != nil {
		t.Fatalf("Close closed the host's engine: %v", err)
	}
}

var emptyModule = []byte("\x00asm\x01\x00\x00\x00")

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
