package core

import (
	"context"
	stdjson "encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/codemode-go/codemode/internal/catalog"
	"github.com/codemode-go/codemode/internal/toolset"
	gojson "github.com/goccy/go-json"
)

// jsonLib is one JSON library's Marshal and Unmarshal.
type jsonLib struct {
	name      string
	marshal   func(any) ([]byte, error)
	unmarshal func([]byte, any) error
}

// TestJSONLibraries measures the JSON libraries on the hot paths (the bridge
// and the result) with the runtime's own types, to choose one by measurement:
// encoding/json, goccy/go-json (the design card's pick) and, when built with
// GOEXPERIMENT=jsonv2 (under which encoding/json itself runs on v2),
// encoding/json/v2. It prints ns/op, allocations and each library's time as a
// ratio of encoding/json's in the same run (tests/bench/RESULTS.md, "JSON
// library"). A measurement, not a check: it runs only when asked.
//
//	CODEMODE_JSONLIB=1 go test ./core -run TestJSONLibraries -v
//	CODEMODE_JSONLIB=1 GOEXPERIMENT=jsonv2 go test ./core -run TestJSONLibraries -v
func TestJSONLibraries(t *testing.T) {
	if os.Getenv("CODEMODE_JSONLIB") == "" {
		t.Skip("a measurement: CODEMODE_JSONLIB=1 go test ./core -run TestJSONLibraries -v")
	}
	libs := append([]jsonLib{{"encoding/json", stdjson.Marshal, stdjson.Unmarshal}, {"goccy/go-json", gojson.Marshal, gojson.Unmarshal}}, jsonV2...)
	tools, err := toolset.Tools()
	if err != nil {
		t.Fatal(err)
	}
	for i := range 9 { // a catalog of ~60 tools, like a plugin-heavy run
		for _, tl := range tools[:3] {
			tools = append(tools, renamedTool{tl, fmt.Sprintf("%s_%d", tl.Spec().Name, i)})
		}
	}
	cat, err := catalog.Build(tools, catalog.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	setup := runData{AllTools: cat.Entries(), SafeNames: cat.SafeNames(), Namespaces: []byte("[]")}
	small := []byte(`{"op":"call","id":"openclaw:core:echo","input":{"message":"hello from the guest"},"mode":"value"}`)
	rows := make([]string, 2000)
	for i := range rows {
		rows[i] = fmt.Sprintf(`{"id":"SH-%d","paid":%t,"tons":%d.5,"note":"row %d of the shipment list"}`, i, i%2 == 0, i, i)
	}
	big := []byte(`{"op":"call","id":"openclaw:core:echo","input":{"rows":[` + strings.Join(rows, ",") + `]},"mode":"value"}`)
	details := stdjson.RawMessage(`{"shipments":[` + strings.Join(rows[:40], ",") + `]}`)
	// The completed variant as Result.MarshalJSON writes it (Result's own
	// MarshalJSON uses goccy inside, which would hide the difference).
	type completed struct {
		Status    Status             `json:"status"`
		Value     stdjson.RawMessage `json:"value"`
		Output    []Output           `json:"output,omitempty"`
		Telemetry catalog.Telemetry  `json:"telemetry"`
	}
	res := completed{Status: StatusCompleted, Value: details, Telemetry: cat.Telemetry([]string{"exec", "wait"})}
	for i := range 5 {
		res.Output = append(res.Output, Output{Type: "text", Text: fmt.Sprintf("step %d done: ünïcødé and \"quotes\"", i)})
	}
	res.Output = append(res.Output, Output{Type: "json", Value: details})
	resJSON, _ := stdjson.Marshal(res)

	for _, b := range []struct {
		name string
		run  func(l jsonLib) error
	}{
		{"bridge request decode (100 B call)", func(l jsonLib) error { var r request; return l.unmarshal(small, &r) }},
		{"bridge request decode (150 KB input)", func(l jsonLib) error { var r request; return l.unmarshal(big, &r) }},
		{"tool result encode (call envelope, 4 KB)", func(l jsonLib) error {
			_, err := l.marshal(map[string]any{"tool": "openclaw:core:echo", "result": catalog.Result{Details: details}})
			return err
		}},
		{"run setup encode (60 catalog entries)", func(l jsonLib) error { _, err := l.marshal(setup); return err }},
		{"result encode (completed, 6 outputs)", func(l jsonLib) error { _, err := l.marshal(res); return err }},
		{"result decode (a host reading it)", func(l jsonLib) error { var r completed; return l.unmarshal(resJSON, &r) }},
	} {
		var base float64
		for _, l := range libs {
			if err := b.run(l); err != nil {
				t.Fatalf("%s with %s: %v", b.name, l.name, err)
			}
			r := testing.Benchmark(func(tb *testing.B) {
				tb.ReportAllocs()
				for tb.Loop() {
					b.run(l)
				}
			})
			ns := float64(r.NsPerOp())
			if base == 0 {
				base = ns
			}
			t.Logf("%-42s %-18s %10.0f ns/op %8d B/op %5d allocs %6.2fx", b.name, l.name, ns, r.AllocedBytesPerOp(), r.AllocsPerOp(), ns/base)
		}
	}
}

// renamedTool is a tool under another name, to grow the catalog.
type renamedTool struct {
	catalog.Tool
	name string
}

func (r renamedTool) Spec() catalog.Spec { s := r.Tool.Spec(); s.Name = r.name; return s }

func (r renamedTool) Execute(ctx context.Context, c catalog.Call) (catalog.Result, error) {
	return r.Tool.Execute(ctx, c)
}
