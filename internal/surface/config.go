package surface

import (
	"fmt"

	"github.com/codemode-go/codemode/internal/config"
)

// Languages the exec tool can accept.
const (
	LangJavaScript = config.LanguageJavaScript
	LangTypeScript = config.LanguageTypeScript
)

// languages returns the enabled languages in canonical order; an empty list
// means both (the zero Config). tools.codeMode itself is parsed and bounded by
// package config; this only orders what it allowed.
func languages(c config.Config) ([]string, error) {
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
	return out, nil
}
