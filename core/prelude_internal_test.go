package core

import (
	"bytes"
	"context"
	"runtime"
	"testing"

	"github.com/codemode-go/codemode/internal/engine/wazeroengine"
	"github.com/codemode-go/codemode/internal/quickjs"
)

// TestPreludeBytecodeIsCurrent: guest/prelude.bc is what bcgen makes from
// today's guest/prelude.js. A stale file would not be wrong at run time (the
// template ignores bytecode made from another source and parses the source),
// only slow.
func TestPreludeBytecodeIsCurrent(t *testing.T) {
	if runtime.GOARCH == "wasm" {
		t.Skip("wazero's interpreter inside wasm takes minutes to start QuickJS; the native run checks the file")
	}
	ctx := context.Background()
	eng, err := wazeroengine.New(ctx, wazeroengine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close(ctx)
	want, err := quickjs.SealFor(ctx, eng, preludeSource, "prelude.js")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(preludeSealed, want) {
		t.Fatal("guest/prelude.bc is not what bcgen makes from guest/prelude.js: run ./build.sh gen (and commit the result)")
	}
	if quickjs.Unseal(quickjs.PinnedVersion, preludeSource, preludeSealed) == nil {
		t.Fatal("guest/prelude.bc is not sealed for guest/prelude.js")
	}
}
