package tsx

import "github.com/go-sourcemap/sourcemap"

// LineMap maps positions in the JavaScript body TransformMapped returned back
// to the TypeScript the model wrote. It reads esbuild's source map with
// go-sourcemap (the decoder Sentry and Elastic APM use) rather than a
// hand-written VLQ decoder.
type LineMap struct {
	sm *sourcemap.Consumer
	// preamble is how many lines of esbuild helpers precede the body: in
	// esbuild's output the wrapper's header line sits between them and the body.
	preamble int
	raw      []byte // esbuild's map, for Encode
}

// newLineMap reads esbuild's map; preamble is how many lines of helpers
// precede the wrapper's header in esbuild's output.
func newLineMap(raw []byte, preamble int) (*LineMap, error) {
	sm, err := sourcemap.Parse("cell.js.map", raw)
	if err != nil {
		return nil, err
	}
	return &LineMap{sm: sm, preamble: preamble, raw: raw}, nil
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
	gen := line + 1 // the wrapper's header line, cut from the body
	_, _, l, c, ok := m.sm.Source(gen, max(col-1, 0))
	if !ok || l < 2 { // line 1 of the input is the wrapper's header
		return 0, 0, false
	}
	return l - 1, c + 1, true
}
