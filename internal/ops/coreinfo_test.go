package ops_test

import (
	stdjson "encoding/json"
	"testing"

	"github.com/codemode-go/codemode/core"
	"github.com/codemode-go/codemode/internal/catalog"
	"github.com/codemode-go/codemode/internal/config"
	json "github.com/codemode-go/codemode/internal/jsonx"
	"github.com/codemode-go/codemode/internal/ops"
)

// TestCoreInfoJSON: init's answer is byte for byte the map the GOOS=js core
// marshalled before, under encoding/json and jsonx.
func TestCoreInfoJSON(t *testing.T) {
	only := config.Default()
	only.Languages, only.TimeoutMs = []string{config.LanguageJavaScript}, 1
	for _, cfg := range []config.Config{config.Default(), only, {}} {
		got := ops.CoreInfoFor(cfg).JSON()
		m := map[string]any{"timeoutMs": cfg.TimeoutMs, "languages": cfg.Languages, "failures": ops.ShimFailuresFor(cfg.TimeoutMs)}
		for name, marshal := range map[string]func(any) ([]byte, error){"encoding/json": stdjson.Marshal, "jsonx": json.Marshal} {
			want, err := marshal(m)
			if err != nil || string(got) != string(want) {
				t.Fatalf("%s:\ndirect %s\nwant   %s (%v)", name, got, want, err)
			}
		}
	}
}

// TestMarshalValue: a result is written as json.Marshal writes it, and a
// result json.Marshal refuses is refused alike; other values are json.Marshal's.
func TestMarshalValue(t *testing.T) {
	tel := catalog.Telemetry{ModelVisibleTools: []string{"exec", "wait"}}
	for _, v := range []any{
		core.Result{Status: core.StatusCompleted, Value: json.RawMessage(" {\"a\": \"<\"} "), Telemetry: tel},
		core.Result{Status: core.StatusCompleted, Value: json.RawMessage(`{`), Telemetry: tel},
		ops.Failed(core.CodeTimeout, "x & y"),
		map[string]int{"b": 1, "a": 2},
	} {
		got, err := ops.MarshalValue(v)
		want, werr := json.Marshal(v)
		if (err != nil) != (werr != nil) || string(got) != string(want) {
			t.Errorf("%+v: %s (%v), want %s (%v)", v, got, err, want, werr)
		}
	}
}
