package jsonin

import (
	"bytes"
	stdjson "encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

type req struct {
	App    string             `json:"app"`
	Rate   int64              `json:"rate"`
	Port   uint16             `json:"port"`
	Ratio  float64            `json:"ratio"`
	On     bool               `json:"on"`
	Tags   []string           `json:"tags"`
	Heads  map[string]string  `json:"heads"`
	Raw    stdjson.RawMessage `json:"raw"`
	Any    any                `json:"any"`
	Next   *req               `json:"next"`
	Hidden string             `json:"-"`
	Plain  string
}

// leaks are words that would show the decoder or Go types to the caller.
var leaks = []string{"json:", "Go ", "struct", "int64", "uint16", "jsonin", "map[", "[]string", "reflect", "goroutine"}

// TestRefusalsSpeakJSON: every refusal names the value and the field in JSON
// terms, with the rule it broke; none carries a decoder's wording or a Go
// type name.
func TestRefusalsSpeakJSON(t *testing.T) {
	for _, c := range []struct {
		in   string
		kind Kind
		want string
	}{
		{`{"app":"x","rate":-2,"port":8080,"ratio":1e3,"on":true,"tags":["a"],"heads":{"k":"v"},"raw":[{"a":1}],"any":{"b":[null]},"next":{"app":"y"},"Plain":"p"}`, 0, ""},
		{`{"tags":null,"heads":null,"raw":null,"any":null,"next":null}`, 0, ""},
		{"\xff", Malformed, "options is not valid UTF-8"},
		{``, Malformed, "options is empty"},
		{`{"app":`, Malformed, "options is not valid JSON: it ends early"},
		{`{"app" 1}`, Malformed, "options is not valid JSON: invalid character '1' after object key (at byte 7)"},
		{`[1]`, WrongType, "the options must be an object (got an array)"},
		{`null`, WrongType, "the options must be an object (got null)"},
		{`{"app":5}`, WrongType, `field "app" must be a string (got a number)`},
		{`{"app":null}`, WrongType, `field "app" must be a string (got null)`},
		{`{"rate":"fast"}`, WrongType, `field "rate" must be an integer (got a string)`},
		{`{"rate":1.5}`, WrongType, `field "rate" must be an integer in range (got 1.5)`},
		{`{"port":70000}`, WrongType, `field "port" must be an integer in range (got 70000)`},
		{`{"port":-1}`, WrongType, `field "port" must be an integer in range (got -1)`},
		{`{"ratio":1e400}`, WrongType, `field "ratio" must be a number in range (got 1e400)`},
		{`{"on":1}`, WrongType, `field "on" must be a boolean (got a number)`},
		{`{"tags":{}}`, WrongType, `field "tags" must be an array (got an object)`},
		{`{"tags":["a",2]}`, WrongType, `field "tags[1]" must be a string (got a number)`},
		{`{"heads":{"k":1}}`, WrongType, `field "heads.k" must be a string (got a number)`},
		{`{"next":{"rate":true}}`, WrongType, `field "next.rate" must be an integer (got a boolean)`},
		{`{"nope":1}`, UnknownField, `field "nope" is not a known field (known: app, rate, port, ratio, on, tags, heads, raw, any, next, Plain)`},
		{`{"App":"x"}`, UnknownField, `field "App" is not a known field`},
		{`{"-":"x"}`, UnknownField, `field "-" is not a known field`},
		{`{"app":"a","app":"b"}`, DuplicateField, `field "app" appears more than once`},
		{`{"heads":{"k":"a","k":"b"}}`, DuplicateField, `field "heads.k" appears more than once`},
		{`{"raw":` + strings.Repeat("[", 200) + strings.Repeat("]", 200) + `}`, TooDeep, `field "raw" nests deeper than 128 levels`},
		{strings.Repeat(`{"next":`, 200) + `null` + strings.Repeat("}", 200), TooDeep, "nests deeper than 128 levels"},
		{`{} {}`, Trailing, "options has data after the JSON value (at byte 3)"},
		{`{"` + strings.Repeat("k", 300) + `":1}`, UnknownField, "…\" is not a known field"},
	} {
		var v req
		err := Decode([]byte(c.in), &v, "options")
		if c.want == "" {
			if err != nil {
				t.Errorf("%.60q: %v", c.in, err)
			}
			continue
		}
		var je *Error
		if !errors.As(err, &je) || !strings.Contains(je.Msg, c.want) || je.Kind != c.kind {
			t.Errorf("%.60q: got %#v, want kind %d with %q", c.in, err, c.kind, c.want)
			continue
		}
		for _, leak := range leaks {
			if strings.Contains(je.Msg, leak) {
				t.Errorf("%.60q: %q leaks %q", c.in, je.Msg, leak)
			}
		}
	}
}

// TestDecodesWhatItAccepts: an accepted value is built as encoding/json builds it.
func TestDecodesWhatItAccepts(t *testing.T) {
	in := `{"app":"x","rate":-2,"port":8080,"ratio":0.5,"on":true,"tags":["a","b"],"heads":{"k":"v"},"raw":{"z":[1]},"any":[1,"2"],"next":{"app":"y","next":null},"Plain":"p"}`
	var got, want req
	if err := Decode([]byte(in), &got, "options"); err != nil {
		t.Fatal(err)
	}
	if err := stdjson.Unmarshal([]byte(in), &want); err != nil {
		t.Fatal(err)
	}
	a, _ := stdjson.Marshal(got)
	b, _ := stdjson.Marshal(want)
	if !bytes.Equal(a, b) {
		t.Fatalf("decoded %s, want %s", a, b)
	}
}

// FuzzDecode: decoding never panics; whatever it accepts is one valid JSON
// value that encoding/json decodes (unknown fields disallowed) to the same
// thing; every refusal is an *Error free of Go type names.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{
		`{"app":"x","rate":2,"tags":["a"],"heads":{"k":"v"},"raw":[{"a":1}],"next":{"port":1}}`,
		`{"app":5}`, `{"App":"x"}`, `{"app":"1","app":"2"}`, `{} x`, `{`, `[]`, `null`, `{"next":null}`, "{\"app\":\"\xff\"}",
		`{"on":tru}`, `{"raw":[[[[[[[[]]]]]]]]}`, `{"port":65536}`, `{"rate":1e2}`, `{"ratio":-0}`, `{"any":{"a":{"b":[]}}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		var v req
		err := Decode(body, &v, "options")
		if err != nil {
			var je *Error
			if !errors.As(err, &je) || je.Msg == "" {
				t.Fatalf("refusal is not an *Error with a message: %#v", err)
			}
			for _, leak := range leaks {
				if strings.Contains(je.Msg, leak) && !strings.Contains(string(body), leak) {
					t.Fatalf("message %q shows %q", je.Msg, leak)
				}
			}
			return
		}
		if !stdjson.Valid(body) {
			t.Fatalf("accepted invalid JSON %q", body)
		}
		dec := stdjson.NewDecoder(bytes.NewReader(body))
		dec.DisallowUnknownFields()
		var ref req
		if err := dec.Decode(&ref); err != nil {
			t.Fatalf("accepted %q that encoding/json refuses: %v", body, err)
		}
		if !reflect.DeepEqual(v, ref) {
			a, _ := stdjson.Marshal(v)
			b, _ := stdjson.Marshal(ref)
			t.Fatalf("decoded %s (%#v), encoding/json decoded %s (%#v)", a, v, b, ref)
		}
	})
}

// odd holds the types the walk leaves to Unmarshal (a ",string" option, an
// UnmarshalJSON method, an array) beside ones it builds, embedded fields and
// pointers to free-form values.
type odd struct {
	Shared
	Quoted int                 `json:"quoted,string"`
	Via    *viaMethod          `json:"via"`
	Pair   [2]int              `json:"pair"`
	Raw    *stdjson.RawMessage `json:"raw"`
	Any    *any                `json:"any"`
	Nums   []float32           `json:"nums"`
	Small  map[string]int8     `json:"small"`
}

// viaMethod decodes itself: N is the length of its JSON.
type viaMethod struct {
	N int `json:"n"`
}

func (v *viaMethod) UnmarshalJSON(b []byte) error { v.N = len(b); return nil }

// TestDecodeBuildsAsUnmarshal: what Decode builds is what encoding/json's
// Unmarshal builds, for the types the walk fills and the ones it leaves to
// Unmarshal; a refused message leaves the value untouched.
func TestDecodeBuildsAsUnmarshal(t *testing.T) {
	for _, in := range []string{
		`{"code":"c","language":"ts","nums":[1.5,-2],"small":{"a":-128},"raw":  [ 1, {"a" : 2} ] ,"any":{"x":[1,"y",null]}}`,
		`{"code":null,"raw":null,"any":null,"nums":[],"small":{}}`,
		`{"raw":"\u2028 <","any":3}`,
		`{"via":{"n":1}}`, `{"via":null}`, `{"pair":[1,2]}`, `{"code":"c","pair":[3]}`,
		` { "nums" : [ 1 , 2 ] , "raw" : { } } `,
	} {
		var got, want odd
		if err := Decode([]byte(in), &got, "request body"); err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		if err := stdjson.Unmarshal([]byte(in), &want); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\ndecoded   %#v\nUnmarshal %#v", in, got, want)
		}
	}
	var q odd // Unmarshal refuses a ",string" field's unquoted number, so Decode does
	if err := Decode([]byte(`{"quoted":12}`), &q, "request body"); err == nil || stdjson.Unmarshal([]byte(`{"quoted":12}`), &q) == nil {
		t.Fatalf("a \",string\" field's number was accepted: %v", err)
	}
	c := "keep"
	for _, v := range []odd{{}, {Shared: Shared{Code: &c}}} {
		was := v
		if err := Decode([]byte(`{"code":"x","nums":[1],"small":{"a":999}}`), &v, "request body"); err == nil || !reflect.DeepEqual(v, was) || c != "keep" {
			t.Fatalf("refused message changed the value: %v %+v", err, v)
		}
	}
}

// Shared is embedded by withShared, as a request type embeds the arguments it
// shares with another front.
type Shared struct {
	Code *string `json:"code"`
	Lang string  `json:"language"`
}

type withShared struct {
	Shared
	Scope *struct {
		ID string `json:"id"`
	} `json:"scope"`
}

// TestEmbeddedStructsArePromoted: an untagged embedded struct's fields are
// members of the outer object, as encoding/json promotes them; unknown-field
// refusals list them in place.
func TestEmbeddedStructsArePromoted(t *testing.T) {
	in := `{"code":"1","language":"ts","scope":{"id":"s"}}`
	var got, want withShared
	if err := Decode([]byte(in), &got, "request body"); err != nil {
		t.Fatal(err)
	}
	if err := stdjson.Unmarshal([]byte(in), &want); err != nil {
		t.Fatal(err)
	}
	if *got.Code != "1" || got.Lang != "ts" || got.Scope.ID != "s" || *want.Code != *got.Code {
		t.Fatalf("decoded %+v", got)
	}
	err := Decode([]byte(`{"Shared":{}}`), &got, "request body")
	var je *Error
	if !errors.As(err, &je) || je.Kind != UnknownField || !strings.Contains(je.Msg, "(known: code, language, scope)") {
		t.Fatalf("got %v", err)
	}
	if err := Decode([]byte(`{"code":1}`), &got, "request body"); err == nil || !strings.Contains(err.Error(), `field "code" must be a string`) {
		t.Fatalf("got %v", err)
	}
}

// TestFillsLeavesMethodsToUnmarshal: a type whose UnmarshalJSON is promoted
// from an embedded field, named or not, is Unmarshal's to build.
func TestFillsLeavesMethodsToUnmarshal(t *testing.T) {
	type named struct{ viaMethod }
	for _, typ := range []reflect.Type{reflect.TypeFor[viaMethod](), reflect.TypeFor[named](), reflect.TypeFor[struct{ viaMethod }]()} {
		if fills(typ) {
			t.Errorf("fills(%v) = true", typ)
		}
	}
	for _, typ := range []reflect.Type{reflect.TypeFor[string](), reflect.TypeFor[*string](), reflect.TypeFor[[]int](), reflect.TypeFor[map[string]bool](), reflect.TypeFor[struct{ A int }](), reflect.TypeFor[stdjson.Number](), rawMessageType} {
		if !fills(typ) {
			t.Errorf("fills(%v) = false", typ)
		}
	}
}

var plainSeeds = []string{
	`{"app":"x","rate":-2,"port":8080,"on":true,"tags":["a",""],"heads":{"k":"v"},"raw":[{"a":1.5e3,"b":[true,false,null]}],"next":{"app":"y","next":null},"Plain":"é"}`,
	` { "code" : "c" , "language":"ts", "nums":[1,2], "small":{"a":-128}, "raw": { } } `,
	`{"rate":01}`, `{"rate":-0}`, `{"port":-0}`, `{"port":65536}`, `{"rate":1e2}`, `{"app":"a\"b"}`, `{"app":"` + "\x01" + `"}`,
	`{"tags":[1,]}`, `{"tags":[,]}`, `{"heads":{"a":"1","a":"2"}}`, `{"app":"x",}`, `{"on":truex}`, `{"next":nullx}`, `{"raw":-}`,
	`{"raw":[[[[[[[[]]]]]]]]}`, `{"tags":null,"heads":null,"raw":null,"next":null}`, `{} `, ` {}x`, `[]`, `null`, `{"code":null}`,
	`{"app":"line\nnext \"q\" \\ \/ \b\f\r\t \u00e9 \u0000 \u20AC","heads":{"k\n":"\u0041"}}`, `{"app":"\ud83d\ude00"}`,
	`{"app":"\udc00"}`, `{"app":"\u12"}`, `{"app":"\x"}`, `{"app":"\u+123"}`, `{"a\u0070p":"x"}`, `{"app":"\`,
}

// FuzzPlainDecode: whatever plainDecode accepts, the walk accepts and builds
// alike, for a type of every kind the walk fills and one with kinds it leaves.
func FuzzPlainDecode(f *testing.F) {
	for _, s := range plainSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		if !utf8.Valid(body) {
			return
		}
		checkPlain[req](t, body)
		checkPlain[odd](t, body)
	})
}

