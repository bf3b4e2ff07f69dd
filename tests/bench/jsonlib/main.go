// Command jsonlib measures the JSON libraries on Code Mode's hot paths (the
// bridge and the result), to choose one by measurement: encoding/json,
// goccy/go-json (the design card's pick), and encoding/json/v2 when built with
// GOEXPERIMENT=jsonv2 (under which encoding/json itself runs on v2). It prints
// ns/op, allocations and each library's time as a ratio of encoding/json's
// in the same run.
//
//	go run ./tests/bench/jsonlib
//	GOEXPERIMENT=jsonv2 go run ./tests/bench/jsonlib
package main

import (
	"context"
	stdjson "encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/codemode-go/codemode/core/catalog"
	"github.com/codemode-go/codemode/examples/toolset"
	gojson "github.com/goccy/go-json"
)

// lib is one JSON library's Marshal and Unmarshal.
type lib struct {
	name      string
	marshal   func(any) ([]byte, error)
	unmarshal func([]byte, any) error
}

var libs = []lib{
	{"encoding/json", stdjson.Marshal, stdjson.Unmarshal},
	{"goccy/go-json", gojson.Marshal, gojson.Unmarshal},
}

// request mirrors core's bridge request (core/bridge.go).
type request struct {
	Op        string               `json:"op"`
	Text      string               `json:"text"`
	Value     stdjson.RawMessage   `json:"value"`
	Query     string               `json:"query"`
	Limit     *int                 `json:"limit"`
	ID        string               `json:"id"`
	Input     stdjson.RawMessage   `json:"input"`
	Mode      string               `json:"mode"`
	Reason    string               `json:"reason"`
	Server    string               `json:"server"`
	Tool      *string              `json:"tool"`
	Schema    bool                 `json:"schema"`
	URI       string               `json:"uri"`
	Name      string               `json:"name"`
	Arguments stdjson.RawMessage   `json:"arguments"`
	NS        string               `json:"ns"`
	Path      []string             `json:"path"`
	Args      []stdjson.RawMessage `json:"args"`
	Ms        float64              `json:"ms"`
	Token     int64                `json:"token"`
}

// runData mirrors what setup injects into every run (core/setup.go).
type runData struct {
	AllTools   []catalog.Entry    `json:"allTools"`
	SafeNames  map[string]string  `json:"safeNames"`
	Files      []apiFile          `json:"files"`
	Namespaces stdjson.RawMessage `json:"namespaces"`
}

type apiFile struct {
	Path        string `json:"path"`
	Size        int    `json:"size"`
	Description string `json:"description,omitempty"`
	Start       int    `json:"start"`
	End         int    `json:"end"`
}

// result mirrors a completed CodeModeResult as the wire carries it.
type result struct {
	Status    string             `json:"status"`
	Value     stdjson.RawMessage `json:"value"`
	Output    []output           `json:"output,omitempty"`
	Telemetry catalog.Telemetry  `json:"telemetry"`
}

type output struct {
	Type  string             `json:"type"`
	Text  string             `json:"text,omitempty"`
	Value stdjson.RawMessage `json:"value,omitempty"`
}

// bench is one hot-path operation, run against each library.
type bench struct {
	name string
	run  func(l lib) error
}

func main() {
	tools, err := toolset.Tools()
	if err != nil {
		fail(err)
	}
	for i := range 9 { // a catalog of ~60 tools, like a plugin-heavy run
		for _, t := range tools[:4] {
			tools = append(tools, renamed{t, fmt.Sprintf("%s_%d", t.Spec().Name, i)})
		}
	}
	cat, err := catalog.Build(tools, catalog.BuildOptions{})
	if err != nil {
		fail(err)
	}
	setup := runData{AllTools: cat.Entries(), SafeNames: cat.SafeNames(), Namespaces: stdjson.RawMessage("[]"),
		Files: []apiFile{{Path: "tools/index.d.ts", Size: 4000, Description: "TypeScript declarations of this run's tools", End: 4000}}}
	small := []byte(`{"op":"call","id":"openclaw:core:echo","input":{"message":"hello from the guest"},"mode":"value"}`)
	rows := make([]string, 2000)
	for i := range rows {
		rows[i] = fmt.Sprintf(`{"id":"SH-%d","paid":%t,"tons":%d.5,"note":"row %d of the shipment list"}`, i, i%2 == 0, i, i)
	}
	bigInput := `{"rows":[` + strings.Join(rows, ",") + `]}`
	big := []byte(`{"op":"call","id":"openclaw:core:echo","input":` + bigInput + `,"mode":"value"}`)
	details := stdjson.RawMessage(`{"shipments":` + `[` + strings.Join(rows[:40], ",") + `]}`)
	res := result{Status: "completed", Value: details, Telemetry: cat.Telemetry([]string{"exec", "wait"})}
	for i := range 5 {
		res.Output = append(res.Output, output{Type: "text", Text: fmt.Sprintf("step %d done: ünïcødé and \"quotes\"", i)})
	}
	res.Output = append(res.Output, output{Type: "json", Value: details})
	resJSON, _ := stdjson.Marshal(res)

	benches := []bench{
		{"bridge request decode (100 B call)", func(l lib) error { var r request; return l.unmarshal(small, &r) }},
		{"bridge request decode (150 KB input)", func(l lib) error { var r request; return l.unmarshal(big, &r) }},
		{"tool result encode (call envelope, 4 KB)", func(l lib) error {
			_, err := l.marshal(map[string]any{"tool": "openclaw:core:echo", "result": catalog.Result{Details: details}})
			return err
		}},
		{"run setup encode (60 catalog entries)", func(l lib) error { _, err := l.marshal(setup); return err }},
		{"result encode (completed, 6 outputs)", func(l lib) error { _, err := l.marshal(res); return err }},
		{"result decode (a host reading it)", func(l lib) error { var r result; return l.unmarshal(resJSON, &r) }},
	}
	all := append(libs, extraLibs...)
	fmt.Printf("JSON libraries on the hot paths (ratio = time / encoding/json's, same run; GOEXPERIMENT=%s)\n", os.Getenv("GOEXPERIMENT"))
	fmt.Printf("%-42s %-20s %12s %10s %8s %7s\n", "operation", "library", "ns/op", "B/op", "allocs", "ratio")
	for _, b := range benches {
		var base float64
		for _, l := range all {
			if err := b.run(l); err != nil {
				fail(fmt.Errorf("%s with %s: %v", b.name, l.name, err))
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
			fmt.Printf("%-42s %-20s %12.0f %10d %8d %6.2fx\n", b.name, l.name, ns, r.AllocedBytesPerOp(), r.AllocsPerOp(), ns/base)
		}
	}
}

// renamed is a tool under another name, to grow the catalog.
type renamed struct {
	catalog.Tool
	name string
}

func (r renamed) Spec() catalog.Spec {
	s := r.Tool.Spec()
	s.Name = r.name
	s.DirectOnly = false
	return s
}

func (r renamed) Execute(ctx context.Context, c catalog.Call) (catalog.Result, error) {
	return r.Tool.Execute(ctx, c)
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "jsonlib:", err)
	os.Exit(1)
}
