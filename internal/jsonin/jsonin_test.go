package jsonin

import (
	"strings"
	"testing"
)

type req struct {
	App   string            `json:"app"`
	Rate  int64             `json:"rate"`
	On    bool              `json:"on"`
	Tags  []string          `json:"tags"`
	Heads map[string]string `json:"heads"`
}

// TestRefusalsSpeakJSON: every refusal names the value and the field in JSON
// terms; none carries encoding/json's wording or a Go type name.
func TestRefusalsSpeakJSON(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{"app":"x","rate":2,"on":true,"tags":["a"],"heads":{"k":"v"}}`, ""},
		{"\xff", "options is not valid UTF-8"},
		{``, "options is not complete JSON"},
		{`{"app":`, "options is not complete JSON"},
		{`{"app" 1}`, "options is malformed JSON at byte"},
		{`[1]`, "options must be a JSON object, not array"},
		{`{"app":5}`, `options field "app" must be a string, not number`},
		{`{"rate":"fast"}`, `options field "rate" must be a number, not string`},
		{`{"on":1}`, `options field "on" must be a boolean, not number`},
		{`{"tags":{}}`, `options field "tags" must be an array, not object`},
		{`{"heads":{"k":1}}`, `must be a string, not number`},
		{`{"nope":1}`, `options has an unknown field "nope"`},
		{`{} {}`, "options has data after the JSON value"},
	} {
		var v req
		err := Decode([]byte(c.in), &v, "options")
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%q: %v", c.in, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%q: got %v, want %q", c.in, err, c.want)
		}
		if err != nil {
			for _, leak := range []string{"json:", "Go ", "struct", "int64", "jsonin", "map["} {
				if strings.Contains(err.Error(), leak) {
					t.Errorf("%q: %q leaks %q", c.in, err, leak)
				}
			}
		}
	}
}
