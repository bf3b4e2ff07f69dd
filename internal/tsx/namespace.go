//go:build !codemode_hostjs

package tsx

import (
	"strings"

	"github.com/codemode-go/codemode/internal/cellcheck"
	"github.com/evanw/esbuild/pkg/api"
)

// nsOptions compile one namespace declaration at the top level of a file,
// where TypeScript allows it, into one line of JavaScript.
var nsOptions = api.TransformOptions{
	Loader:           api.LoaderTS,
	Target:           api.ES2023,
	Charset:          api.CharsetUTF8,
	LogLevel:         api.LogLevelSilent,
	MinifyWhitespace: true,
}

// liftNamespaces compiles the cell's top-level namespace declarations on their
// own and puts the JavaScript in their place. A cell is compiled as a function
// body, and TypeScript allows `namespace N { export const v = 1 }` only at the
// top level of a file, so without this every namespace was a syntax error.
// The JavaScript (`var N; (N2 => { N2.v = 1; })(N || (N = {}));`) is valid
// TypeScript anywhere. Line numbers of what follows stay the same: the
// compiled declaration takes one line, padded with the newlines it replaced.
// A declaration esbuild refuses is left as it was, for the main transform to
// report with its position.
func liftNamespaces(src string) string {
	blocks := cellcheck.NamespaceBlocks(src)
	if len(blocks) == 0 {
		return src
	}
	var b strings.Builder
	last := 0
	for _, bl := range blocks {
		part := src[bl[0]:bl[1]]
		res := api.Transform(part, nsOptions)
		if len(res.Errors) > 0 {
			continue
		}
		js := strings.TrimSpace(string(res.Code))
		b.WriteString(src[last:bl[0]])
		b.WriteString(js)
		if n := strings.Count(part, "\n") - strings.Count(js, "\n"); n > 0 {
			b.WriteString(strings.Repeat("\n", n))
		}
		last = bl[1]
	}
	b.WriteString(src[last:])
	return b.String()
}
