package guest

import (
	"bytes"
	"context"
	"runtime"
	"testing"

	"github.com/codemode-go/codemode/internal/engine"
	"github.com/codemode-go/codemode/internal/engine/wazeroengine"
	"github.com/codemode-go/codemode/internal/quickjs"
)

// nativeEngine is a wazero engine for the drift tests, which run natively
// only: wazero's interpreter inside wasm takes minutes to start QuickJS.
func nativeEngine(t *testing.T) engine.Engine {
	t.Helper()
	if runtime.GOARCH == "wasm" {
		t.Skip("wazero's interpreter inside wasm takes minutes to start QuickJS; the native run checks the files")
	}
	ctx := context.Background()
	eng, err := wazeroengine.New(ctx, wazeroengine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { eng.Close(ctx) })
	return eng
}

// TestPreludeBytecodeIsCurrent: prelude.bc is what bcgen makes from
// today's prelude.js. A stale file would not be wrong at run time (the
// template ignores bytecode made from another source and parses the source),
// only slow.
func TestPreludeBytecodeIsCurrent(t *testing.T) {
	want, err := quickjs.SealFor(context.Background(), nativeEngine(t), Prelude, "prelude.js")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(preludeSealed, want) {
		t.Fatal("prelude.bc is not what bcgen makes from prelude.js: run ./build.sh gen (and commit the result)")
	}
	if quickjs.Unseal(quickjs.PinnedVersion, Prelude, preludeSealed) == nil {
		t.Fatal("prelude.bc is not sealed for prelude.js")
	}
}

// TestImageIsCurrent: the build embedded a template image, and it is sealed
// for today's Template on the pinned quickjs.wasm (a stale one would not be
// wrong at run time, only slow: the runtime builds its template instead).
func TestImageIsCurrent(t *testing.T) {
	eng := nativeEngine(t)
	if Image() == nil {
		t.Fatal("core/internal/guest/" + ImageFile + " is missing: run ./build.sh deps (it makes the template image)")
	}
	cfg := Template()
	cfg.Engine = eng
	ctx := context.Background()
	rt, err := quickjs.New(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close(ctx)
	if from, why := rt.TemplateFrom(); from != "image" {
		t.Fatalf("the embedded template image is not current (%v): run ./build.sh gen", why)
	}
}
