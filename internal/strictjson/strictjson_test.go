package strictjson

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func TestCanonicalRefusesWhatDecodersReadDifferently(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"lone high surrogate escape", `{"a":"\ud800"}`, "lone surrogate"},
		{"lone low surrogate escape", `"\udc00x"`, "lone surrogate"},
		{"high surrogate followed by a non-surrogate", `"\ud800\u0041"`, "lone surrogate"},
		{"surrogate encoded as raw bytes (CESU-8)", "\"\xed\xa0\x80\"", "invalid UTF-8"},
		{"invalid UTF-8", "\"\xff\"", "invalid UTF-8"},
		{"number overflows to Infinity", `[1e400]`, "out of range"},
		{"negative overflow", `{"n":-1e999}`, "out of range"},
		{"duplicate keys", `{"a":1,"a":2}`, `duplicate key "a"`},
		{"duplicate keys spelled differently", `{"a":1,"\u0061":2}`, `duplicate key "a"`},
		{"trailing data", `{} {}`, "after the value"},
		{"too deep", strings.Repeat("[", MaxDepth+2) + strings.Repeat("]", MaxDepth+2), "too deeply"},
		{"control character", "\"a\x01\"", "control character"},
		{"leading zeros", `01`, "after the value"},
		{"NaN", `NaN`, "invalid value"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Canonical([]byte(tc.in))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Canonical(%q) = %v, want an error containing %q", tc.in, err, tc.want)
			}
		})
	}
}

func TestCanonicalCompactsValidJSON(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{` { "a" : [ 1 , 2.5e3 , -0 ] , "b" : "x\"y\u00e9😀" , "c" : null } `, `{"a":[1,2.5e3,-0],"b":"x\"y\u00e9😀","c":null}`},
		{`"\ud83d\ude00"`, `"\ud83d\ude00"`},
		{`[true,false,{}]`, `[true,false,{}]`},
		{`1.7976931348623157e308`, `1.7976931348623157e308`},
	} {
		got, err := Canonical([]byte(tc.in))
		if err != nil || string(got) != tc.want {
			t.Errorf("Canonical(%q) = %s, %v; want %s", tc.in, got, err, tc.want)
		}
	}
}

// The guest's JSON.stringify escapes lone surrogates; the well-formed mode
// turns exactly those into U+FFFD and refuses everything Canonical refuses.
func TestCanonicalWellFormedReplacesLoneSurrogateEscapes(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`"a\ud800b"`, `"a\ufffdb"`},
		{`"\udc00"`, `"\ufffd"`},
		{`"\ud800\u0041"`, `"\ufffd\u0041"`},
		{`"\ud800\ud800\udc00"`, `"\ufffd\ud800\udc00"`},
		{`{"\ud800x":["\udfff"]}`, `{"\ufffdx":["\ufffd"]}`},
		{`"\ud83d\ude00 ok"`, `"\ud83d\ude00 ok"`},
		{` "x\ud800" `, `"x\ufffd"`},
	} {
		got, err := CanonicalWellFormed([]byte(tc.in))
		if err != nil || string(got) != tc.want {
			t.Errorf("CanonicalWellFormed(%q) = %s, %v; want %s", tc.in, got, err, tc.want)
		}
	}
	for _, in := range []string{"\"\xed\xa0\x80\"", "\"\xff\"", `[1e400]`, `{"a":1,"a":2}`, `{"\ud800":1,"\udc00":2}`, `"\ud80"`} {
		if _, err := CanonicalWellFormed([]byte(in)); err == nil {
			t.Errorf("CanonicalWellFormed(%q) accepted", in)
		}
	}
}

// FuzzCanonical: whatever Canonical accepts, encoding/json accepts too and
// reads as the same value, and Canonical is idempotent.
func FuzzCanonical(f *testing.F) {
	for _, s := range []string{`{"a":[1,2,{"b":null}]}`, `"\ud800"`, `1e400`, `{"a":1,"a":2}`, `[1,"x\u00e9",true]`, "\"\xed\xa0\x80\""} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		out, err := Canonical(b)
		if err != nil {
			return
		}
		if !json.Valid(b) {
			t.Fatalf("accepted what encoding/json refuses: %q", b)
		}
		var x, y any
		if err := json.Unmarshal(b, &x); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(out, &y); err != nil {
			t.Fatalf("output %q does not decode: %v", out, err)
		}
		if !reflect.DeepEqual(x, y) {
			t.Fatalf("%q and its canonical form %q differ", b, out)
		}
		again, err := Canonical(out)
		if err != nil || string(again) != string(out) {
			t.Fatalf("not idempotent: %q -> %q (%v)", out, again, err)
		}
	})
}

// FuzzCanonicalWellFormed: what the well-formed mode writes is strict JSON
// (Canonical accepts it unchanged), and it accepts whatever Canonical accepts,
// with the same output.
func FuzzCanonicalWellFormed(f *testing.F) {
	for _, s := range []string{`"\ud800"`, `{"\udc00a":"\ud800\ud800\udc00"}`, `[1,"x"]`, "\"\xed\xa0\x80\"", `"\ud800\u"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		out, err := CanonicalWellFormed(b)
		if strict, serr := Canonical(b); serr == nil && (err != nil || string(out) != string(strict)) {
			t.Fatalf("%q: strict %q, well-formed %q (%v)", b, strict, out, err)
		}
		if err != nil {
			return
		}
		again, err := Canonical(out)
		if err != nil || string(again) != string(out) {
			t.Fatalf("well-formed output %q is not strict: %q (%v)", out, again, err)
		}
	})
}
