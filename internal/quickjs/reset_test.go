package quickjs

import (
	"bytes"
	"context"
	"fmt"
	"testing"

	"github.com/codemode-go/codemode/internal/engine"
	"github.com/codemode-go/codemode/internal/engine/wazeroengine"
)

// TestPlanResetCoversTheTemplate: the plan's spans tile the image in order,
// the zero ones are zero and long, so replaying it rebuilds the image exactly.
func TestPlanResetCoversTheTemplate(t *testing.T) {
	img := make([]byte, 64<<10)
	for _, at := range []int{0, 5, 4100, 9000, 9001, 40000, len(img) - 1} {
		img[at] = 1
	}
	for _, mem := range [][]byte{img, img[1:], make([]byte, 10000), {1, 2, 3}, nil} {
		checkPlan(t, mem, planReset(mem))
	}
}

// checkPlan fails unless plan's spans tile mem in order, its zero spans are
// zero and at least minZeroSpan long, and replaying it over garbage
// rebuilds mem.
func checkPlan(t testing.TB, mem []byte, plan []span) {
	t.Helper()
	out := bytes.Repeat([]byte{0xAA}, len(mem))
	next := uint32(0)
	for _, s := range plan {
		if s.off != next || s.n == 0 {
			t.Fatalf("span %+v does not follow %d", s, next)
		}
		if s.zero {
			if s.n < minZeroSpan || !bytes.Equal(mem[s.off:s.off+s.n], make([]byte, s.n)) {
				t.Fatalf("zero span %+v is short or not zero", s)
			}
			clear(out[s.off : s.off+s.n])
		} else {
			copy(out[s.off:], mem[s.off:s.off+s.n])
		}
		next = s.off + s.n
	}
	if int(next) != len(mem) || !bytes.Equal(out, mem) {
		t.Fatalf("plan %+v does not rebuild an image of %d bytes", plan, len(mem))
	}
}

// planResetBytewise is the plan by its definition, a byte at a time: the
// maximal zero stretches of at least minZeroSpan bytes, copies between.
func planResetBytewise(mem []byte) []span {
	var plan []span
	copyFrom := 0
	for i := 0; i < len(mem); {
		if mem[i] != 0 {
			i++
			continue
		}
		j := i
		for j < len(mem) && mem[j] == 0 {
			j++
		}
		if j-i >= minZeroSpan {
			if i > copyFrom {
				plan = append(plan, span{off: uint32(copyFrom), n: uint32(i - copyFrom)})
			}
			plan = append(plan, span{off: uint32(i), n: uint32(j - i), zero: true})
			copyFrom = j
		}
		i = j
	}
	if copyFrom < len(mem) {
		plan = append(plan, span{off: uint32(copyFrom), n: uint32(len(mem) - copyFrom)})
	}
	return plan
}

// FuzzPlanReset: the probing plan is the bytewise one for any image, here
// stretches of zeros and ones at lengths and offsets the fuzzer picks (around
// minZeroSpan and the probe stride, where a probe could miss a stretch).
func FuzzPlanReset(f *testing.F) {
	f.Add([]byte{0x10, 0x00, 0x10, 0x00, 0x00, 0x10, 0xff, 0x01, 0x00})
	f.Add([]byte{0x00, 0x0f, 0x07, 0xf8, 0x0f, 0xf8})
	f.Fuzz(func(t *testing.T, runs []byte) {
		var mem []byte
		for k := 0; k+1 < len(runs) && len(mem) < 1<<20; k += 2 {
			n := int(runs[k])<<5 | int(runs[k+1]&0x1f) // 0..8191 bytes
			if runs[k+1]&0x80 != 0 {
				mem = append(mem, bytes.Repeat([]byte{runs[k+1] | 1}, n)...)
			} else {
				mem = append(mem, make([]byte, n)...)
			}
		}
		if got, want := planReset(mem), planResetBytewise(mem); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("plan of %d bytes:\n got %v\nwant %v", len(mem), got, want)
		}
	})
}