func TestPlainDecode(t *testing.T) {
	accepted := 0
	for _, s := range plainSeeds {
		if checkPlain[req](t, []byte(s)) {
			accepted++
		}
		checkPlain[odd](t, []byte(s))
	}
	if accepted < 3 {
		t.Fatalf("plainDecode accepted %d of the seeds", accepted)
	}
	// A cell's newlines and quotes are escapes: the plain path takes them.
	var v req
	if !plainDecode([]byte(`{"app":"a\n\"b\" \u00e9"}`), reflect.ValueOf(&v).Elem()) || v.App != "a\n\"b\" é" {
		t.Fatalf("plainDecode of escapes: %q", v.App)
	}
}

// checkPlain reports whether plainDecode took body as a T, failing the test
// when the walk refuses it or builds another value.
func checkPlain[T any](t *testing.T, body []byte) bool {
	t.Helper()
	var fast, walked T
	if !plainDecode(body, reflect.ValueOf(&fast).Elem()) {
		return false
	}
	if err := walk(body, &walked, "request body"); err != nil || !reflect.DeepEqual(fast, walked) {
		t.Fatalf("%q: plainDecode built %#v, the walk %#v (%v)", body, fast, walked, err)
	}
	return true
}

// BenchmarkDecode: an exec message by Decode (plainDecode takes it) and by
// the walk alone, as every message went before.
func BenchmarkDecode(b *testing.B) {
	type scope struct {
		AgentID    string `json:"agentId"`
		SessionID  string `json:"sessionId"`
		SessionKey string `json:"sessionKey"`
		AgentRunID string `json:"agentRunId"`
	}
	type execReq struct {
		Code        *string `json:"code"`
		Language    *string `json:"language"`
		RestartSafe *bool   `json:"restartSafe"`
		Scope       *scope  `json:"scope"`
	}
	msgs := map[string][]byte{
		"plain":   []byte(`{"code":"const r = await tools.search('files'); return r.length","restartSafe":false,"scope":{"agentId":"a","sessionId":"s1","sessionKey":"k1","agentRunId":"r1"}}`),
		"escaped": []byte(`{"code":"const r = await tools.search(\"files\"); return r.length","restartSafe":false,"scope":{"agentId":"a","sessionId":"s1","sessionKey":"k1","agentRunId":"r1"}}`),
	}
	for mname, msg := range msgs {
		for name, dec := range map[string]func([]byte, any, string) error{"Decode": Decode, "walk": walk} {
			b.Run(mname+"/"+name, func(b *testing.B) {
				for b.Loop() {
					var v execReq
					if err := dec(msg, &v, "request body"); err != nil || v.Scope == nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
