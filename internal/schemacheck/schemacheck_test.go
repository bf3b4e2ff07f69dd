package schemacheck

import (
	"strings"
	"testing"
)

const secret = "SECRET-VALUE-42"

func TestValidate(t *testing.T) {
	obj := `{"type":"object","properties":{"n":{"type":"integer","minimum":0},"tags":{"type":"array","items":{"type":"string","pattern":"^[a-z]+$"}},
		"state":{"enum":["open","closed","all"]},"token":{"type":"string","minLength":3,"maxLength":5}},"required":["n"],"additionalProperties":false}`
	for _, tc := range []struct {
		name, schema, in string
		want             string // "" = valid; else "pointer keyword: message" of the first problem
	}{
		{"valid", obj, `{"n":1,"tags":["a"],"state":"open"}`, ""},
		{"integer as 1.0", obj, `{"n":1.0}`, ""},
		{"wrong type", obj, `{"n":"` + secret + `"}`, "/n type: got string, want integer"},
		{"fraction", obj, `{"n":1.5}`, "/n type: got number, want integer"},
		{"missing", obj, `{}`, "/ required: missing property 'n'"},
		{"extra", obj, `{"n":1,"x":2,"y":3}`, "/ additionalProperties: additional properties 'x', 'y' not allowed"},
		{"item", obj, `{"n":1,"tags":[1]}`, "/tags/0 type: got number, want string"},
		{"pattern hides value", obj, `{"n":1,"tags":["` + secret + `"]}`, "/tags/0 pattern: pattern: does not match '^[a-z]+$'"},
		{"minimum hides value", obj, `{"n":-7}`, "/n minimum: minimum: must be >= 0"},
		{"enum", obj, `{"n":1,"state":"` + secret + `"}`, "/state enum: value must be one of 'open', 'closed', 'all'"},
		{"minLength", obj, `{"n":1,"token":"ab"}`, "/token minLength: minLength: must be at least 3 characters long"},
		{"maxLength", obj, `{"n":1,"token":"` + secret + `"}`, "/token maxLength: maxLength: must be at most 5 characters long"},
		{"root type", obj, `[1]`, "/ type: got array, want object"},
		{"ref", `{"$defs":{"p":{"type":"integer"}},"properties":{"a":{"$ref":"#/$defs/p"}}}`, `{"a":"x"}`, "/a type: got string, want integer"},
		{"percent-encoded ref", `{"$defs":{"a b":{"type":"integer"}},"properties":{"x":{"$ref":"#/$defs/a%20b"}}}`, `{"x":"s"}`, "/x type: got string, want integer"},
		{"anchor", `{"$defs":{"p":{"$anchor":"P","type":"integer"}},"properties":{"a":{"$ref":"#P"}}}`, `{"a":"x"}`, "/a type: got string, want integer"},
		{"draft-07 definitions", `{"$schema":"http://json-schema.org/draft-07/schema#","definitions":{"p":{"type":"integer"}},"items":{"$ref":"#/definitions/p"}}`, `["x"]`, "/0 type: got string, want integer"},
		{"draft-04 read as 2020-12", `{"$schema":"http://json-schema.org/draft-04/schema#","type":"object","required":["a"]}`, `{}`, "/ required: missing property 'a'"},
		{"prefixItems", `{"prefixItems":[{"type":"string"}],"items":false}`, `["a",2]`, "/1 false: no value is allowed here"},
		{"anyOf", `{"anyOf":[{"type":"string"},{"type":"integer"}]}`, `true`, "/ anyOf: matches none of the 2 alternatives of anyOf"},
		{"oneOf twice", `{"oneOf":[{"type":"number"},{"type":"integer"}]}`, `1`, "/ oneOf: matches 2 alternatives of oneOf, must match exactly one"},
		{"not", `{"not":{"type":"string"}}`, `"` + secret + `"`, "/ not: must not match the schema under not"},
		{"if then", `{"if":{"properties":{"k":{"const":"a"}}},"then":{"required":["b"]}}`, `{"k":"a"}`, "/ required: missing property 'b'"},
		{"minProperties", `{"minProperties":1}`, `{}`, "/ minProperties: minProperties: must have at least 1 property"},
		{"maxItems", `{"maxItems":2}`, `[1,2,3]`, "/ maxItems: maxItems: must have at most 2 items"},
		{"const", `{"const":"x"}`, `"` + secret + `"`, "/ const: value must be 'x'"},
		{"uniqueItems", `{"uniqueItems":true}`, `[1,2,1]`, "/ uniqueItems: items 0 and 2 are equal; items must be unique"},
		{"dependentRequired", `{"dependentRequired":{"a":["b"]}}`, `{"a":1}`, "/ dependentRequired: property 'a' requires property 'b'"},
		{"patternProperties", `{"patternProperties":{"^x":{"type":"integer"}},"additionalProperties":false}`, `{"xa":"s"}`, "/xa type: got string, want integer"},
		{"escaped pointer", `{"additionalProperties":{"type":"integer"}}`, `{"a/b~c":"s"}`, "/a~1b~0c type: got string, want integer"},
		{"unevaluatedProperties, library only", `{"allOf":[{"properties":{"a":true}}],"unevaluatedProperties":false}`, `{"a":1,"b":2}`, "/ : does not match the schema"},
		{"recursive tree", `{"type":"object","properties":{"kids":{"type":"array","items":{"$ref":"#"}},"n":{"type":"integer"}}}`, `{"kids":[{"kids":[{"n":"x"}]}]}`, "/kids/0/kids/0/n type: got string, want integer"},
		{"false schema", `false`, `1`, "/ false: no value is allowed here"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := Compile([]byte(tc.schema))
			if err != nil {
				t.Fatalf("compile: %v", err)
			}
			probs, err := s.Validate([]byte(tc.in))
			if err != nil {
				t.Fatalf("validate: %v", err)
			}
			if tc.want == "" {
				if len(probs) != 0 {
					t.Fatalf("want valid, got %v", probs)
				}
				return
			}
			if len(probs) == 0 {
				t.Fatalf("want %q, got valid", tc.want)
			}
			got := probs[0].Pointer() + " " + probs[0].Keyword + ": " + probs[0].Message
			if got != tc.want {
				t.Fatalf("got  %q\nwant %q", got, tc.want)
			}
			for _, p := range probs {
				if strings.Contains(p.Message, secret) || strings.Contains(p.At, secret) {
					t.Fatalf("a problem quotes the instance's value: %+v", p)
				}
			}
		})
	}
}

