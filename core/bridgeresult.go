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
func (c callAnswer) fast() ([]byte, bool) {
	r := c.result
	if len(r.Content) > 0 || r.IsError || len(r.Details) == 0 {
		return nil, false
	}
	var compact bytes.Buffer
	if err := stdjson.Compact(&compact, r.Details); err != nil {
		return nil, false
	}
	tool, err := json.Marshal(c.tool)
	if err != nil {
		return nil, false
	}
	var out bytes.Buffer
	out.Grow(compact.Len() + len(tool) + 32)
	out.WriteString(`{"result":{"details":`)
	stdjson.HTMLEscape(&out, compact.Bytes())
	out.WriteString(`},"tool":`)
	out.Write(tool)
	out.WriteByte('}')
	return out.Bytes(), true
}
