package quickjs_test

import (
	"context"
	"testing"

	"github.com/codemode-go/codemode/internal/quickjs"
)

// BenchmarkSnapshot measures the snapshot of a VM that has built a few hundred
// objects since the template (about what a run's setup leaves behind), and
// the restore of that snapshot into a pooled instance.
func BenchmarkSnapshot(b *testing.B) {
	rt, _ := runtimes(b)
	vm, err := rt.NewVM(context.Background(), quickjs.Limits{})
	if err != nil {
		b.Fatal(err)
	}
	defer vm.Close()
	v, err := vm.Eval(`globalThis.kept = Array.from({length: 60}, (_, i) => ({i, s: "v" + i, o: {a: [i, i + 1]}})); 1`, "x.js")
	if err != nil {
		b.Fatal(err)
	}
	vm.Free(v)
	var snap *quickjs.Snapshot
	b.Run("snapshot", func(b *testing.B) {
		for b.Loop() {
			if snap, err = vm.Snapshot(); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(snap.Bytes()), "snapbytes")
		b.ReportMetric(float64(snap.MemoryBytes()), "membytes")
	})
	b.Run("restore+close", func(b *testing.B) {
		for b.Loop() {
			vm2, err := rt.Restore(context.Background(), snap, quickjs.Limits{})
			if err != nil {
				b.Fatal(err)
			}
			vm2.Close()
		}
	})
	b.Run("new+close", func(b *testing.B) {
		for b.Loop() {
			vm2, err := rt.NewVM(context.Background(), quickjs.Limits{})
			if err != nil {
				b.Fatal(err)
			}
			vm2.Close()
		}
	})
}
