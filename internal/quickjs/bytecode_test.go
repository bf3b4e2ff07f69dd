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
// TestSealDecides, and cost the start its parse again).
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

// TestPinnedVersion: the pinned quickjs.wasm reports the version the
// committed bytecode is sealed for.
func TestPinnedVersion(t *testing.T) {
	rt, err := quickjs.New(context.Background(), quickjs.Config{Engine: pickEngine(t, false)})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close(context.Background())
	vm, err := rt.NewVM(context.Background(), quickjs.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	defer vm.Close()
	if got := vm.QuickJSVersion(); got != quickjs.PinnedVersion {
		t.Fatalf("quickjs.wasm reports QuickJS %q, PinnedVersion is %q: update it and run ./build.sh gen", got, quickjs.PinnedVersion)
	}
}

func TestUnseal(t *testing.T) {
	sealed := quickjs.Seal(quickjs.PinnedVersion, "src", []byte{1, 2, 3})
	for _, c := range []struct {
		name, version, src string
		sealed             []byte
		want               []byte
	}{
		{"made from src", quickjs.PinnedVersion, "src", sealed, []byte{1, 2, 3}},
		{"source edited since", quickjs.PinnedVersion, "src2", sealed, nil},
		{"another QuickJS (a module handed in)", "0.17.0", "src", sealed, nil},
		{"a module without a version", "", "src", sealed, nil},
		{"header only", quickjs.PinnedVersion, "src", sealed[:8], nil},
		{"empty", quickjs.PinnedVersion, "src", nil, nil},
	} {
		if got := quickjs.Unseal(c.version, c.src, c.sealed); !bytes.Equal(got, c.want) {
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

// TestSealDecides: the template reads the sealed bytecode exactly when its
// seal names the prelude's source and this module's QuickJS, and the source
// otherwise: an edit without ./build.sh gen, or a quickjs.wasm of another
// QuickJS handed in as a compiled module (QuickJS checks no more than its
// version byte, and on V8 a mismatched read can overflow the stack inside
// QuickJS). The bytecode here sets hostMarker 1, the source 7.
func TestSealDecides(t *testing.T) {
	other, err := quickjs.SealFor(context.Background(), pickEngine(t, false), `(function () { globalThis.hostMarker = 1; return {}; })`, "prelude.js")
	if err != nil {
		t.Fatal(err)
	}
	raw := other[8:]
	for _, c := range []struct {
		name   string
		sealed []byte
		want   float64
	}{
		{"sealed for this prelude and QuickJS: the bytecode", quickjs.Seal(quickjs.PinnedVersion, throwingPrelude, raw), 1},
		{"made from another source: the source", other, 7},
		{"sealed for another QuickJS: the source", quickjs.Seal("0.17.0", throwingPrelude, raw), 7},
	} {
		if got := probeRuntime(t, c.sealed).([]any); got[2] != c.want {
			t.Errorf("%s: hostMarker = %v, want %v", c.name, got[2], c.want)
		}
	}
}
