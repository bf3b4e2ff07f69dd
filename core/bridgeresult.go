package core

import (
	"bytes"
	stdjson "encoding/json"

	"github.com/codemode-go/codemode/internal/catalog"
	json "github.com/codemode-go/codemode/internal/jsonx"
)

// callAnswer is what tools.call hands the guest: {"tool": id, "result": res}.
type callAnswer struct {
	tool   string
	result catalog.Result
}

// marshalAnswer is json.Marshal of a job's value. A callAnswer whose result
// is only details (a client tool's, most tools') is written without
// reflection: the same bytes json.Marshal writes for the map
// {"result": res, "tool": id} (keys sorted; details compacted and
// HTML-escaped as encoding/json does for a RawMessage), which a test holds
// it to. Anything else goes through json.Marshal as before, errors included.
func marshalAnswer(v any) ([]byte, error) {
	c, ok := v.(callAnswer)
	if !ok {
		return json.Marshal(v)
	}
	if b, ok := c.fast(); ok {
		return b, nil
	}
	return json.Marshal(map[string]any{"tool": c.tool, "result": c.result})
}

// fast writes the answer for a result of details only; false otherwise.
// Details that json.Marshal would copy unchanged (valid, nothing to compact
// or escape: what JSON.stringify answers for a client tool) and an id that it
// would only quote are copied as they are.
func (c callAnswer) fast() ([]byte, bool) {
	r := c.result
	if len(r.Content) > 0 || r.IsError || len(r.Details) == 0 {
		return nil, false
	}
	details := []byte(r.Details)
	if !unchangedByMarshal(details) || !stdjson.Valid(details) {
		var compact, escaped bytes.Buffer
		if err := stdjson.Compact(&compact, r.Details); err != nil {
			return nil, false
		}
		stdjson.HTMLEscape(&escaped, compact.Bytes())
		details = escaped.Bytes()
	}
	out := make([]byte, 0, len(details)+len(c.tool)+32)
	out = append(out, `{"result":{"details":`...)
	out = append(out, details...)
	out = append(out, `},"tool":`...)
	if quotedAsIs(c.tool) {
		out = append(append(append(out, '"'), c.tool...), '"')
	} else {
		tool, err := json.Marshal(c.tool)
		if err != nil {
			return nil, false
		}
		out = append(out, tool...)
	}
	return append(out, '}'), true
}

// unchangedByMarshal reports whether b holds nothing json.Marshal's compact
// and HTML escape of a RawMessage would change: no whitespace, no <, > or &,
// no 0xE2 (the first byte of U+2028 and U+2029).
func unchangedByMarshal(b []byte) bool {
	for _, c := range b {
		switch c {
		case ' ', '\t', '\n', '\r', '<', '>', '&', 0xE2:
			return false
		}
	}
	return true
}

// quotedAsIs reports whether json.Marshal writes s as s in quotes: printable
// ASCII without a quote, a backslash or an HTML character.
func quotedAsIs(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			return false
		}
	}
	return true
}
