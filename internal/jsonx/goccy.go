//go:build !codemode_hostjs

// Package jsonx is the JSON codec of the core's hot paths: goccy/go-json,
// faster than encoding/json natively and API-compatible with it, except in
// hostjs's codemode.wasm (the codemode_hostjs tag), where encoding/json
// stands in: goccy's generated encoders add 4.3 MB to that binary (0.7 MB
// brotli, a third of what a page downloads before its first result; see
// tests/bench/RESULTS.md), and a page's cells move little JSON. Both sides of
// the tag expose the same names, so the code above them is one.
package jsonx

import json "github.com/goccy/go-json"

// The encoding/json API the core uses, from goccy/go-json.
type (
	RawMessage         = json.RawMessage
	Number             = json.Number
	UnmarshalTypeError = json.UnmarshalTypeError
	Decoder            = json.Decoder
	Encoder            = json.Encoder
)

// The encoding/json functions the core uses, from goccy/go-json.
var (
	Marshal    = json.Marshal
	Unmarshal  = json.Unmarshal
	Valid      = json.Valid
	NewDecoder = json.NewDecoder
	NewEncoder = json.NewEncoder
)
