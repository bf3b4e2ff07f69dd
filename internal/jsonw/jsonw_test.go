package jsonw_test

import (
	stdjson "encoding/json"
	"testing"

	"github.com/codemode-go/codemode/internal/jsonw"
)

var strs = []string{
	"", "plain", `quote " back \ slash`, "<b>&amp;</b>", "ctl \x00\x01\x08\x0c\n\r\t\x1f\x7f",
	"line\u2028para\u2029", "é 😀", "bad \xff utf8 \xe2\x80", "\xed\xa0\x80 surrogate", "\ufffd",
}

var raws = []string{
	`{"pong":0}`, " { \"a\" : [ 1 , 2.50 , null ] ,\n\"b\":{} } ", `"<b>&</b>` + "\u2028\u2029" + `"`,
	`"é 😀 \ud83d\ude00"`, `null`, `12e3`, `[]`, `{"a":1} x`, `{"a":`, ``, ` `, `"\u2028"`, `"bad \xff"`,
}

func TestString(t *testing.T) {
	for _, s := range strs {
		checkString(t, s)
	}
}

func TestRaw(t *testing.T) {
	for _, r := range raws {
		checkRaw(t, []byte(r))
	}
	checkRaw(t, nil)
}

func TestCollections(t *testing.T) {
	for _, ss := range [][]string{nil, {}, strs} {
		want, _ := stdjson.Marshal(ss)
		if got := jsonw.Strings([]byte("x"), ss); string(got) != "x"+string(want) {
			t.Errorf("Strings(%q) = %s, want %s", ss, got[1:], want)
		}
	}
	m := map[string]string{}
	for i, s := range strs {
		m[s] = strs[len(strs)-1-i]
	}
	for _, mm := range []map[string]string{nil, {}, m, {"b": "1", "a": "2", "<": "&"}} {
		want, _ := stdjson.Marshal(mm)
		if got := jsonw.StringMap(nil, mm); string(got) != string(want) {
			t.Errorf("StringMap(%q) = %s, want %s", mm, got, want)
		}
	}
	if got := string(jsonw.Int(jsonw.Key(jsonw.Key(nil, "a", true), "<n>", false), int64(-42))); got != `"a":,"\u003cn\u003e":-42` {
		t.Errorf("Key/Int: %s", got)
	}
}

func checkString(t *testing.T, s string) {
	t.Helper()
	want, err := stdjson.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	if got := jsonw.String([]byte("["), s); string(got) != "["+string(want) {
		t.Fatalf("String(%q) = %s, want %s", s, got[1:], want)
	}
}

func checkRaw(t *testing.T, raw []byte) {
	t.Helper()
	want, err := stdjson.Marshal(stdjson.RawMessage(raw))
	got, ok := jsonw.Raw([]byte("["), raw)
	if ok != (err == nil) || (ok && string(got) != "["+string(want)) || (!ok && string(got) != "[") {
		t.Fatalf("Raw(%q) = %s, %v; encoding/json %s, %v", raw, got, ok, want, err)
	}
}

func FuzzString(f *testing.F) {
	for _, s := range strs {
		f.Add(s)
	}
	f.Fuzz(checkString)
}

func FuzzRaw(f *testing.F) {
	for _, r := range raws {
		f.Add([]byte(r))
	}
	f.Fuzz(checkRaw)
}
