package quickjs_test

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"

	"github.com/codemode-go/codemode/internal/quickjs"
)

// TestKitBytecodeIsCurrent: the committed kit.bc is what bcgen makes from
// today's kit.js (a stale one would only be ignored at run time, see
// TestStaleSealIsIgnored, and cost the start its parse again).
func TestKitBytecodeIsCurrent(t *testing.T) {
	src, err := os.ReadFile("kit.js")
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("kit.bc")
	if err != nil {
		t.Fatal(err)
	}
	want, err := quickjs.SealFor(context.Background(), pickEngine(t, false), string(src), "kit.js")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("kit.bc is not what bcgen makes from kit.js: run ./build.sh gen (and commit the result)")
	}
}

func TestUnseal(t *testing.T) {
	sealed := quickjs.Seal("src", []byte{1, 2, 3})
	for _, c := range []struct {
		name, src string
		sealed    []byte
		want      []byte
	}{
		{"made from src", "src", sealed, []byte{1, 2, 3}},
		{"source edited since", "src2", sealed, nil},
		{"header only", "src", sealed[:8], nil},
		{"empty", "src", nil, nil},
	} {
		if got := quickjs.Unseal(c.src, c.sealed); !bytes.Equal(got, c.want) {
			t.Errorf("%s: Unseal = %v, want %v", c.name, got, c.want)
		}
	}
}

// probe reads what a prelude's bytecode could change if it were compiled
// differently from its source: a function's source text, and an error's stack
// (file name and line of the prelude's frames).
const probe = `(() => { let stack = ""; try { globalThis.hostThrow() } catch (e) { stack = e.stack } return [String(globalThis.hostThrow), stack, globalThis.hostMarker] })()`

const throwingPrelude = `(function (host) {
  globalThis.hostMarker = 7;
  globalThis.hostThrow = function hostThrow() {
    throw new TypeError("from the prelude");
  };
  return {};
})`

func probeRuntime(t *testing.T, sealed []byte) any {
	t.Helper()
	ctx := context.Background()
	rt, err := quickjs.New(ctx, quickjs.Config{Engine: pickEngine(t, false), Prelude: throwingPrelude, PreludeSealed: sealed})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close(ctx)
	vm, err := rt.NewVM(ctx, quickjs.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	defer vm.Close()
	v, err := vm.EvalJSON(probe)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestSealedPreludeReadsAsSource: a template made from the prelude's bytecode
// is indistinguishable to a guest from one made from its source.
func TestSealedPreludeReadsAsSource(t *testing.T) {
	sealed, err := quickjs.SealFor(context.Background(), pickEngine(t, false), throwingPrelude, "prelude.js")
	if err != nil {
		t.Fatal(err)
	}
	fromSource, fromBytecode := probeRuntime(t, nil), probeRuntime(t, sealed)
	got := fromBytecode.([]any)
	if !strings.Contains(got[1].(string), "prelude.js:4") || !strings.HasPrefix(got[0].(string), "function hostThrow()") {
		t.Fatalf("bytecode prelude: %q", got)
	}
	if want := fromSource.([]any); got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
		t.Fatalf("bytecode prelude reads %q, source %q", got, want)
	}
}

// TestStaleSealIsIgnored: bytecode made from another source than the
// prelude's (an edit without ./build.sh gen) leaves the template to the source.
// (Bytecode for another QuickJS is not tested here: QuickJS checks no more
// than its version byte, and on V8 a mismatched read overflows the stack
// inside QuickJS; the bytecode is only ever for the pinned quickjs.wasm.)
func TestStaleSealIsIgnored(t *testing.T) {
	otherSource, err := quickjs.SealFor(context.Background(), pickEngine(t, false), `(function () { globalThis.hostMarker = 1; return {}; })`, "prelude.js")
	if err != nil {
		t.Fatal(err)
	}
	if got := probeRuntime(t, otherSource).([]any); got[2] != float64(7) {
		t.Errorf("hostMarker = %v, want the source's 7", got[2])
	}
}
