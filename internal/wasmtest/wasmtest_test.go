package wasmtest_test

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/codemode-go/codemode/internal/wasmtest"
	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"
)

var commandPath, reactorPath, deterministicPath string

func TestMain(m *testing.M) {
	flag.Parse()
	if raceEnabled || testing.Short() || os.Getenv("CODEMODE_SKIP_WASIP1") != "" {
		fmt.Println("wasmtest: skipped under -race/-short (./build.sh test-wasip1 runs it)")
		os.Exit(0)
	}
	var err error
	// The demo builds: the tests call the example toolset.
	if commandPath, err = wasmtest.Build(wasmtest.DemoCommand); err == nil {
		if reactorPath, err = wasmtest.Build(wasmtest.DemoReactor); err == nil {
			deterministicPath, err = wasmtest.Build(wasmtest.DeterministicReactor)
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Exit(m.Run())
}

// The command module runs exec like the native command: a cell from -e, and a
// cell and a JSON5 config read through a WASI preopen, under wazero.
func TestCommandUnderWazero(t *testing.T) {
	ctx := context.Background()
	r := wasmtest.NewRuntime(ctx)
	defer r.Close(ctx)
	wasi_snapshot_preview1.MustInstantiate(ctx, r)
	wasm, err := os.ReadFile(commandPath)
	if err != nil {
		t.Fatal(err)
	}
	compiled, err := r.CompileModule(ctx, wasm)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "cell.js"), []byte(`const v = await tools.callValue("openclaw:core:echo", {message: "hi"}); text("ok"); return v;`), 0o644)
	os.WriteFile(filepath.Join(dir, "cm.json5"), []byte(`{exampleTools: true, tools: {codeMode: {enabled: true, timeoutMs: 20000}}, /* JSON5 */ }`), 0o644)
	os.WriteFile(filepath.Join(dir, "ts.json5"), []byte(`{tools: {codeMode: {enabled: true, languages: ["typescript"]}}}`), 0o644)
	for _, tc := range []struct {
		args []string
		want string
		code uint32
	}{
		{[]string{"exec", "-e", "return 1+1"}, `"status":"completed","value":2`, 0},
		{[]string{"exec", "-f", "/data/cell.js", "--config", "/data/cm.json5", "--wait"}, `"output":[{"type":"text","text":"ok"}]`, 0},
		{[]string{"exec", "-f", "/data/missing.js"}, "", 2},
		// A TypeScript-only config: a cell without --language is TypeScript.
		{[]string{"exec", "--config", "/data/ts.json5", "-e", "const n: number = 3; return n"}, `"status":"completed","value":3`, 0},
		{[]string{"frob"}, "", 2},
	} {
		var stdout, stderr bytes.Buffer
		t0 := time.Now()
		cfg := wasmtest.ModuleConfig().WithArgs(append([]string{"codemode"}, tc.args...)...).
			WithStdout(&stdout).WithStderr(&stderr).WithFSConfig(wazero.NewFSConfig().WithDirMount(dir, "/data"))
		_, err := r.InstantiateModule(ctx, compiled, cfg)
		code := uint32(0)
		if ee, ok := err.(interface{ ExitCode() uint32 }); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatalf("%v: %v", tc.args, err)
		}
		t.Logf("%v: exit %d in %v", tc.args, code, time.Since(t0).Round(time.Millisecond))
		if code != tc.code || !strings.Contains(stdout.String(), tc.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit %d and %q", tc.args, code, stdout.String(), stderr.String(), tc.code, tc.want)
		}
	}
}

// reactor is one instance of the reactor module and a JSON call helper.
type reactor struct {
	t   *testing.T
	ctx context.Context
	mod api.Module
}

func newReactor(t *testing.T, initialize bool) *reactor {
	return newReactorOf(t, reactorPath, initialize)
}

// newReactorOf instantiates the reactor module at path.
func newReactorOf(t *testing.T, path string, initialize bool) *reactor {
	ctx := context.Background()
	r := wasmtest.NewRuntime(ctx)
	t.Cleanup(func() { r.Close(ctx) })
	wasi_snapshot_preview1.MustInstantiate(ctx, r)
	wasm, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	mod, err := r.InstantiateWithConfig(ctx, wasm, wasmtest.ModuleConfig().WithStartFunctions().WithStderr(os.Stderr))
	if err != nil {
		t.Fatal(err)
	}
	x := &reactor{t, ctx, mod}
	if initialize {
		x.initialize()
	}
	return x
}