// TestResetInstanceIsTheTemplateByteForByte: a VM that scribbled deep on its
// C stack (deep recursion) and over its heap, then closed, leaves a pooled
// instance whose memory is the template byte for byte, dead stack frames
// included; the next VM from it behaves as a fresh one and takes a snapshot
// identical to one of a VM on a new instance. On both wazero engines and,
// under GOOS=js, the host engine (each clears with engine.Zeroer), and a
// memory without engine.Zeroer takes the full write.
func TestResetInstanceIsTheTemplateByteForByte(t *testing.T) {
	ctx := context.Background()
	var engines []engine.Engine
	for _, interp := range []bool{false, true} {
		eng, err := wazeroengine.New(ctx, wazeroengine.Options{Interpreter: interp})
		if err != nil {
			t.Fatal(err)
		}
		engines = append(engines, eng)
	}
	if h := HostEngineForTests(); h != nil {
		engines = append(engines, h)
	}
	for _, eng := range engines {
		rt, err := New(ctx, Config{Engine: eng, PoolSize: 1, Deterministic: true})
		if err != nil {
			t.Fatal(err)
		}
		if len(rt.tmpl.plan) < 2 || !rt.tmpl.plan[0].zero {
			t.Fatalf("the template's C stack is not cleared: plan %+v", rt.tmpl.plan)
		}
		vm, err := rt.NewVM(ctx, Limits{})
		if err != nil {
			t.Fatal(err)
		}
		v, err := vm.Eval(`function deep(n) { return n ? deep(n - 1) + 1 : 0 }
			globalThis.scribble = Array.from({length: 30}, (_, i) => ({i, s: "x".repeat(i % 20)})); deep(300)`, "x.js")
		if err != nil {
			t.Fatal(err)
		}
		vm.Free(v)
		mem, _ := vm.mem.View(0, vm.mem.Size())
		if bytes.Equal(mem[:len(rt.tmpl.mem)], rt.tmpl.mem) || bytes.Equal(mem[:0xfc000], rt.tmpl.mem[:0xfc000]) {
			t.Fatal("the guest did not scribble on the deep stack")
		}
		inst := vm.inst
		vm.Close()
		if len(rt.pool) != 1 || rt.pool[0].inst != inst {
			t.Fatalf("the VM's instance was not pooled (memory grew?) %d", len(rt.pool))
		}
		got, _ := inst.Memory().View(0, inst.Memory().Size())
		if !bytes.Equal(got, rt.tmpl.mem) {
			t.Fatal("the reset instance differs from the template")
		}
		reused, err := rt.NewVM(ctx, Limits{})
		if err != nil {
			t.Fatal(err)
		}
		if reused.inst != inst {
			t.Fatal("the second VM did not reuse the pooled instance")
		}
		if r, err := reused.EvalJSON(`typeof scribble`); err != nil || r != "undefined" {
			t.Fatalf("a global of the last run is visible: %v %v", r, err)
		}
		fresh, err := rt.restore(ctx, rt.tmpl, nil, Limits{}) // pool is empty: a new instance
		if err != nil {
			t.Fatal(err)
		}
		if fresh.inst == inst {
			t.Fatal("not a new instance")
		}
		loaded := &VM{rt: rt, callbacks: map[string]HostFunc{}}
		ni, err := rt.module.Instantiate(ctx, &hostRef{vm: loaded})
		if err != nil {
			t.Fatal(err)
		}
		loaded.attach(pooled{ni, &hostRef{vm: loaded}})
		if err := loaded.load(rt.tmpl); err != nil {
			t.Fatal(err)
		}
		if got, _ := loaded.mem.View(0, loaded.mem.Size()); !bytes.Equal(got, rt.tmpl.mem) {
			t.Fatal("a new instance (its memory reserved up front) does not hold the template")
		}
		loaded.discard()
		if r, err := fresh.EvalJSON(`typeof scribble`); err != nil || r != "undefined" {
			t.Fatalf("fresh VM: %v %v", r, err)
		}
		for _, vm := range []*VM{reused, fresh} {
			vm.call("qjs_run_gc")
		}
		a, err := reused.Snapshot()
		if err != nil {
			t.Fatal(err)
		}
		b, err := fresh.Snapshot()
		if err != nil {
			t.Fatal(err)
		}
		// The deterministic seed differs per VM (it advances); everything
		// else of the two snapshots must be the same bytes.
		if a.size != b.size || a.sp != b.sp || len(a.data) != len(b.data) {
			t.Fatalf("snapshots differ: %d/%d bytes, size %d/%d", len(a.data), len(b.data), a.size, b.size)
		}
		reused.Close()
		fresh.Close()
		rt.Close(ctx)
		eng.Close(ctx)
	}
}

// TestTemplateInstanceIsPooled: the instance that built the template serves the
// first VM (no instantiation, no image write); its memory is the template byte
// for byte, dead stack frames included, as a reset instance's is.
func TestTemplateInstanceIsPooled(t *testing.T) {
	ctx := context.Background()
	eng, err := wazeroengine.New(ctx, wazeroengine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close(ctx)
	rt, err := New(ctx, Config{Engine: eng, PoolSize: 2, Deterministic: true})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close(ctx)
	if len(rt.pool) != 1 {
		t.Fatalf("pool after New: %d instances, want the template's", len(rt.pool))
	}
	builder := rt.pool[0].inst
	if got, _ := engine.Copy(builder.Memory(), 0, builder.Memory().Size()); !bytes.Equal(got, rt.tmpl.mem) {
		t.Fatal("the template's own instance differs from the template")
	}
	vm, err := rt.NewVM(ctx, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if vm.inst != builder {
		t.Fatal("the first VM did not take the template's instance")
	}
	if r, err := vm.EvalJSON(`[typeof globalThis.scribble, 6 * 7]`); err != nil || fmt.Sprint(r) != "[undefined 42]" {
		t.Fatalf("first VM: %v %v", r, err)
	}
	vm.Close()
}

// BenchmarkPlanReset: planning the real template image (a page does it once
// at start, on baseline code).
func BenchmarkPlanReset(b *testing.B) {
	ctx := context.Background()
	eng, err := wazeroengine.New(ctx, wazeroengine.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer eng.Close(ctx)
	rt, err := New(ctx, Config{Engine: eng})
	if err != nil {
		b.Fatal(err)
	}
	defer rt.Close(ctx)
	if got, want := planReset(rt.tmpl.mem), planResetBytewise(rt.tmpl.mem); fmt.Sprint(got) != fmt.Sprint(want) {
		b.Fatalf("the template's plan differs from the bytewise one:\n got %v\nwant %v", got, want)
	}
	for b.Loop() {
		planReset(rt.tmpl.mem)
	}
}
