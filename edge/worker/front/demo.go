//go:build js && wasm && codemode_demo

package main

import "github.com/codemode-go/codemode/internal/toolset"

// The demo build of the front (-tags codemode_demo: ./build.sh worker-dev,
// test-worker, bench-worker) serves the example toolset; the shipped front
// links no demo package and refuses exampleTools: true.
func init() { exampleTools = toolset.Demo }