func (x *reactor) initialize() {
	if _, err := x.mod.ExportedFunction("_initialize").Call(x.ctx); err != nil {
		x.t.Fatal(err)
	}
}

// raw calls export with (ptr, n) and returns the answer text.
func (x *reactor) raw(export string, ptr, n uint64) (string, error) {
	res, err := x.mod.ExportedFunction(export).Call(x.ctx, ptr, n)
	if err != nil {
		return "", err
	}
	p, l := uint32(res[0]>>32), uint32(res[0])
	b, ok := x.mod.Memory().Read(p, l)
	if !ok {
		x.t.Fatalf("%s: answer (%d, %d) is outside memory", export, p, l)
	}
	s := string(b)
	x.mod.ExportedFunction("free").Call(x.ctx, uint64(p))
	return s, nil
}

func (x *reactor) call(export, req string) string {
	x.t.Helper()
	res, err := x.mod.ExportedFunction("malloc").Call(x.ctx, uint64(len(req)))
	if err != nil {
		x.t.Fatal(err)
	}
	x.mod.Memory().Write(uint32(res[0]), []byte(req))
	out, err := x.raw(export, res[0], uint64(len(req)))
	if err != nil {
		x.t.Fatalf("%s: trap: %v", export, err)
	}
	return out
}

type answer struct {
	OK struct {
		Runtime int `json:"runtime"`
		Result  struct {
			Status           string          `json:"status"`
			Value            json.RawMessage `json:"value"`
			RunID            string          `json:"runId"`
			Error            string          `json:"error"`
			PendingToolCalls []struct{ ID, ToolID string }
		} `json:"result"`
		HostCalls []struct {
			ID, Tool string
			Input    json.RawMessage
		} `json:"hostCalls"`
	} `json:"ok"`
	Error *struct{ Code, Message string } `json:"error"`
}

func (x *reactor) do(export, req string) answer {
	x.t.Helper()
	out := x.call(export, req)
	var a answer
	if err := json.Unmarshal([]byte(out), &a); err != nil {
		x.t.Fatalf("%s: %v in %q", export, err, out)
	}
	if a.Error != nil {
		x.t.Fatalf("%s %s: %s", export, req, out)
	}
	return a
}

