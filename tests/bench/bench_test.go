package main

// Go benchmarks over the same harness, for `go test -bench . ./tests/bench`.
// Nothing here runs without -bench: `go test ./...` stays fast. The reference
// (Node.js) side is only in the main program (./build.sh bench).

import (
	"context"
	"sync"
	"testing"
)

var (
	harnessOnce [2]sync.Once
	harnesses   [2]*harness
	harnessErr  [2]error
)

// benchHarness returns a shared runtime: 0 compiler, 1 interpreter.
func benchHarness(b *testing.B, interpreter bool) *harness {
	b.Helper()
	i := 0
	if interpreter {
		i = 1
	}
	harnessOnce[i].Do(func() {
		w, err := loadWorkloads()
		if err != nil {
			harnessErr[i] = err
			return
		}
		harnesses[i], harnessErr[i] = newHarness(context.Background(), interpreter, 0, w)
	})
	if harnessErr[i] != nil {
		b.Fatal(harnessErr[i])
	}
	return harnesses[i]
}

var modes = []struct {
	name        string
	interpreter bool
}{{"compiler", false}, {"interpreter", true}}

// benchEval times one evaluation per iteration in a VM created outside the timer.
func benchEval(b *testing.B, h *harness, name string) {
	ctx := context.Background()
	w := h.w[name]
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		vm, err := h.newVM(ctx, nil)
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		err = evalIn(vm, w)
		b.StopTimer()
		vm.Close()
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
}

// BenchmarkLoop: loop 1e6 with the compiler, 1e5 with the interpreter (1e6
// takes about 9 s there).
func BenchmarkLoop(b *testing.B) {
	b.Run("compiler_1e6", func(b *testing.B) { benchEval(b, benchHarness(b, false), "loop") })
	b.Run("compiler_1e5", func(b *testing.B) { benchEval(b, benchHarness(b, false), "loopSmall") })
	b.Run("interpreter_1e5", func(b *testing.B) { benchEval(b, benchHarness(b, true), "loopSmall") })
}

// BenchmarkFib: fib(25) with the compiler, fib(20) with both.
func BenchmarkFib(b *testing.B) {
	b.Run("compiler_25", func(b *testing.B) { benchEval(b, benchHarness(b, false), "fib") })
	b.Run("compiler_20", func(b *testing.B) { benchEval(b, benchHarness(b, false), "fibSmall") })
	b.Run("interpreter_20", func(b *testing.B) { benchEval(b, benchHarness(b, true), "fibSmall") })
}

// BenchmarkHostCalls: 10k guest -> host echo calls per iteration.
func BenchmarkHostCalls(b *testing.B) {
	for _, m := range modes {
		b.Run(m.name, func(b *testing.B) { benchEval(b, benchHarness(b, m.interpreter), "hostCalls") })
	}
}

// BenchmarkFreshVM: NewVM + Close (pooled instance reset to the template).
func BenchmarkFreshVM(b *testing.B) {
	for _, m := range modes {
		b.Run(m.name, func(b *testing.B) {
			h := benchHarness(b, m.interpreter)
			ctx := context.Background()
			for i := 0; i < b.N; i++ {
				if _, err := h.freshVM(ctx); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkSnapshot: Snapshot of a VM whose async run awaits a host promise.
func BenchmarkSnapshot(b *testing.B) {
	for _, m := range modes {
		b.Run(m.name, func(b *testing.B) {
			h := benchHarness(b, m.interpreter)
			s, err := h.suspend(context.Background())
			if err != nil {
				b.Fatal(err)
			}
			defer s.vm.Close()
			size := 0
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				snap, err := s.vm.Snapshot()
				if err != nil {
					b.Fatal(err)
				}
				size = snap.Bytes()
			}
			b.ReportMetric(float64(size), "snapshot-bytes")
		})
	}
}

// BenchmarkRestore: Restore of that snapshot + re-registering callbacks + Close.
func BenchmarkRestore(b *testing.B) {
	for _, m := range modes {
		b.Run(m.name, func(b *testing.B) {
			h := benchHarness(b, m.interpreter)
			ctx := context.Background()
			s, err := h.suspend(ctx)
			if err != nil {
				b.Fatal(err)
			}
			defer s.vm.Close()
			snap, err := s.vm.Snapshot()
			if err != nil {
				b.Fatal(err)
			}
			if err := h.verifyRestore(ctx, snap, s); err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := h.restoreOnce(ctx, snap); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
