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
	"flag"
	"fmt"
	"os"
	"path/filepath"

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
	html, err := os.ReadFile(filepath.Join(srcDir, "index.html"))
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(outDir, "index.html"), html, 0o644)
}

func joinLines(ss []string) string {
	out := ""
	for _, s := range ss {
		out += s
	}
	return out
}
