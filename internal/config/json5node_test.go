package config_test

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/codemode-go/codemode/internal/config"
)

func TestDecodeJSON5(t *testing.T) {
	for _, c := range []struct{ in, json string }{
		{`{a: 1, 'b': "x", "c": [true, null,],}`, `{"a":1,"b":"x","c":[true,null]}`},
		{"// comment\n{ /* block\n */ n: 0x1F, m: -.5, p: +2, q: 5., e: 1e3 }", `{"n":31,"m":-0.5,"p":2,"q":5,"e":1e3}`},
		{`'it\'s \u00e9 \x41 \
next'`, `"it's é A next"`},
		{`{inf: Infinity, nan: -NaN}`, `{"inf":null,"nan":null}`},
		{`"\ud83d\ude00"`, `"😀"`},
		{`[]`, `[]`},
		{`[1.e00, -2.E+1, 0.5e-1, 12345678901234567890]`, `[1,-20,0.5e-1,12345678901234567890]`},
	} {
		n, err := config.DecodeJSON5([]byte(c.in))
		if err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		if got := n.JSON(); got != c.json {
			t.Errorf("%q: JSON() = %s, want %s", c.in, got, c.json)
		}
		if !json.Valid([]byte(n.JSON())) {
			t.Errorf("%q: JSON() is not valid JSON", c.in)
		}
	}
}

func TestDecodeJSON5Positions(t *testing.T) {
	n, err := config.DecodeJSON5([]byte("{\n  listen: 'x',\n  auth: {\n    tokens: [],\n  },\n}"))
	if err != nil {
		t.Fatal(err)
	}
	if n.KeyPos[1] != (config.Pos{Line: 3, Col: 3}) || n.Get("auth").KeyPos[0] != (config.Pos{Line: 4, Col: 5}) {
		t.Fatalf("positions: %v %v", n.KeyPos, n.Get("auth").KeyPos)
	}
}

func TestDecodeJSON5Errors(t *testing.T) {
	for _, c := range []struct{ in, pos, msg string }{
		{`{a: 1`, "1:6", "expected ',' or '}'"},
		{`{a: 1} x`, "1:8", "after the value"},
		{"{\n a: 1,\n a: 2 }", "3:2", `"a" appears more than once`},
		{`{a: 01}`, "1:5", "leading zeros"},
		{`{a: tru}`, "1:5", "expected a value"},
		{`"abc`, "1:5", "unterminated string"},
		{"'a\nb'", "1:3", "line break"},
		{`/* x`, "1:1", "unterminated /* comment"},
		{``, "1:1", "empty"},
		{`{a: 1x}`, "1:6", "in a number"},
		{strings.Repeat("[", 70) + strings.Repeat("]", 70), "1:65", "deeper than 64"},
		{"\"\xff\"", "1:1", "UTF-8"},
	} {
		_, err := config.DecodeJSON5([]byte(c.in))
		se, ok := err.(*config.SyntaxError)
		if !ok || se.Pos.String() != c.pos || !strings.Contains(se.Msg, c.msg) {
			t.Errorf("%q: err = %v, want %s: ...%s", c.in, err, c.pos, c.msg)
		}
	}
}

// FuzzDecodeJSON5: never panics; whatever plain JSON encoding/json accepts
// (valid UTF-8, objects without duplicate keys, at most 64 levels) decodes, and
// to the same value; whatever it decodes renders as JSON encoding/json accepts.
func FuzzDecodeJSON5(f *testing.F) {
	for _, s := range []string{`{"a":[1,2,{"b":null}]}`, `{a:1,}`, `'x'`, `0x10`, `[1e400]`, `"\u0000"`, `{"a":"\ud800"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		n, err := config.DecodeJSON5(in)
		if err != nil {
			if json.Valid(in) && utf8.Valid(in) && strictJSON(in) {
				t.Fatalf("%q is JSON (no duplicate keys, shallow) but DecodeJSON5 refused it: %v", in, err)
			}
			return
		}
		out := n.JSON()
		var v any
		if json.Unmarshal([]byte(out), &v) != nil {
			t.Fatalf("JSON() of %q is not JSON: %s", in, out)
		}
		var want any
		if json.Unmarshal(in, &want) == nil {
			a, _ := json.Marshal(v)
			b, _ := json.Marshal(want)
			if string(a) != string(b) {
				t.Fatalf("%q: decoded %s, encoding/json %s", in, a, b)
			}
		}
	})
}

// strictJSON reports valid JSON whose objects have no duplicate keys and whose
// nesting stays within DecodeJSON5's 64 levels: the subset both must accept.
func strictJSON(in []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(in))
	type frame struct {
		object bool
		keys   map[string]bool
		key    bool // the next string token of an object is a key
	}
	var stack []*frame
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return true
		}
		if err != nil {
			return false
		}
		var top *frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		switch d := tok.(type) {
		case json.Delim:
			switch d {
			case '{', '[':
				if top != nil && top.object {
					top.key = true
				}
				stack = append(stack, &frame{object: d == '{', keys: map[string]bool{}, key: true})
				if len(stack) >= 64 { // the 64th level could hold no value
					return false
				}
			default:
				stack = stack[:len(stack)-1]
			}
			continue
		case string:
			if top != nil && top.object && top.key {
				if top.keys[d] {
					return false
				}
				top.keys[d] = true
				top.key = false
				continue
			}
		}
		if top != nil && top.object {
			top.key = true
		}
	}
}
