package quickjs_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/codemode-go/codemode/internal/engine"
	"github.com/codemode-go/codemode/internal/quickjs"
)

// bounded gives an engine a nesting bound, as the host engine has one itself.
type bounded struct {
	engine.Engine
	max int
}

func (b bounded) MaxNesting() int { return b.max }

// nestingRuntime runs on an engine with a nesting bound: the host engine under
// GOOS=js (its own bound), otherwise wazero with the same bound added.
func nestingRuntime(t *testing.T) (*quickjs.Runtime, int) {
	eng := pickEngine(t, false)
	l, ok := eng.(engine.NestingLimiter)
	if !ok {
		b := bounded{eng, 64}
		eng, l = b, b
	}
	rt := newRuntimeOn(t, eng)
	t.Cleanup(func() { rt.Close(context.Background()) })
	return rt, l.MaxNesting()
}

// Guest recursion through host calls ends in a catchable RangeError at the
// engine's bound, never in a dead host: exactly the bound still works.
func TestHostCallNestingEndsInCatchableRangeErrorAtTheBound(t *testing.T) {
	rt, max := nestingRuntime(t)
	// The guest catches the refusal where it happens (inside the deepest
	// callback), so the RangeError itself reaches the test. The last case lets
	// it unwind through every level instead: still a catchable error.
	limitMsg := "RangeError: host calls nested too deeply (limit " + fmt.Sprint(max) + ")"
	tests := []struct {
		depth int
		inner bool
		want  string
	}{
		{1, true, "bottom"},
		{max, true, "bottom"},
		{max + 1, true, limitMsg},
		{max + 1, false, "caught"},
		{10 * max, true, limitMsg},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("%d/inner=%v", tc.depth, tc.inner), func(t *testing.T) {
			vm, err := rt.NewVM(context.Background(), quickjs.Limits{})
			if err != nil {
				t.Fatal(err)
			}
			defer vm.Close()
			register(vm)
			src := fmt.Sprintf(`(() => {
  const inner = (n) => { try { return dive(n); } catch (e) { return e.name + ": " + e.message; } };
  const dive = (n) => n === 0 ? "bottom" : hostCallback(() => %s(n - 1));
  try { return %s(%d); } catch (e) { return "caught"; }
})()`, map[bool]string{true: "inner", false: "dive"}[tc.inner], map[bool]string{true: "inner", false: "dive"}[tc.inner], tc.depth)
			got, err := vm.EvalJSON(src)
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Fatalf("depth %d: got %v, want %q", tc.depth, got, tc.want)
			}
			// The VM is still usable after the refusal.
			if v, err := vm.EvalJSON(`1 + 1`); err != nil || v != float64(2) {
				t.Fatalf("after: %v %v", v, err)
			}
		})
	}
}
