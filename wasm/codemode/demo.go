//go:build js && wasm && codemode_demo

package main

import "github.com/codemode-go/codemode/internal/issuesdemo"

// The demo core (codemode.demo.wasm, -tags codemode_demo: the web IDE and
// the Worker's dev and test builds) registers the spec's Issues namespace
// for a serverTools server that relays plugin github's tools; the shipped
// codemode.wasm links no demo package.
func init() { demoNamespaces = issuesdemo.RegisterIn }
