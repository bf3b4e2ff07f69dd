package serverconfig_test

import (
	"strings"
	"testing"

	"github.com/codemode-go/codemode/internal/serverconfig"
)

// FuzzParse: any file is a Config or an error that starts with the file name
// (and, for anything past the syntax, a position), never a panic.
func FuzzParse(f *testing.F) {
	for _, s := range []string{`{}`, `{listen: "127.0.0.1:1"}`, `{tools: {codeMode: {enabled: true, timeoutMs: 5}}}`,
		`{mcp: {servers: {a: {command: "x", args: ["y"]}}}}`, `{auth: {tokens: [{principal: "p", tokenEnv: "E"}]}}`, `[`, `{cors: {allowedOrigins: [1]}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := serverconfig.Parse("f.json5", data, func(string) (string, bool) { return "env-token-0123456789", true })
		if err != nil {
			if !strings.HasPrefix(err.Error(), "f.json5") {
				t.Fatalf("error without the file name: %v", err)
			}
			return
		}
		if c.Listen == "" {
			t.Fatal("a config without a listen address")
		}
	})
}
