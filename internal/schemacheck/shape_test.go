package schemacheck

import (
	"reflect"
	"testing"
)

// shapeSchemas are schemas on both sides of the shortcut: the first ones
// accept every instance of some JSON types, the rest look inside.
var shapeSchemas = []string{
	`true`, `{}`, `{"type":"object"}`, `{"type":"object","properties":{}}`,
	`{"type":"object","description":"d","title":"t","properties":{"a":{},"b":true,"c":{"description":"x"}},"additionalProperties":true}`,
	`{"$schema":"http://json-schema.org/draft-07/schema#","type":["string","null"]}`,
	`{"type":["object","array","number","string","boolean","null"]}`,
	`{"type":"object","properties":{"a":{"type":["object","array","number","string","boolean","null"]}}}`,
	`false`, `{"type":"integer"}`, `{"type":["number","integer"]}`, `{"type":"object","required":["a"]}`,
	`{"type":"object","properties":{"n":{"type":"number"}}}`, `{"type":"object","additionalProperties":false}`,
	`{"type":"string","format":"email"}`, `{"type":"object","properties":{"a":false}}`, `{"not":{}}`,
}

var shapeInstances = []string{
	`{}`, ` {"a":1} `, `{"a":"x\"y","b":[1,2.5e3,-0]}`, `[]`, `[1,{"a":null}]`, `"s"`, `"1e400"`, `1`, `-2.5`,
	`1.5e300`, `true`, `false`, `null`, `{"a":1e400}`, `[1e999]`, `-1e400`, `1e-400`, `{"a":1}{"b":2}`,
	`{"a":1} x`, `{`, ``, `  `, `{"a":"\u00e9\\"}`, `{"a":1,"a":"x"}`, "\"\xff\"", `[` + zeros(310) + `1]`,
	`[0.` + zeros(400) + `1]`, `{"a":` + "1" + zeros(320) + `}`,
}

func zeros(n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = '0'
	}
	return string(b)
}

// TestShortcutAgreesWithValidator: whatever the shortcut accepts, the
// validator accepts too, and Validate answers exactly what the validator
// answers (problems and errors alike) for every schema and instance.
func TestShortcutAgreesWithValidator(t *testing.T) {
	shortcuts := 0
	for _, schema := range shapeSchemas {
		s, err := Compile([]byte(schema))
		if err != nil {
			t.Fatalf("%s: %v", schema, err)
		}
		if s.accepts != 0 {
			shortcuts++
		}
		for _, in := range shapeInstances {
			assertSameAnswer(t, s, schema, in)
		}
	}
	if shortcuts != 8 {
		t.Fatalf("%d schemas take the shortcut, want the first 8", shortcuts)
	}
}

func TestAcceptedShapes(t *testing.T) {
	for _, tc := range []struct {
		schema string
		want   shapes
	}{
		{`true`, shapeAll},
		{`{"type":"object"}`, shapeObject},
		{`{"type":["string","null"]}`, shapeString | shapeNull},
		{`{"type":"object","properties":{"a":{}}}`, shapeObject},
		{`{"type":"integer"}`, 0},
		{`{"type":"object","properties":{"a":{"type":"string"}}}`, 0},
		{`{"type":"object","minProperties":1}`, 0},
		{`{"$defs":{"a":{}},"$ref":"#/$defs/a"}`, 0},
	} {
		s, err := Compile([]byte(tc.schema))
		if err != nil {
			t.Fatalf("%s: %v", tc.schema, err)
		}
		if s.accepts != tc.want {
			t.Errorf("%s: accepts %b, want %b", tc.schema, s.accepts, tc.want)
		}
	}
}

func TestAllByShape(t *testing.T) {
	for _, tc := range []struct {
		schemas []string
		want    bool
	}{
		{nil, true},
		{[]string{``, ` `, `{"type":"object"}`, `{"type":"object","properties":{}}`}, true},
		{[]string{`{"type":"object"}`, `{"type":"object","properties":{"n":{"type":"number"}}}`}, false},
		{[]string{`{"type":"object"}`, `{"type":7}`}, false}, // does not compile: the validator says why
	} {
		raws := make([][]byte, len(tc.schemas))
		for i, s := range tc.schemas {
			raws[i] = []byte(s)
		}
		if got := AllByShape(raws...); got != tc.want {
			t.Errorf("AllByShape(%q) = %v, want %v", tc.schemas, got, tc.want)
		}
	}
}

func assertSameAnswer(t *testing.T, s *Schema, schema, in string) {
	t.Helper()
	got, gotErr := s.Validate([]byte(in))
	want, wantErr := s.validate([]byte(in))
	if !reflect.DeepEqual(got, want) || gotErr != wantErr {
		t.Fatalf("schema %s, instance %q: Validate = %v, %v; the validator alone = %v, %v", schema, in, got, gotErr, want, wantErr)
	}
}

// FuzzShortcut: for any instance, Validate with the shortcut answers what the
// validator alone answers, for schemas that take the shortcut and some that
// do not.
func FuzzShortcut(f *testing.F) {
	for i, in := range shapeInstances {
		f.Add(uint8(i), in)
	}
	compiled := make([]*Schema, len(shapeSchemas))
	for i, schema := range shapeSchemas {
		s, err := Compile([]byte(schema))
		if err != nil {
			f.Fatal(err)
		}
		compiled[i] = s
	}
	f.Fuzz(func(t *testing.T, which uint8, in string) {
		i := int(which) % len(compiled)
		assertSameAnswer(t, compiled[i], shapeSchemas[i], in)
	})
}