func TestCompileRefuses(t *testing.T) {
	for _, tc := range []struct{ name, schema, want string }{
		{"not JSON", `{"type":`, "not valid JSON"},
		{"trailing", `{} {}`, "not valid JSON"},
		{"unknown type", `{"properties":{"a":{"type":"nope"}}}`, `at /properties/a: type 'nope' is not a JSON type`},
		{"unknown type in list", `{"type":["string",1]}`, `type lists '1'`},
		{"type of the wrong kind", `{"type":1}`, "type must be a JSON type name"},
		{"remote ref", `{"$ref":"file:///etc/passwd"}`, "a $ref points outside the schema"},
		{"keyword of the wrong type", `{"minimum":"x"}`, `keyword "minimum" has a string value`},
		{"draft-04 boolean exclusiveMinimum", `{"$schema":"http://json-schema.org/draft-04/schema#","exclusiveMinimum":true}`, `keyword "exclusiveMinimum" has a bool value`},
		{"bad pattern", `{"pattern":"(?<=a)"}`, "not a regular expression"},
		{"ref loop", `{"anyOf":[{"$ref":"#"}]}`, "loops back"},
		{"ref loop through defs", `{"$defs":{"a":{"allOf":[{"$ref":"#/$defs/b"}]},"b":{"not":{"$ref":"#/$defs/a"}}},"$ref":"#/$defs/a"}`, "loops back"},
		{"ref loop by id", `{"$id":"http://x/s","oneOf":[{"$ref":"http://x/s"}]}`, "loops back"},
		{"deep", strings.Repeat(`{"not":`, 300) + `{}` + strings.Repeat(`}`, 300), "deeper than"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Compile([]byte(tc.schema))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err %v, want %q", err, tc.want)
			}
			for _, leak := range []string{"Go struct", "schemaWithoutMethods", "float64", "Resolve", "jsonschema"} {
				if strings.Contains(err.Error(), leak) {
					t.Fatalf("error leaks %q: %v", leak, err)
				}
			}
		})
	}
}

func TestValidateNotJSON(t *testing.T) {
	s, err := Compile([]byte(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Validate([]byte(`{"a":`)); err != ErrNotJSON {
		t.Fatalf("err %v", err)
	}
}

// TestConcurrentValidate: a catalog validates one compiled schema from many
// runs at once (run with -race).
func TestConcurrentValidate(t *testing.T) {
	s, err := Compile([]byte(`{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"]}`))
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan string)
	for i := 0; i < 8; i++ {
		go func() {
			msg := ""
			for j := 0; j < 50; j++ {
				if probs, _ := s.Validate([]byte(`{"n":"x"}`)); len(probs) != 1 || probs[0].Message != "got string, want integer" {
					msg = "wrong problems"
				}
				if probs, _ := s.Validate([]byte(`{"n":1}`)); len(probs) != 0 {
					msg = "valid input refused"
				}
			}
			done <- msg
		}()
	}
	for i := 0; i < 8; i++ {
		if msg := <-done; msg != "" {
			t.Fatal(msg)
		}
	}
}
