//go:build wasip1 && codemode_demo

package main

import "github.com/codemode-go/codemode/internal/toolset"

// The demo build of the reactor (-tags codemode_demo: the wasip1 tests'
// modules) answers create_runtime's exampleTools; the shipped reactor links no
// demo package and refuses it.
func init() { host.ExampleTools = toolset.Demo }
