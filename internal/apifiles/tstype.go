package apifiles

import (
	"bytes"
	"encoding/json"
	"sort"
	"strings"
)

const (
	maxPropDocBytes   = 300
	maxToolDocBytes   = 2000
	maxToolDocLines   = 24
	maxToolDeclBytes  = 16 << 10
	maxSchemaForTypes = 256 << 10
)

// parseSchema decodes a JSON schema keeping numbers exact; nil when unusable.
func parseSchema(raw json.RawMessage) map[string]any {
	if len(raw) == 0 || len(raw) > maxSchemaForTypes {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var m map[string]any
	if dec.Decode(&m) != nil {
		return nil
	}
	return m
}

// paramDocs returns "@param name description" lines for top-level properties.
func paramDocs(schema map[string]any) []string {
	props, _ := schema["properties"].(map[string]any)
	keys := make([]string, 0, len(props))
	for k := range props {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var out []string
	for _, k := range keys {
		pm, _ := props[k].(map[string]any)
		d, _ := pm["description"].(string)
		d = strings.TrimSpace(cleanText(d, maxPropDocBytes, false))
		if d == "" {
			continue
		}
		out = append(out, "@param "+cleanText(k, 128, false)+" "+d)
	}
	return out
}
