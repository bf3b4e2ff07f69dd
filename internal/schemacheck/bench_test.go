package schemacheck

import (
	"bytes"
	"testing"

	v6 "github.com/santhosh-tekuri/jsonschema/v6"
)

// The figures behind the choice of validator (RESULTS.md, page-start-2): this
// package against santhosh-tekuri/jsonschema/v6, which the catalog used before,
// on a typical tool's parameters, in the same run.
const benchSchema = `{"type":"object","properties":{"number":{"type":"integer","minimum":1},
"patch":{"type":"object","properties":{"title":{"type":"string","maxLength":200},"state":{"enum":["open","closed"]},
"labels":{"type":"array","items":{"type":"string"}}},"additionalProperties":false,"minProperties":1}},
"required":["number","patch"],"additionalProperties":false}`

var benchInputs = map[string]string{
	"valid":   `{"number":7,"patch":{"title":"a title","state":"open","labels":["bug","ui","p1"]}}`,
	"invalid": `{"number":"7","patch":{"state":"weird","labels":[1]}}`,
}

func BenchmarkCompile(b *testing.B) {
	b.Run("schemacheck", func(b *testing.B) {
		for b.Loop() {
			if _, err := Compile([]byte(benchSchema)); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("santhosh-tekuri-v6", func(b *testing.B) {
		for b.Loop() {
			compileV6(b)
		}
	})
}

func BenchmarkValidate(b *testing.B) {
	s, err := Compile([]byte(benchSchema))
	if err != nil {
		b.Fatal(err)
	}
	old := compileV6(b)
	for name, in := range benchInputs {
		b.Run("schemacheck/"+name, func(b *testing.B) {
			for b.Loop() {
				if _, err := s.Validate([]byte(in)); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("santhosh-tekuri-v6/"+name, func(b *testing.B) {
			for b.Loop() {
				v, err := v6.UnmarshalJSON(bytes.NewReader([]byte(in)))
				if err != nil {
					b.Fatal(err)
				}
				_ = old.Validate(v)
			}
		})
	}
}

func compileV6(b *testing.B) *v6.Schema {
	doc, err := v6.UnmarshalJSON(bytes.NewReader([]byte(benchSchema)))
	if err != nil {
		b.Fatal(err)
	}
	c := v6.NewCompiler()
	c.DefaultDraft(v6.Draft2020)
	if err := c.AddResource("urn:bench", doc); err != nil {
		b.Fatal(err)
	}
	s, err := c.Compile("urn:bench")
	if err != nil {
		b.Fatal(err)
	}
	return s
}