// The reactor under wazero: a host tool's call suspends the run at once and
// shows as a pending call and a host call; settle answers it and wait
// completes the run. Bad input through the ABI answers errors and the
// instance keeps working.
func TestReactorHostToolUnderWazero(t *testing.T) {
	x := newReactor(t, true)
	t0 := time.Now()
	x.do("create_runtime", `{"exampleTools":true,"tools":[{"name":"lookup","description":"Host lookup.","parameters":{"type":"object","properties":{"key":{"type":"string"}}}}]}`)
	t.Logf("create_runtime %v", time.Since(t0).Round(time.Millisecond))

	t0 = time.Now()
	a := x.do("exec", `{"runtime":1,"code":"const v = await tools.lookup({key: 'a'}); const e = await tools.callValue('openclaw:core:echo', {message: v.s}); return e;"}`)
	t.Logf("exec to waiting %v", time.Since(t0).Round(time.Millisecond))
	if r := a.OK.Result; r.Status != "waiting" || len(r.PendingToolCalls) != 1 || r.PendingToolCalls[0].ToolID != "client:host:lookup" || len(a.OK.HostCalls) != 1 {
		t.Fatalf("exec: %+v", a.OK)
	}
	runID, hc := a.OK.Result.RunID, a.OK.HostCalls[0]
	if hc.Tool != "lookup" || string(hc.Input) != `{"key":"a"}` {
		t.Fatalf("host call %+v", hc)
	}
	// wait before settling suspends again at once, listing the same call.
	if a := x.do("wait", `{"runtime":1,"runId":"`+runID+`"}`); a.OK.Result.Status != "waiting" || len(a.OK.HostCalls) != 1 || a.OK.HostCalls[0].ID != hc.ID {
		t.Fatalf("wait before settle: %+v", a.OK)
	}
	x.do("settle", `{"runtime":1,"id":"`+hc.ID+`","result":{"details":{"s":"from host"}}}`)
	t0 = time.Now()
	a = x.do("wait", `{"runtime":1,"runId":"`+runID+`"}`)
	t.Logf("settle + wait to completed %v", time.Since(t0).Round(time.Millisecond))
	if a.OK.Result.Status != "completed" || !strings.Contains(string(a.OK.Result.Value), "from host") {
		t.Fatalf("wait: %+v", a.OK.Result)
	}

	// Bad input through the ABI: errors, never traps.
	for _, tc := range []struct {
		export string
		ptr, n uint64
		want   string
	}{
		{"exec", 0, 10, "must be a buffer from malloc"},
		{"exec", 1 << 31, 1 << 20, "must be a buffer from malloc"},
		{"wait", 0xffffffff, 0xffffffff, "must be a buffer from malloc"},
	} {
		out, err := x.raw(tc.export, tc.ptr, tc.n)
		if err != nil || !strings.Contains(out, tc.want) {
			t.Errorf("%s(%#x, %d): %q, %v; want an error answer with %q", tc.export, tc.ptr, tc.n, out, err, tc.want)
		}
	}
	for _, tc := range []struct{ export, req, want string }{
		{"exec", `{"runtime":1,"code":`, "is not valid JSON: it ends early"},
		{"settle", `{"runtime":1,"id":"hc_404","result":{}}`, `unknown host call`},
		{"settle", `{"runtime":1,"id":"` + hc.ID + `","result":{}}`, `unknown host call`},
		{"surface", `{"runtime":7}`, "unknown runtime 7"},
	} {
		if out := x.call(tc.export, tc.req); !strings.Contains(out, `"invalid_input"`) || !strings.Contains(out, tc.want) {
			t.Errorf("%s %s: %s; want invalid_input with %q", tc.export, tc.req, out, tc.want)
		}
	}
	x.mod.ExportedFunction("free").Call(x.ctx, 12345) // unknown address: ignored
	if a := x.do("exec", `{"runtime":1,"code":"return 6*7"}`); string(a.OK.Result.Value) != "42" {
		t.Fatalf("exec after bad input: %+v", a.OK.Result)
	}
	for export, want := range map[string]string{"surface": `"name":"wait"`, "catalog": `"name":"lookup"`} {
		if out := x.call(export, `{"runtime":1}`); !strings.Contains(out, `{"ok":`) || !strings.Contains(out, want) {
			t.Errorf("%s: %.300s; want %s", export, out, want)
		}
	}
}

// Issue 24 through the reactor: the same words as every other host for an
// unknown tool, a cell that ends early and a lone surrogate.
func TestReactorErrorsModelsCanActOn(t *testing.T) {
	x := newReactor(t, true)
	x.do("create_runtime", `{"exampleTools":true}`)
	for _, tc := range []struct{ code, want string }{
		{`await tools.shiping_list({})`, "TypeError: tools.shiping_list is not a tool in this run. Did you mean tools.shipping_list?"},
		{`return (1 +`, "SyntaxError: unexpected end of the cell (a bracket, string, template or expression is left open)\n    at cell.js:1:12"},
		{"const a = 1;\nnull.x", "(cell.js:2:1)"},
	} {
		code, _ := json.Marshal(tc.code)
		r := x.do("exec", `{"runtime":1,"code":`+string(code)+`}`).OK.Result
		if r.Status != "failed" || !strings.Contains(r.Error, tc.want) || strings.Contains(r.Error, "__openclaw") || strings.Contains(r.Error, "bridge") {
			t.Errorf("%s: %s %q; want %q", tc.code, r.Status, r.Error, tc.want)
		}
	}
	r := x.do("exec", `{"runtime":1,"code":"text('a\\ud800'); return 'b\\udc00'"}`).OK.Result
	if r.Status != "completed" || string(r.Value) != `"b\ufffd"` && string(r.Value) != "\"b\uFFFD\"" {
		t.Errorf("lone surrogate: %s %s %q", r.Status, r.Value, r.Error)
	}
}

// Before _initialize, Go's own runtime refuses every export with a trap
// ("wasmexport function called before runtime initialization"); the module
// cannot answer anything itself then, as no Go code may run. The instance is
// not broken by it: after _initialize the same instance works.
func TestReactorBeforeInitialize(t *testing.T) {
	x := newReactor(t, false)
	if _, err := x.mod.ExportedFunction("malloc").Call(x.ctx, 8); err == nil {
		t.Fatal("malloc before _initialize did not trap")
	}
	x.initialize()
	if out := x.call("catalog", `{"runtime":1}`); !strings.Contains(out, "unknown runtime 1") {
		t.Fatalf("after _initialize: %s", out)
	}
}
