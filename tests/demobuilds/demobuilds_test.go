// Package demobuilds checks which builds link the demo packages (the example
// toolset, internal/toolset, and the spec's Issues namespace,
// internal/issuesdemo): none of the shipped binaries and library packages,
// and every demo build, so the codemode_demo tag keeps doing what its files
// say; and that the page's cores keep out what a page never runs. It asks
// `go list -deps` with each build's GOOS and tags (build.sh's), so it
// compiles nothing.
package demobuilds

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// demoPackages are the packages only demo builds may link.
var demoPackages = []string{
	"github.com/codemode-go/codemode/internal/toolset",
	"github.com/codemode-go/codemode/internal/issuesdemo",
}

// build is one binary (or library package) as build.sh builds it.
type build struct {
	name, goos, tags string
	pkgs             []string
	links            []string // demos only: the demo packages it must link
}

// shipped are the builds a user runs or embeds: none may link a demo package.
var shipped = []build{
	{"the page's core (build/web/codemode.wasm)", "js", "codemode_hostjs", []string{"./wasm/codemode"}, nil},
	{"the page's core for engine wazero (codemode.wazero.wasm)", "js", "", []string{"./wasm/codemode"}, nil},
	{"the TypeScript transform (tsx.wasm)", "js", "", []string{"./wasm/tsx"}, nil},
	{"the wasip1 command (codemode.wasip1.wasm)", "wasip1", "", []string{"./wasm/wasip1/command"}, nil},
	{"the wasip1 reactor (codemode.wasip1.reactor.wasm)", "wasip1", "", []string{"./wasm/wasip1/reactor"}, nil},
	{"the Worker front (build/worker/front.wasm)", "js", "codemode_relayonly", []string{"./edge/worker/front"}, nil},
	{"the public library packages", "", "", []string{"./core/...", "./edge", "./edge/mcpserver"}, nil},
}

// demos are the builds that serve the demo: each must link both packages,
// except the page's, whose tools come from the server (Issues only).
var demos = []build{
	{"the page's demo core (build/web/codemode.demo.wasm)", "js", "codemode_hostjs,codemode_demo", []string{"./wasm/codemode"}, demoPackages[1:]},
	{"the wasip1 demo command", "wasip1", "codemode_demo", []string{"./wasm/wasip1/command"}, demoPackages},
	{"the wasip1 demo reactor", "wasip1", "codemode_demo", []string{"./wasm/wasip1/reactor"}, demoPackages},
	{"the Worker's demo front (./build.sh worker --demo)", "js", "codemode_relayonly,codemode_demo", []string{"./edge/worker/front"}, demoPackages},
	{"the codemode CLI (./build.sh run)", "", "", []string{"./cmd/codemode"}, demoPackages},
}

func TestShippedBuildsLinkNoDemoPackage(t *testing.T) {
	for _, b := range shipped {
		deps := listDeps(t, b)
		for _, p := range demoPackages {
			if slices.Contains(deps, p) {
				t.Errorf("%s links %s: a shipped build must not; register demos in a codemode_demo file of a main package (internal/demo)", b.name, p)
			}
		}
	}
}

func TestDemoBuildsLinkTheDemoPackages(t *testing.T) {
	for _, b := range demos {
		deps := listDeps(t, b)
		for _, p := range b.links {
			if !slices.Contains(deps, p) {
				t.Errorf("%s does not link %s", b.name, p)
			}
		}
	}
}

// pageNeverRuns are the packages (by import path prefix) the page's cores
// must not link, with why: each was cut from codemode.wasm once, and every
// one linked again costs each page load its bytes, validation and start.
var pageNeverRuns = []struct{ prefix, why string }{
	{"crypto/", "Go's FIPS 140 module comes with crypto/rand or crypto/sha256 (160 KB): ids use internal/cryptorand, memos internal/textmemo"},
	{"github.com/tetratelabs/wazero", "the page's engine is the host's own (internal/engine/jsengine)"},
	{"github.com/evanw/esbuild", "TypeScript runs in tsx.wasm, loaded on demand"},
	{"github.com/modelcontextprotocol/go-sdk", "a page's MCP servers are relayed"},
	{"github.com/goccy/go-json", "internal/jsonx is encoding/json under codemode_hostjs"},
	{"net/http", "a page's HTTP goes through the host's fetch"},
}

func TestPageCoresLinkNothingAPageNeverRuns(t *testing.T) {
	for _, b := range []build{shipped[0], demos[0]} {
		deps := listDeps(t, b)
		for _, n := range pageNeverRuns {
			var hit []string
			for _, p := range deps {
				if strings.HasPrefix(p, n.prefix) {
					hit = append(hit, p)
				}
			}
			if len(hit) > 0 {
				t.Errorf("%s links %d packages under %s (%s): %s", b.name, len(hit), n.prefix, strings.Join(hit[:min(len(hit), 4)], ", "), n.why)
			}
		}
	}
}

// listDeps is `go list -deps` of b's packages for its GOOS (GOARCH wasm) and tags.
func listDeps(t *testing.T, b build) []string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	args := []string{"list", "-deps", "-f", "{{.ImportPath}}"}
	if b.tags != "" {
		args = append(args, "-tags", b.tags)
	}
	cmd := exec.Command("go", append(args, b.pkgs...)...)
	cmd.Dir = filepath.Join(filepath.Dir(file), "..", "..")
	cmd.Env = os.Environ()
	if b.goos != "" {
		cmd.Env = append(cmd.Env, "GOOS="+b.goos, "GOARCH=wasm")
	}
	out, err := cmd.Output()
	if err != nil {
		msg := err.Error()
		if ee, ok := err.(*exec.ExitError); ok {
			msg += ": " + string(ee.Stderr)
		}
		t.Fatalf("%s: go %s: %s", b.name, strings.Join(args, " "), msg)
	}
	return strings.Fields(string(out))
}
