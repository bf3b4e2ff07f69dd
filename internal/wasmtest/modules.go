// Package wasmtest runs the GOOS=wasip1 modules under real WebAssembly hosts
// (wazero here, node:wasi from build.sh): the command with WASI args and
// preopens, and the reactor through its exports with a host tool. The tests
// build the modules into build/ (a no-op when they are up to date) and skip
// under -race and -short: wasm-in-wasm is slow, and ./build.sh test-wasip1
// runs them on their own.
package wasmtest

import (
	"context"
	"crypto/rand"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"

	"github.com/tetratelabs/wazero"
)

// Module names a build output.
type Module struct {
	// Name is the file name under build/.
	Name string
	// Pkg is the main package it is built from.
	Pkg string
	// BuildMode is go build's -buildmode ("" for the default).
	BuildMode string
	// Tags are go build's -tags ("" for none).
	Tags string
}

var (
	// Command is the command module (_start): the codemode CLI, one result line per result.
	Command = Module{"codemode.wasip1.wasm", "./wasm/wasip1/command", "", ""}
	// Reactor is the reactor module (-buildmode=c-shared) a host embeds and calls by export.
	Reactor = Module{"codemode.wasip1.reactor.wasm", "./wasm/wasip1/reactor", "c-shared", ""}
	// DemoCommand and DemoReactor are the two with the demo packages (the
	// codemode_demo tag): the example toolset the tests run cells against.
	// Never shipped: Command and Reactor refuse exampleTools.
	DemoCommand = Module{"codemode.wasip1.demo.wasm", "./wasm/wasip1/command", "", "codemode_demo"}
	DemoReactor = Module{"codemode.wasip1.reactor.demo.wasm", "./wasm/wasip1/reactor", "c-shared", "codemode_demo"}
	// DeterministicReactor is the demo reactor with a fixed guest clock and
	// randomness (the codemode_deterministic tag): the differential test's,
	// never shipped (determinism is no part of the wire).
	DeterministicReactor = Module{"codemode.wasip1.reactor.deterministic.wasm", "./wasm/wasip1/reactor", "c-shared", "codemode_deterministic,codemode_demo"}
)

// Root is the repository root (this file is internal/wasmtest/modules.go).
func Root() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}

var buildMu sync.Mutex

// Build writes m into build/ with the same flags as ./build.sh build and
// returns its path.
func Build(m Module) (string, error) {
	buildMu.Lock()
	defer buildMu.Unlock()
	out := filepath.Join(Root(), "build", m.Name)
	args := []string{"build", "-trimpath", "-o", out}
	if m.BuildMode != "" {
		args = append(args, "-buildmode="+m.BuildMode)
	}
	if m.Tags != "" {
		args = append(args, "-tags="+m.Tags)
	}
	cmd := exec.Command("go", append(args, m.Pkg)...)
	cmd.Dir = Root()
	cmd.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm")
	if b, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build %s: %v\n%s", m.Pkg, err, b)
	}
	return out, nil
}

// ModuleConfig is wazero's module config with what the core needs from its
// host: the real clocks (wazero's defaults are fake, which breaks timeoutMs and
// timers), a real sleep (the Go scheduler idles in poll_oneoff) and
// crypto-grade randomness (run ids). Add args, streams and mounts to it.
func ModuleConfig() wazero.ModuleConfig {
	return wazero.NewModuleConfig().WithSysWalltime().WithSysNanotime().WithSysNanosleep().WithRandSource(rand.Reader)
}

// NewRuntime is a wazero runtime with the compiler (the outer module is
// compiled natively; QuickJS inside it runs on wazero's interpreter) and an
// on-disk compilation cache, so repeated runs skip compiling 32 MB of Go.
func NewRuntime(ctx context.Context) wazero.Runtime {
	cfg := wazero.NewRuntimeConfigCompiler()
	{
		if c, err := wazero.NewCompilationCacheWithDir(filepath.Join(os.TempDir(), "codemode-wazero-cache")); err == nil {
			cfg = cfg.WithCompilationCache(c)
		}
	}
	return wazero.NewRuntimeWithConfig(ctx, cfg)
}
