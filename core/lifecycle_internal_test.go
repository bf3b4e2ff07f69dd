package core

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/codemode-go/codemode/core/config"
	"github.com/codemode-go/codemode/core/engine/wazeroengine"
	"github.com/codemode-go/codemode/internal/quickjs/wasmbin"
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
	_, err = rt.ownEngine.Load(ctx, quickjsModule(t), nil)
	if err == nil || !strings.Contains(err.Error(), "closed") {
		t.Fatalf("the engine New created is still open after Close: Load = %v", err)
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

// quickjsModule is a module every engine accepts while open (the loop guard
// refuses modules it cannot instrument, so an empty module would fail for
// the wrong reason).
func quickjsModule(t *testing.T) []byte {
	t.Helper()
	b, err := wasmbin.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	return b
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
