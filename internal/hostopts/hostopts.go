// Package hostopts holds the core.Options knobs that only this module's own
// hosts and tests set: an engine instance (the page's host engine, a test's
// trapping engine), the out-of-process TypeScript transform, a relay-only
// runtime, and the test clocks. They stay out of core's public API, which a Go
// user reads in five minutes; core wires Of at init, so a host that imports
// core can always call it.
package hostopts

import (
	"context"
	"time"

	"github.com/codemode-go/codemode/internal/engine"
)

// Options are the knobs; the zero value is what a Go user of core gets.
type Options struct {
	// Engine runs QuickJS; nil picks the host's own WebAssembly engine under
	// GOOS=js when the host installed it (internal/engine/jsengine), else a
	// wazero engine (compiler natively, interpreter under GOARCH=wasm). The
	// runtime does not close an engine it was handed.
	Engine engine.Engine
	// TransformTS runs the TypeScript transform in another program and answers
	// internal/typescript.Transform's text for src. Only builds without the
	// compiler use it (the codemode_hostjs tag: hostjs's codemode.wasm, whose
	// shim loads tsx.wasm on the first TypeScript cell); the others transform
	// in-process and ignore it. A run's clock starts after the transform, so
	// its loading never eats into timeoutMs.
	TransformTS func(ctx context.Context, src string) ([]byte, error)
	// RelayOnly builds a runtime that never loads QuickJS: it serves Catalog,
	// CallTool and Surface, and Exec and Wait answer runtime_unavailable. A
	// stateless front whose cells run elsewhere (the Cloudflare Worker's Go
	// front, a new instance per request) answers tool relays with it without
	// paying for a VM on every request.
	RelayOnly bool
	// Deterministic fixes the guest clock and randomness (tests).
	Deterministic bool
	// Now is the clock for snapshot expiry (tests); nil means time.Now.
	Now func() time.Time
}

// Of returns the knobs inside the *core.Options that opts points to, for the
// caller to set. core assigns it at init; opts of any other type panics.
var Of func(opts any) *Options

// WaitOutside marks the nested tool call running under ctx (as passed to a
// core.Tool's Execute) as waiting for the host outside the module. Call the
// returned release, once or more, as soon as the answer is known to be on its
// way (synchronously, in the code that hands the answer over), and before
// blocking on anything else. While every pending call of a run is marked, the
// run suspends at once with a waiting result (reason pending_tools) instead of
// blocking; a later wait continues it. Outside a run (a direct tool call) it
// does nothing.
//
// A WebAssembly host whose tools answer through an export (the wasip1
// reactor) needs it; core assigns it at init.
var WaitOutside func(ctx context.Context) (release func())

// WarmUp runs one trivial cell in rt (a *core.Runtime) with the catalog of
// scope (a core.Scope) through the exec path, unseen by the transcript, the
// hooks and the run store, and answers its core.Result. A host whose engine
// compiles code on first call (V8's lazy WebAssembly compilation) runs it
// while idle so that the first real cell does not pay for that compilation;
// core assigns it at init.
var WarmUp func(ctx context.Context, rt any, scope any) (result any, err error)

// WarmUpCalls runs, like WarmUp, a cell of n sequential calls of tool (a
// catalog.Tool) in rt with a catalog of that tool alone (no host tool, MCP
// server, hook or transcript sees it), so that a host whose engine compiles
// hot code late (V8's tier-up) has the tool-call path compiled before a
// page's first calls; core assigns it at init.
var WarmUpCalls func(ctx context.Context, rt any, scope any, tool any, n int) (result any, err error)
