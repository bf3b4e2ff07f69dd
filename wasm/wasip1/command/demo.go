//go:build wasip1 && codemode_demo

package main

import "github.com/codemode-go/codemode/internal/toolset"

// The demo build of the command (-tags codemode_demo: the wasip1 tests'
// module) runs cells against the example toolset unless the config turns it
// off; the shipped command links no demo package.
func init() { exampleTools = toolset.Demo }
