package schemacheck

import (
	"strings"
	"testing"
)

// FuzzValidate: any schema and instance either compile and validate or are
// refused, never panic; a refused instance always has a problem, and no problem
// quotes a string value of the instance.
func FuzzValidate(f *testing.F) {
	f.Add(`{"type":"object","properties":{"a":{"type":"string","pattern":"^x"}},"required":["b"]}`, `{"a":"SECRETzz"}`)
	f.Add(`{"anyOf":[{"$ref":"#/$defs/a"}],"$defs":{"a":{"enum":[1,"q"]}}}`, `"SECRETzz"`)
	f.Add(`{"prefixItems":[{"const":1}],"items":{"maxLength":2},"uniqueItems":true}`, `[2,"SECRETzz","SECRETzz"]`)
	f.Add(`{"not":{"minimum":3},"if":{"type":"integer"},"then":{"multipleOf":2}}`, `5`)
	f.Fuzz(func(t *testing.T, schema, instance string) {
		s, err := Compile([]byte(schema))
		if err != nil {
			return
		}
		probs, err := s.Validate([]byte(instance))
		if err != nil {
			return
		}
		for _, p := range probs {
			if p.Message == "" {
				t.Fatalf("empty message: %+v", p)
			}
			if strings.Contains(p.Message, "SECRETzz") && !strings.Contains(schema, "SECRETzz") {
				t.Fatalf("a problem quotes the instance: %+v", p)
			}
		}
	})
}
