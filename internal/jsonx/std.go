//go:build codemode_hostjs

package jsonx

import "encoding/json"

// The same names from encoding/json (see the package comment in goccy.go).
type (
	RawMessage         = json.RawMessage
	Number             = json.Number
	UnmarshalTypeError = json.UnmarshalTypeError
	Decoder            = json.Decoder
	Encoder            = json.Encoder
)

// The same functions from encoding/json.
var (
	Marshal    = json.Marshal
	Unmarshal  = json.Unmarshal
	Valid      = json.Valid
	NewDecoder = json.NewDecoder
	NewEncoder = json.NewEncoder
)
