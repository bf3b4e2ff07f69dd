// Command build bundles the web IDE into build/web: web/src/main.js with
// CodeMirror 6 (from node_modules, pinned in package.json) becomes one minified
// ES module, ide.js; web/src/ide.css becomes ide.css; web/index.html is copied.
//
// It uses esbuild's Go API (already a dependency of the core, for TypeScript),
// so the IDE needs no Node bundler. The hostjs shim is not bundled: ide.js
// imports ./codemode.js, which `./build.sh build` writes beside it, so the page
// and the shim's worker load the shim's own assets from one place.
//
//	go run ./web/build [-out build/web] [-dev]
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"

	"github.com/evanw/esbuild/pkg/api"
)

func main() {
	out := flag.String("out", "build/web", "output directory")
	src := flag.String("src", "web", "the web/ directory (index.html, src/)")
	dev := flag.Bool("dev", false, "no minification, inline source maps")
	flag.Parse()
	if err := Bundle(*src, *out, *dev); err != nil {
		fmt.Fprintln(os.Stderr, "web/build:", err)
		os.Exit(1)
	}
}

// Bundle writes ide.js, ide.css and index.html from srcDir into outDir.
func Bundle(srcDir, outDir string, dev bool) error {
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		return err
	}
	opts := api.BuildOptions{
		EntryPoints: []string{
			filepath.Join(srcDir, "src", "main.js"),
			filepath.Join(srcDir, "src", "ide.css"),
		},
		EntryNames: "ide",
		Outdir:     outDir,
		Bundle:     true,
		Write:      true,
		Format:     api.FormatESModule,
		Platform:   api.PlatformBrowser,
		Target:     api.ES2022,
		// The shim is served beside ide.js; keep its import as written.
		External:          []string{"./codemode.js"},
		MinifyWhitespace:  !dev,
		MinifyIdentifiers: !dev,
		MinifySyntax:      !dev,
		LegalComments:     api.LegalCommentsEndOfFile,
		LogLevel:          api.LogLevelWarning,
	}
	if dev {
		opts.Sourcemap = api.SourceMapInline
	}
	res := api.Build(opts)
	if len(res.Errors) > 0 {
		msgs := api.FormatMessages(res.Errors, api.FormatMessagesOptions{Kind: api.ErrorMessage})
		return fmt.Errorf("bundling failed:\n%s", joinLines(msgs))
	}
	if err := bundleTSWorker(srcDir, outDir, dev); err != nil {
		return err
	}
	html, err := os.ReadFile(filepath.Join(srcDir, "index.html"))
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(outDir, "index.html"), html, 0o644)
}

// bundleTSWorker writes ts.worker.js: the IDE's TypeScript language service
// (web/src/tsworker.js with typescript, @typescript/vfs and the es2023 lib
// declarations) as a separate module worker. The page starts it only after its
// core is ready, so its megabytes never delay the first result and ide.js
// stays small.
func bundleTSWorker(srcDir, outDir string, dev bool) error {
	entry := filepath.Join(srcDir, "src", "tsworker.js")
	if _, err := os.Stat(entry); err != nil {
		return nil // a source tree without typed help (tests of the bundler)
	}
	nodeModules := filepath.Join(srcDir, "..", "node_modules")
	res := api.Build(api.BuildOptions{
		EntryPoints:       []string{entry},
		Outfile:           filepath.Join(outDir, "ts.worker.js"),
		Bundle:            true,
		Write:             true,
		Format:            api.FormatESModule,
		Platform:          api.PlatformBrowser,
		Target:            api.ES2022,
		MinifyWhitespace:  !dev,
		MinifyIdentifiers: !dev,
		MinifySyntax:      !dev,
		LegalComments:     api.LegalCommentsEndOfFile,
		LogLevel:          api.LogLevelError,
		Plugins:           []api.Plugin{tsLibsPlugin(filepath.Join(nodeModules, "typescript", "lib"), "es2023")},
		// typescript.js mentions Node's modules behind checks that never pass in a worker.
		External: []string{"fs", "path", "os", "crypto", "buffer", "source-map-support", "inspector", "perf_hooks", "module", "child_process"},
	})
	if len(res.Errors) > 0 {
		msgs := api.FormatMessages(res.Errors, api.FormatMessagesOptions{Kind: api.ErrorMessage})
		return fmt.Errorf("bundling ts.worker.js failed:\n%s", joinLines(msgs))
	}
	return nil
}

// tsLibsPlugin serves the import "tslibs": a module whose default export maps
// "/lib.<name>.d.ts" to the text of lib <root> and every lib it references
// (/// <reference lib="..."/>), read from typescript/lib.
func tsLibsPlugin(libDir, root string) api.Plugin {
	return api.Plugin{Name: "tslibs", Setup: func(b api.PluginBuild) {
		b.OnResolve(api.OnResolveOptions{Filter: `^tslibs$`}, func(api.OnResolveArgs) (api.OnResolveResult, error) {
			return api.OnResolveResult{Path: "tslibs", Namespace: "tslibs"}, nil
		})
		b.OnLoad(api.OnLoadOptions{Filter: `.*`, Namespace: "tslibs"}, func(api.OnLoadArgs) (api.OnLoadResult, error) {
			libs, err := readLibs(libDir, root)
			if err != nil {
				return api.OnLoadResult{}, err
			}
			js, err := json.Marshal(libs)
			if err != nil {
				return api.OnLoadResult{}, err
			}
			text := "export default " + string(js) + ";"
			return api.OnLoadResult{Contents: &text, Loader: api.LoaderJS}, nil
		})
	}}
}

var libRef = regexp.MustCompile(`(?m)^/// <reference lib="([a-z0-9.]+)" />`)

// readLibs follows lib references from root: "es2023" -> lib.es2023.d.ts,
// lib.es2022.d.ts, ... lib.es5.d.ts and the decorators libs es5 names.
func readLibs(libDir, root string) (map[string]string, error) {
	out := map[string]string{}
	queue := []string{root}
	for len(queue) > 0 {
		name := queue[0]
		queue = queue[1:]
		key := "/lib." + name + ".d.ts"
		if _, ok := out[key]; ok {
			continue
		}
		b, err := os.ReadFile(filepath.Join(libDir, "lib."+name+".d.ts"))
		if err != nil {
			return nil, fmt.Errorf("typescript lib %q: %w (run ./build.sh deps)", name, err)
		}
		out[key] = string(b)
		for _, m := range libRef.FindAllStringSubmatch(string(b), -1) {
			queue = append(queue, m[1])
		}
	}
	return out, nil
}

func joinLines(ss []string) string {
	out := ""
	for _, s := range ss {
		out += s
	}
	return out
}
