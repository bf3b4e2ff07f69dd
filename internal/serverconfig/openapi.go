//go:build !js && !wasip1

package serverconfig

import (
	"fmt"
	"log/slog"

	"github.com/codemode-go/codemode/core/openapi"
	"github.com/codemode-go/codemode/internal/catalog"
)

// OpenAPITools loads every configured OpenAPI document and returns its
// operations as tools. A document that cannot be read is an error naming the
// config key, the document and the JSON pointer (the server must not start
// with half its tools); an operation the tools cannot express is logged and
// left out.
func OpenAPITools(srcs []OpenAPISource, log *slog.Logger) ([]catalog.Tool, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	var out []catalog.Tool
	for _, s := range srcs {
		api, err := openapi.Load(s.Spec, openapi.Options{Name: s.Name, BaseURL: s.BaseURL, Headers: s.Headers, Trusted: s.Trusted})
		if err != nil {
			return nil, fmt.Errorf("openapi.%s: %w", s.Name, err)
		}
		for _, sk := range api.Skipped() {
			log.Warn("OpenAPI operation left out", "openapi", s.Name, "operation", sk.Pointer, "reason", sk.Reason)
		}
		log.Info("OpenAPI document loaded", "openapi", s.Name, "tools", len(api.Tools()))
		out = append(out, api.Tools()...)
	}
	return out, nil
}
