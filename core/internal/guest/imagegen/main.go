// Command imagegen writes the template image of core/internal/guest (guest.Template)
// for the pinned quickjs.wasm: the runtime's template built once on wazero
// and serialized (quickjs.Runtime.Image). ./build.sh deps runs it right after
// placing quickjs.wasm:
//
//	go run ./core/internal/guest/imagegen core/internal/guest/image/template.img
//
// It reads the bytecode prelude.bc but never an existing image, so a stale
// one is replaced, not copied.
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/codemode-go/codemode/core/internal/guest"
	"github.com/codemode-go/codemode/internal/engine/wazeroengine"
	"github.com/codemode-go/codemode/internal/quickjs"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: imagegen OUT.img")
		os.Exit(2)
	}
	if err := run(os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, "imagegen:", err)
		os.Exit(1)
	}
}

func run(out string) error {
	ctx := context.Background()
	eng, err := wazeroengine.New(ctx, wazeroengine.Options{})
	if err != nil {
		return err
	}
	defer eng.Close(ctx)
	cfg := guest.Template()
	cfg.Engine, cfg.Image = eng, nil
	rt, err := quickjs.New(ctx, cfg)
	if err != nil {
		return err
	}
	defer rt.Close(ctx)
	if from, _ := rt.TemplateFrom(); from != "bytecode" {
		return fmt.Errorf("the template was built from %s, not from the sealed bytecode: run ./build.sh gen", from)
	}
	img, err := rt.Image()
	if err != nil {
		return err
	}
	return os.WriteFile(out, img, 0o644)
}
