// Package guest is what core evaluates into every QuickJS template: the
// prelude (the guest API), its sealed bytecode, the bridge's host function
// names and the template image made from them at build time. Core and the
// image generator (imagegen) both take Template, so the image is sealed for
// exactly the config core runs.
package guest

import (
	_ "embed"

	"github.com/codemode-go/codemode/internal/quickjs"
)

// Prelude is the guest API, evaluated once into the template.
//
//go:embed prelude.js
var Prelude string

// preludeSealed is prelude.js compiled to QuickJS bytecode by bcgen
// (./build.sh gen), which the template evaluates instead of parsing the
// source when there is no usable image.
//
//go:generate go run ../../../internal/quickjs/bcgen prelude.js prelude.bc
//go:embed prelude.bc
var preludeSealed []byte

// PreludeSealed is the committed prelude.bc.
func PreludeSealed() []byte { return preludeSealed }

// Bridge host function names; stable, because restored VMs look them up by name.
const (
	HostSync  = "__openclaw_sync"
	HostAsync = "__openclaw_async"
)

// Template is the quickjs.Config core's runtimes start from, without an
// engine: the host functions, the prelude and its bytecode, and the
// embedded image (nil where the build made none).
func Template() quickjs.Config {
	return quickjs.Config{
		HostFunctions: []string{HostSync, HostAsync},
		Prelude:       Prelude,
		PreludeSealed: preludeSealed,
		Image:         Image(),
	}
}
