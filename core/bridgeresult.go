package core

import (
	"github.com/codemode-go/codemode/internal/catalog"
	"github.com/codemode-go/codemode/internal/jsonw"
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
// jsonw copies details that need no compacting or escaping (what
// JSON.stringify answers for a client tool) as they are.
func (c callAnswer) fast() ([]byte, bool) {
	r := c.result
	if len(r.Content) > 0 || r.IsError || len(r.Details) == 0 {
		return nil, false
	}
	out := make([]byte, 0, len(r.Details)+len(c.tool)+32)
	out, ok := jsonw.Raw(append(out, `{"result":{"details":`...), r.Details)
	if !ok {
		return nil, false
	}
	out = jsonw.String(append(out, `},"tool":`...), c.tool)
	return append(out, '}'), true
}
