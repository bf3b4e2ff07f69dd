package config

import (
	"errors"
	"testing"
)

// FuzzParse: Parse sees operator- and possibly attacker-supplied files; it must
// never panic, must answer either a valid Config or an *Error, and a Config it
// returns must pass Validate.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"", "true", "false", "null", "{}", `{enabled: true}`, `{tools:{codeMode:{enabled:true,timeoutMs:100}}}`,
		`{timeoutMs: 1e400}`, `{timeoutMs: -0x10}`, `{languages: ["javascript", "typescript"]}`,
		`{searchDefaultLimit: 8, maxSearchLimit: 50,}`, "/* c */ {a: 'b' // x\n}", `[[[[[[`, `{"\u0000": 1}`,
		`{timeoutMs: 1.5}`, `{timeoutMs: Infinity}`, `{tools: null}`, `'str'`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := Parse(data)
		if err != nil {
			var ce *Error
			if !errors.As(err, &ce) {
				t.Fatalf("error %v is %T, want *Error", err, err)
			}
			if len(err.Error()) > 1024 {
				t.Fatalf("error message is %d bytes", len(err.Error()))
			}
			return
		}
		if err := c.Validate(); err != nil {
			t.Fatalf("Parse(%q) returned a config that fails Validate: %v", data, err)
		}
	})
}
