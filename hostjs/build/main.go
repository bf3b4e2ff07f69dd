// Command build writes the hostjs modules a browser loads into build/web:
// codemode.js (what a page imports) and codemode.worker.js (its Web Worker),
// each one ES module that esbuild's Go API bundles with core.js, hostengine.js
// and the asset names; and assets.js, for the modules that import core.js
// itself (Node.js, the benchmarks).
//
// Why bundles: unbundled, a page requested codemode.js, then core.js,
// assets.js and hostengine.js, and only then codemode.wasm; its worker, in
// turn, its three imports before wasm_exec.js. Each level is a round trip (a
// revalidation on a warm load: the names are unversioned), and the download
// and compile of codemode.wasm is the critical path of a page's first result.
// Bundled, the .wasm requests leave right after codemode.js. The sources stay
// the modules in hostjs/, which Node.js and bundlers use as they are.
//
// Asset names are NAME?v=HASH, HASH the first 16 hex digits of the file's
// sha256, which codemode serve answers as immutable. The worker's bundle names
// every asset but itself (its name holds its own hash); the page's bundle
// names the worker too.
//
//	go run ./hostjs/build [-src hostjs] [-out build/web]
package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/evanw/esbuild/pkg/api"
)

// versioned are the assets hostjs fetches by name; build/web must hold them
// before this command runs (./build.sh build writes them first).
var versioned = []string{"codemode.wasm", "codemode.demo.wasm", "codemode.wazero.wasm", "tsx.wasm", "quickjs.wasm", "wasm_exec.js"}

func main() {
	src := flag.String("src", "hostjs", "the hostjs sources")
	out := flag.String("out", "build/web", "the directory the .wasm files are in, and the bundles go to")
	flag.Parse()
	if err := Build(*src, *out); err != nil {
		fmt.Fprintln(os.Stderr, "hostjs/build:", err)
		os.Exit(1)
	}
}

// Build writes codemode.js, codemode.worker.js and assets.js into outDir. A
// file whose content is unchanged is not written again, so its compressed
// variants stay current.
func Build(srcDir, outDir string) error {
	names := map[string]string{}
	var wasmExec []byte
	for _, f := range versioned {
		b, err := os.ReadFile(filepath.Join(outDir, f))
		if err != nil {
			return fmt.Errorf("%s is missing in %s: build it first (./build.sh build)", f, outDir)
		}
		names[f] = f + "?v=" + version(b)
		if f == "wasm_exec.js" {
			wasmExec = b
		}
	}
	// The worker runs wasm_exec.js (the Go toolchain's, copied beside the
	// bundles) first of all: one request less before it can start Go
	// (core.js then finds globalThis.Go and fetches nothing).
	worker, err := bundle(filepath.Join(srcDir, "codemode.worker.js"), names, string(wasmExec))
	if err != nil {
		return err
	}
	names["codemode.worker.js"] = "codemode.worker.js?v=" + version(worker)
	page, err := bundle(filepath.Join(srcDir, "codemode.js"), names, "")
	if err != nil {
		return err
	}
	assets := []byte("// Written by ./build.sh build (hostjs/assets.js says why).\nexport const assetNames = " + assetsJSON(names) + ";\n")
	for name, b := range map[string][]byte{"codemode.worker.js": worker, "codemode.js": page, "assets.js": assets} {
		if err := writeIfChanged(filepath.Join(outDir, name), b); err != nil {
			return err
		}
	}
	return nil
}

func version(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])[:16]
}

// assetsJSON is names as a JSON object with sorted keys (encoding/json sorts
// map keys), so the bundles are the same for the same inputs.
func assetsJSON(names map[string]string) string {
	b, _ := json.Marshal(names)
	return string(b)
}

// bundle is entry with its relative imports inlined and ./assets.js replaced
// by names, after the script first (verbatim: wasm_exec.js keeps its license
// header). Nothing is minified: a stack in a page's console reads as the
// sources do.
func bundle(entry string, names map[string]string, first string) ([]byte, error) {
	banner := "// " + filepath.Base(entry) + " of hostjs with its imports, bundled by ./build.sh build " +
		"(hostjs/build says why); the sources are the modules in hostjs/."
	if first != "" {
		banner += "\n" + first
	}
	res := api.Build(api.BuildOptions{
		EntryPoints: []string{entry},
		Outfile:     filepath.Base(entry),
		Bundle:      true,
		Write:       false,
		Format:      api.FormatESModule,
		Platform:    api.PlatformNeutral,
		Target:      api.ES2022,
		Banner:      map[string]string{"js": banner},
		// Node.js's modules are imported dynamically, on file: URLs only.
		External:      []string{"node:*"},
		LegalComments: api.LegalCommentsEndOfFile,
		LogLevel:      api.LogLevelError,
		Plugins:       []api.Plugin{assetsPlugin(assetsJSON(names))},
	})
	if len(res.Errors) > 0 {
		msgs := api.FormatMessages(res.Errors, api.FormatMessagesOptions{Kind: api.ErrorMessage})
		return nil, fmt.Errorf("bundling %s failed:\n%s", entry, strings.Join(msgs, "\n"))
	}
	for _, f := range res.OutputFiles {
		if strings.HasSuffix(f.Path, ".js") {
			return f.Contents, nil
		}
	}
	return nil, fmt.Errorf("bundling %s wrote no JavaScript", entry)
}

// assetsPlugin answers the import of ./assets.js with the versioned names.
func assetsPlugin(namesJSON string) api.Plugin {
	return api.Plugin{Name: "assets", Setup: func(b api.PluginBuild) {
		b.OnResolve(api.OnResolveOptions{Filter: `^\./assets\.js$`}, func(api.OnResolveArgs) (api.OnResolveResult, error) {
			return api.OnResolveResult{Path: "assets.js", Namespace: "hostjs-assets"}, nil
		})
		b.OnLoad(api.OnLoadOptions{Filter: `.*`, Namespace: "hostjs-assets"}, func(api.OnLoadArgs) (api.OnLoadResult, error) {
			text := "export const assetNames = " + namesJSON + ";"
			return api.OnLoadResult{Contents: &text, Loader: api.LoaderJS}, nil
		})
	}}
}

func writeIfChanged(path string, b []byte) error {
	if old, err := os.ReadFile(path); err == nil && bytes.Equal(old, b) {
		return nil
	}
	return os.WriteFile(path, b, 0o644)
}
