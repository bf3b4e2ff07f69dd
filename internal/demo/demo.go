// Package demo is the seam between the hosts and the demo packages (the
// example toolset, internal/toolset, and the spec's Issues namespace,
// internal/issuesdemo): a host takes the example tools as a Tools value that
// only a demo build's main package sets, so the shipped binaries (the page's
// codemode.wasm, the wasip1 modules, the Worker front) link neither package,
// and every host answers a config that asks for them in such a build with the
// same error.
//
// This package imports neither demo package; the main packages do, in a file
// built only with the codemode_demo tag (or always, in the codemode CLI,
// which serves the demo).
package demo

import (
	"errors"

	"github.com/codemode-go/codemode/internal/catalog"
	"github.com/codemode-go/codemode/internal/namespace"
)

// Tag is the build tag of the demo builds.
const Tag = "codemode_demo"

// Tools makes a fresh example toolset and the namespace registry that rides
// with it (Issues over its issue tools). Nil in a build without the demos.
type Tools func() ([]catalog.Tool, *namespace.Registry, error)

// ErrNotInThisBuild is the answer to a config that asks for the example tools
// in a build without them. It names the builds that have them.
var ErrNotInThisBuild = errors.New("exampleTools: this build has no example tools (shipping_list, echo, sleep_ms, the Issues namespace); " +
	"they are only in the demo builds: the codemode CLI (codemode serve, codemode exec), and the wasip1 modules, the Worker front " +
	"and the page's core built with -tags " + Tag + " (./build.sh worker --demo, worker-dev, test-worker; the web IDE's codemode.demo.wasm). " +
	"Remove exampleTools (or set it to false) and give the runtime your own tools")

// Select answers the example tools a config asks for. asked is the config's
// exampleTools: nil (left out) means them when this build has them and none
// when it has not; true in a build without them is ErrNotInThisBuild, never a
// silent catalog without them; false means none.
func (t Tools) Select(asked *bool) ([]catalog.Tool, *namespace.Registry, error) {
	switch {
	case asked != nil && !*asked:
		return nil, nil, nil
	case t == nil && asked != nil:
		return nil, nil, ErrNotInThisBuild
	case t == nil:
		return nil, nil, nil
	}
	return t()
}
