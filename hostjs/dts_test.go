// Package hostjs_test checks hostjs/codemode.d.ts against the Go wire types it
// describes: the d.ts is written by hand, and this test fails when a Go type's
// JSON fields (or the error codes) and the declaration drift apart.
package hostjs_test

import (
	"encoding/json"
	"os"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/codemode-go/codemode/core"
	"github.com/codemode-go/codemode/internal/catalog"
)

// jsonFields are the JSON names of t's fields (embedded structs flattened),
// with "?" on omitempty ones: what a TypeScript interface declares optional.
func jsonFields(t reflect.Type) []string {
	var out []string
	for f := range t.Fields() {
		tag := f.Tag.Get("json")
		if tag == "-" || !f.IsExported() {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if f.Anonymous && name == "" {
			out = append(out, jsonFields(f.Type)...)
			continue
		}
		if name == "" {
			name = f.Name
		}
		if strings.Contains(opts, "omitempty") {
			name += "?"
		}
		out = append(out, name)
	}
	slices.Sort(out)
	return out
}

var prop = regexp.MustCompile(`(?m)^\s*([A-Za-z_$][A-Za-z0-9_$]*)(\??):`)

// declared are the top-level properties of a { ... } body, "?" kept.
func declared(body string) []string {
	var out []string
	depth := 0
	var top strings.Builder
	for _, r := range body {
		switch r {
		case '{':
			depth++
			if depth == 1 {
				top.WriteRune('\n')
			}
			continue
		case '}':
			depth--
			continue
		case ';':
			if depth == 0 {
				top.WriteRune('\n')
				continue
			}
		}
		if depth == 0 {
			top.WriteRune(r)
		}
	}
	for _, m := range prop.FindAllStringSubmatch(top.String(), -1) {
		out = append(out, m[1]+m[2])
	}
	slices.Sort(out)
	return out
}

// block is the body of `export interface name {...}` in the d.ts.
func block(t *testing.T, dts, name string) string {
	t.Helper()
	i := strings.Index(dts, "export interface "+name+" {")
	if i < 0 {
		t.Fatalf("codemode.d.ts declares no interface %s", name)
	}
	return braced(dts[i+len("export interface "+name+" "):])
}

// braced is the text inside the first balanced {...} of s.
func braced(s string) string {
	depth := 0
	for i, r := range s {
		switch r {
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				return s[1:i]
			}
		}
	}
	return s
}

func TestDeclarationsMatchTheGoWireTypes(t *testing.T) {
	b, err := os.ReadFile("codemode.d.ts")
	if err != nil {
		t.Fatal(err)
	}
	dts := string(b)
	for _, c := range []struct {
		iface  string
		goType reflect.Type
	}{
		{"CodeModeTelemetry", reflect.TypeFor[catalog.Telemetry]()},
		{"ToolCatalogEntry", reflect.TypeFor[catalog.Entry]()},
		{"NestedCall", reflect.TypeFor[catalog.NestedCall]()},
		{"TranscriptEntry", reflect.TypeFor[core.TranscriptEntry]()},
	} {
		if got, want := declared(block(t, dts, c.iface)), jsonFields(c.goType); !slices.Equal(got, want) {
			t.Errorf("%s declares %v; the Go type %s has %v", c.iface, got, c.goType, want)
		}
	}

	// The result union: each variant's fields are what the Go result marshals.
	i := strings.Index(dts, "export type CodeModeResult =")
	if i < 0 {
		t.Fatal("codemode.d.ts declares no CodeModeResult")
	}
	union := dts[i:]
	if end := strings.Index(union, "\n/**"); end > 0 {
		union = union[:end]
	}
	full := core.Result{Value: json.RawMessage(`1`), RunID: "cm_1", Reason: "yield", Error: "e", Code: core.CodeTimeout,
		PendingToolCalls: []core.PendingToolCall{{ID: "call_1", ToolID: "x", Kind: "call"}},
		Output:           []core.Output{{Type: "text", Text: "t"}}, RestartSafe: true}
	optional := map[string]bool{"output": true, "pendingToolCalls": true, "code": true, "restartSafe": true}
	for _, status := range []core.Status{core.StatusCompleted, core.StatusWaiting, core.StatusFailed} {
		full.Status = status
		raw, _ := json.Marshal(full)
		var m map[string]json.RawMessage
		json.Unmarshal(raw, &m)
		var want []string
		for k := range m {
			if optional[k] {
				k += "?"
			}
			want = append(want, k)
		}
		slices.Sort(want)
		at := strings.Index(union, `status: "`+string(status)+`"`)
		if at < 0 {
			t.Errorf("CodeModeResult has no %s variant", status)
			continue
		}
		open := strings.LastIndex(union[:at], "{")
		if got := declared(braced(union[open:])); !slices.Equal(got, want) {
			t.Errorf("CodeModeResult %s declares %v; Go marshals %v", status, got, want)
		}
	}
	if got, want := declared(braced(union[strings.Index(union, "pendingToolCalls?: Array<")+len("pendingToolCalls?: Array<"):])),
		jsonFields(reflect.TypeFor[core.PendingToolCall]()); !slices.Equal(got, want) {
		t.Errorf("pendingToolCalls items declare %v; Go has %v", got, want)
	}

	// The error codes: the d.ts union is exactly the Go constants.
	i = strings.Index(dts, "export type CodeModeErrorCode =")
	codes := dts[i : i+strings.Index(dts[i:], ";")]
	var got []string
	for _, m := range regexp.MustCompile(`"([a-z_]+)"`).FindAllStringSubmatch(codes, -1) {
		got = append(got, m[1])
	}
	want := []string{}
	for _, c := range []core.ErrorCode{core.CodeInvalidInput, core.CodeRuntimeUnavailable, core.CodeTimeout,
		core.CodeOutputLimitExceeded, core.CodeSnapshotLimitExceeded, core.CodeInternalError} {
		want = append(want, string(c))
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("CodeModeErrorCode declares %v; Go has %v", got, want)
	}
}
