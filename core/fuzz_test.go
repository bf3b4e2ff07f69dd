package core_test

import (
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/codemode-go/codemode/core"
	"github.com/codemode-go/codemode/internal/config"
)

var (
	fuzzOnce sync.Once
	fuzzRT   *core.Runtime
)

func fuzzRuntime(t testing.TB) *core.Runtime {
	fuzzOnce.Do(func() {
		fuzzRT = newRuntime(&testing.T{}, func(c *config.Config) { c.TimeoutMs = 100; c.MaxOutputBytes = 4096 })
	})
	return fuzzRT
}

// checkResult asserts what must hold for any cell: a valid variant of the union,
// a code from the spec's set, JSON-marshalable, and no host detail in errors.
func checkResult(t *testing.T, r core.Result) {
	t.Helper()
	switch r.Status {
	case core.StatusCompleted, core.StatusWaiting, core.StatusFailed:
	default:
		t.Fatalf("status %q", r.Status)
	}
	switch r.Code {
	case "", core.CodeInvalidInput, core.CodeRuntimeUnavailable, core.CodeTimeout, core.CodeOutputLimitExceeded, core.CodeSnapshotLimitExceeded:
	default:
		t.Fatalf("code %q for %q", r.Code, r.Error)
	}
	if r.Code == core.CodeRuntimeUnavailable {
		t.Fatalf("engine failure: %s", r.Error)
	}
	if _, err := json.Marshal(r); err != nil {
		t.Fatalf("result does not marshal: %v", err)
	}
	for _, leak := range []string{".go:", "goroutine ", "/work/", "wazero"} {
		if strings.Contains(r.Error, leak) {
			t.Fatalf("error leaks %q: %q", leak, r.Error)
		}
	}
}

// FuzzExec runs arbitrary cells: nothing a guest writes may crash the process,
// leak host details or produce a result outside the spec's union.
func FuzzExec(f *testing.F) {
	for _, seed := range []string{
		`return 1`, `while(true){}`, `throw null`, `return new Proxy({}, {get() { throw 1 }})`,
		`return Object.create(null)`, `text(Symbol()); return 1`, `json(() => 1)`,
		`await yield_control(); return 2`, `return "\ud800"`, `import("x")`, `)`, `}); (function(){`,
		`return [].constructor.constructor("return this")().process`,
		`Object.defineProperty(Object.prototype, "then", {get() { return (r) => r(1); }}); return await tools.search("x")`,
		`Array.prototype.map = null; JSON.stringify = null; return await tools.describe("openclaw:core:echo")`,
		`return await tools.callValue("openclaw:core:echo", {message: "x".repeat(100000)})`,
		`let a = []; for (;;) a.push(new ArrayBuffer(1 << 20))`,
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, code string) {
		rt := fuzzRuntime(t)
		r := exec(t, rt, code)
		checkResult(t, r)
		for i := 0; r.Status == core.StatusWaiting && i < 3; i++ {
			r = wait(t, rt, r.RunID)
			checkResult(t, r)
		}
	})
}

// FuzzBridgeArguments sends arbitrary strings through every bridge operation.
func FuzzBridgeArguments(f *testing.F) {
	f.Add("list shipments", "openclaw:core:echo", `{"message":"hi"}`, "mcp/index.d.ts")
	f.Add("", "", "null", "../etc/passwd")
	f.Add("\x00\xff", "openclaw:core:sleep_ms", `{"ms":-1}`, "tools/index.d.ts")
	f.Fuzz(func(t *testing.T, query, id, input, path string) {
		rt := fuzzRuntime(t)
		q, _ := json.Marshal(query)
		i, _ := json.Marshal(id)
		in, _ := json.Marshal(input)
		p, _ := json.Marshal(path)
		code := `const out = [];
		  const tryIt = async (f) => { try { out.push(typeof (await f())); } catch (e) { out.push(String(e && e.message).length); } };
		  await tryIt(() => tools.search(` + string(q) + `, {limit: 3}));
		  await tryIt(() => tools.describe(` + string(i) + `));
		  await tryIt(() => tools.call(` + string(i) + `, (() => { try { return JSON.parse(` + string(in) + `); } catch (e) { return ` + string(in) + `; } })()));
		  await tryIt(() => API.read(` + string(p) + `));
		  await tryIt(() => API.list(` + string(p) + `));
		  return out;`
		checkResult(t, exec(t, rt, code))
	})
}

// FuzzUnknownNames asks every guarded object for an arbitrary name: the answer
// is the member or a TypeError, and what the cell reads names neither the
// runtime's bridge nor any host detail the name did not carry itself.
func FuzzUnknownNames(f *testing.F) {
	// A timeout of its own: a loaded machine running fuzz workers in parallel
	// must not turn a slow cell into a finding.
	rt := newRuntime(f, func(c *config.Config) { c.TimeoutMs = 5000 })
	for _, s := range []string{"shiping_list", "get_env", "then", "__proto__", "constructor", "", "bridge", "a\x00b", "toString"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		n, _ := json.Marshal(name)
		r := exec(t, rt, `const out = [];
for (const o of [tools, MCP, API, namespaces]) {
  try { const v = o[`+string(n)+`]; out.push(typeof v); } catch (e) { out.push(e.name + ": " + e.message); }
}
return out;`)
		checkResult(t, r)
		if r.Status != core.StatusCompleted {
			t.Fatalf("%s: %s", r.Status, r.Error)
		}
		var got []string
		if err := json.Unmarshal(r.Value, &got); err != nil {
			t.Fatal(err)
		}
		for _, s := range got {
			if strings.HasPrefix(s, "TypeError: ") {
				for _, w := range []string{"bridge", "__openclaw", "malformed", "goroutine", ".go:"} {
					if strings.Contains(s, w) && !strings.Contains(name, w) {
						t.Fatalf("%q: %q", name, s)
					}
				}
			} else if strings.Contains(s, ":") {
				t.Fatalf("%q: %q", name, s)
			}
		}
	})
}
