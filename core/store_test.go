package core_test

import (
	"context"
	"errors"
	"runtime"
	"testing"

	"github.com/codemode-go/codemode/core"
	"github.com/codemode-go/codemode/internal/config"
	"github.com/codemode-go/codemode/internal/engine/wazeroengine"
	"github.com/codemode-go/codemode/internal/hostopts"
)

// TestConsumedSnapshotsReleaseMemory measures the Go heap: 64 suspended runs with
// incompressible guest state hold their snapshots; once every run completed,
// the store is empty and the heap gives the snapshot bytes back.
func TestConsumedSnapshotsReleaseMemory(t *testing.T) {
	rt := newRuntime(t, nil)
	heap := func() uint64 {
		runtime.GC()
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	base := heap()
	var ids []string
	for i := 0; i < 64; i++ {
		r := exec(t, rt, `globalThis.state = Array.from({length: 3000}, () => Math.random().toString(36)); await yield_control(); return state.length;`)
		if r.Status != core.StatusWaiting {
			t.Fatalf("run %d: %+v", i, r)
		}
		ids = append(ids, r.RunID)
	}
	held := core.StatsOf(rt).SnapshotBytes
	loaded := heap()
	if held < 64*20_000 || loaded < base+uint64(held)*8/10 {
		t.Fatalf("snapshots hold %d bytes; heap %d -> %d", held, base, loaded)
	}
	for _, id := range ids {
		if value(t, wait(t, rt, id)) != 3000.0 {
			t.Fatal("run lost its state")
		}
	}
	after := heap()
	if st := core.StatsOf(rt); st.Suspended != 0 || st.SnapshotBytes != 0 {
		t.Fatalf("store after completion: %+v", st)
	}
	if after > base+uint64(held)/5 {
		t.Fatalf("heap not released: base %d, with snapshots %d (%d held), after %d", base, loaded, held, after)
	}
	t.Logf("snapshots %d bytes; heap base %d, loaded %d, after %d", held, base, loaded, after)
}

func TestEngineStartFailureIsRuntimeUnavailable(t *testing.T) {
	cfg := config.Default()
	cfg.Enabled = true
	// quickjs.wasm needs 18 pages of memory; a 4-page cap makes the engine refuse it.
	eng, _ := wazeroengine.New(context.Background(), wazeroengine.Options{MaxMemoryPages: 4})
	opts := core.Options{Config: cfg}
	hostopts.Of(&opts).Engine = eng
	_, err := core.New(context.Background(), opts)
	var ue *core.UnavailableError
	if !errors.As(err, &ue) {
		t.Fatalf("err = %v", err)
	}
	cfg.Enabled = false
	if _, err := core.New(context.Background(), core.Options{Config: cfg}); err == nil {
		t.Fatal("a disabled config made a runtime")
	}
}
