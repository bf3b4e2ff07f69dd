package tsx

import (
	"encoding/json"
	"errors"
)

// The wire form of TransformMapped's outcome, for a core that runs the
// transform in another program (hostjs's tsx.wasm, which a page loads only
// for TypeScript cells): Encode there, Decode in the core. The same transform
// and the same LineMap run on both sides of it.
type wire struct {
	JS       string          `json:"js,omitempty"`
	Map      json.RawMessage `json:"map,omitempty"`
	Preamble int             `json:"preamble,omitempty"`
	// Error is the transform's error text, a Diagnostic's
	// "typescript:LINE:COL: ..." as the model reads it.
	Error string `json:"error,omitempty"`
}

// Encode renders TransformMapped's results as JSON text for Decode.
func Encode(js string, lm *LineMap, err error) []byte {
	w := wire{JS: js}
	if err != nil {
		w = wire{Error: err.Error()}
	} else if lm != nil {
		w.Map, w.Preamble = lm.raw, lm.preamble
	}
	b, _ := json.Marshal(w) // strings, an int and a map esbuild wrote: always marshals
	return b
}

// Decode reads Encode's text back into TransformMapped's results. A
// transform error comes back with its text unchanged.
func Decode(b []byte) (string, *LineMap, error) {
	var w wire
	if err := json.Unmarshal(b, &w); err != nil {
		return "", nil, errors.New("typescript: the transform answered something that is not its output")
	}
	if w.Error != "" {
		return "", nil, errors.New(w.Error)
	}
	if len(w.Map) == 0 {
		return w.JS, nil, nil
	}
	// A map that does not parse maps no position (Position answers ok false),
	// as for code the transform added.
	return w.JS, newLineMap(w.Map, w.Preamble), nil
}
