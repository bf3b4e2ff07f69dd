package config

import (
	"reflect"
	"testing"
)

// TestEmptyObjectIsDefault: Parse's shortcut for {} answers what the JSON5
// parser and fromObject make of it.
func TestEmptyObjectIsDefault(t *testing.T) {
	n, err := DecodeJSON5([]byte("{}"))
	if err != nil {
		t.Fatal(err)
	}
	full, err := fromValue(plain(n))
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range []string{"{}", " {}\n"} {
		got, err := Parse([]byte(in))
		if err != nil || !reflect.DeepEqual(got, full) {
			t.Fatalf("Parse(%q) = %+v, %v; the parser's %+v", in, got, err, full)
		}
	}
}
