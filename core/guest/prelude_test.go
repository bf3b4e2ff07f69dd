package guest

import (
	"bytes"
	"context"
	"runtime"
	"testing"

	"github.com/codemode-go/codemode/internal/engine/wazeroengine"
	"github.com/codemode-go/codemode/internal/quickjs"
)

// TestPreludeBytecodeIsCurrent: prelude.bc is what bcgen makes from
// today's prelude.js. A stale file would not be wrong at run time (the
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
	want, err := quickjs.SealFor(ctx, eng, Prelude, "prelude.js")
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
