// Package surface builds the model-visible tool surface of a Code Mode run: the
// activation rules, the exec and wait tool definitions (with the bounded quick
// index), the direct-only tools that stay visible, the fail-closed final payload
// check, and the provider-specific tool shapes.
package surface

import (
	"bytes"
	"errors"
	"fmt"

	json "github.com/goccy/go-json"
)

// Languages the exec tool can accept.
const (
	LangJavaScript = "javascript"
	LangTypeScript = "typescript"
)

// Config is the part of tools.codeMode the surface needs.
type Config struct {
	// Enabled is the only activation gate (tools.codeMode.enabled: true or the
	// shorthand tools.codeMode: true).
	Enabled bool `json:"enabled"`
	// Languages enabled for exec; empty means both.
	Languages []string `json:"languages,omitempty"`
}

// ParseConfig reads tools.codeMode, which is either a boolean or an object. An
// omitted value, false, or an object without enabled: true leaves Code Mode
// disabled; other fields never enable it on their own.
func ParseConfig(raw []byte) (Config, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return Config{}, nil
	}
	var b bool
	if err := json.Unmarshal(raw, &b); err == nil {
		return Config{Enabled: b}, nil
	}
	var obj struct {
		Enabled   any      `json:"enabled"`
		Languages []string `json:"languages"`
	}
	if err := json.Unmarshal(raw, &obj); err != nil {
		return Config{}, fmt.Errorf("tools.codeMode: must be a boolean or an object: %w", err)
	}
	cfg := Config{Enabled: obj.Enabled == true, Languages: obj.Languages}
	if _, err := cfg.languages(); err != nil {
		return Config{}, err
	}
	return cfg, nil
}

// languages returns the enabled languages in canonical order.
func (c Config) languages() ([]string, error) {
	if len(c.Languages) == 0 {
		return []string{LangJavaScript, LangTypeScript}, nil
	}
	js, ts := false, false
	for _, l := range c.Languages {
		switch l {
		case LangJavaScript:
			js = true
		case LangTypeScript:
			ts = true
		default:
			return nil, fmt.Errorf("tools.codeMode.languages: unsupported language %q", l)
		}
	}
	var out []string
	if js {
		out = append(out, LangJavaScript)
	}
	if ts {
		out = append(out, LangTypeScript)
	}
	if len(out) == 0 {
		return nil, errors.New("tools.codeMode.languages: empty")
	}
	return out, nil
}
