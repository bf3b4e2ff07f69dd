package tsx

import (
	"sync"

	"github.com/go-sourcemap/sourcemap"
)

// LineMap maps positions in the JavaScript body TransformMapped returned back
// to the TypeScript the model wrote. It reads esbuild's source map with
// go-sourcemap (the decoder Sentry and Elastic APM use) rather than a
// hand-written VLQ decoder, on the first Position only: most cells never
// report an error position, and a page's core would otherwise decode each
// cell's map twice (in tsx.wasm and after Decode).
type LineMap struct {
	parsed func() *sourcemap.Consumer // nil when the map does not parse
	// preamble is how many lines of esbuild helpers precede the body: in
	// esbuild's output the wrapper's header line sits between them and the body.
	preamble int
	raw      []byte // esbuild's map, for Encode
}

// newLineMap keeps esbuild's map for Position; preamble is how many lines of
// helpers precede the wrapper's header in esbuild's output.
func newLineMap(raw []byte, preamble int) *LineMap {
	return &LineMap{preamble: preamble, raw: raw, parsed: sync.OnceValue(func() *sourcemap.Consumer {
		sm, err := sourcemap.Parse("cell.js.map", raw)
		if err != nil {
			return nil
		}
		return sm
	})}
}

// Position maps line and column (1-based, as QuickJS prints them) of the body
// to the TypeScript source (1-based). ok is false for code the transform
// added (helpers), which has no TypeScript position.
func (m *LineMap) Position(line, col int) (tsLine, tsCol int, ok bool) {
	if m == nil || line < 1 {
		return 0, 0, false
	}
	if line <= m.preamble {
		return 0, 0, false
	}
	sm := m.parsed()
	if sm == nil {
		return 0, 0, false
	}
	gen := line + 1 // the wrapper's header line, cut from the body
	_, _, l, c, ok := sm.Source(gen, max(col-1, 0))
	if !ok || l < 2 { // line 1 of the input is the wrapper's header
		return 0, 0, false
	}
	return l - 1, c + 1, true
}
