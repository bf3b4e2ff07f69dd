package guest_test

import (
	"context"
	"fmt"
	"runtime"
	"testing"

	"github.com/codemode-go/codemode/core/guest"
	"github.com/codemode-go/codemode/internal/engine/wazeroengine"
	"github.com/codemode-go/codemode/internal/quickjs"
)

// TestImageIsCurrent: the build embedded a template image, and it is sealed
// for today's Template on the pinned quickjs.wasm (a stale one would not be
// wrong at run time, only slow: the runtime builds its template instead).
func TestImageIsCurrent(t *testing.T) {
	if runtime.GOARCH == "wasm" {
		t.Skip("wazero's interpreter inside wasm takes minutes to start QuickJS; the native run checks the image")
	}
	if guest.Image() == nil {
		t.Fatal("core/guest/" + guest.ImageFile + " is missing: run ./build.sh deps (it makes the template image)")
	}
	ctx := context.Background()
	eng, err := wazeroengine.New(ctx, wazeroengine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close(ctx)
	cfg := guest.Template()
	cfg.Engine = eng
	rt, err := quickjs.New(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close(ctx)
	if from, why := rt.TemplateFrom(); from != "image" {
		t.Fatalf("the embedded template image is not current (%v): run ./build.sh gen", why)
	}
}

// Template is what every runtime of package core starts from; the host
// functions are the bridge's.
func ExampleTemplate() {
	cfg := guest.Template()
	fmt.Println(cfg.HostFunctions, len(cfg.Prelude) > 0)
	// Output: [__openclaw_sync __openclaw_async] true
}
