// Package hostile is the battery of hostile programs that every host of the
// runtime must survive: escapes, exhaustion, wrong tool inputs and protocol
// abuse, each with the exact outcome it must have. The same table runs natively
// (wazero) and under GOOS=js on the host's own WebAssembly engine; see
// hostile_test.go and SECURITY.md.
package hostile

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// Case is one hostile cell and the outcome it must have.
type Case struct {
	Name string
	// Code is the cell; Language is "javascript" when empty.
	Code     string
	Language string
	// Status is "completed" or "failed" ("waiting" is never acceptable for a
	// hostile cell: nothing in the battery waits on a tool).
	Status string
	// ErrorCode is the failed result's code ("" for a guest error).
	ErrorCode string
	// LongBuiltin marks a cell that spends its time inside one QuickJS
	// built-in, where QuickJS never reaches its interrupt hook: the loop guard
	// stops it at the deadline on every engine (wazero rewrites the module at
	// load; the host engine under GOOS=js runs the copy ./build.sh rewrote at
	// build time), so both runs of the battery expect the same outcome.
	LongBuiltin bool
	// Heavy marks a cell that needs more compute to reach its bound than the
	// wasip1 module (the core interpreted inside wasm, ~1,000x slower on
	// compute) does within the battery's timeoutMs, so it ends there as
	// timeout instead: the differential leaves it to the compiled engines.
	Heavy bool
	// TimeoutMs, when set, runs the case on a runtime with this timeoutMs
	// (cells that must reach a bound slower than the battery's default).
	TimeoutMs int
	// Want must appear in the failed result's error, or equal the completed
	// result's value as JSON text; empty means the status and code are the
	// whole expectation.
	Want string
}

// Cases are grouped by what they attack. Expectations are exact where the
// spec fixes them (codes, messages) and substrings where the guest's own error
// text is free.
var Cases = concat(escape, exhaustion, inputs, protocol)

func concat(groups ...[]Case) []Case {
	var out []Case
	for _, g := range groups {
		out = append(out, g...)
	}
	return out
}

var escape = []Case{
	{Name: "escape/no host globals",
		Code:   `return ["process","require","module","exports","Deno","Bun","fetch","XMLHttpRequest","WebSocket","importScripts","std","os","__filename","Buffer","WebAssembly"].filter((n) => typeof globalThis[n] !== "undefined")`,
		Status: "completed", Want: `[]`},
	{Name: "escape/bridge functions are not globals",
		Code:   `return Object.getOwnPropertyNames(globalThis).filter((n) => n.startsWith("__"))`,
		Status: "completed", Want: `[]`},
	{Name: "escape/import statement refused before evaluation",
		Code: `import fs from "fs"; return 1`, Status: "failed", ErrorCode: "invalid_input", Want: "import"},
	{Name: "escape/require refused before evaluation",
		Code: `const fs = require("fs"); return fs`, Status: "failed", ErrorCode: "invalid_input", Want: "require"},
	{Name: "escape/dynamic import refused",
		Code: `const m = await import("fs"); return 1`, Status: "failed", ErrorCode: "invalid_input", Want: "import"},
	{Name: "escape/dynamic import through a comment",
		Code: `const m = await import /* x */ ("fs"); return 1`, Status: "failed", ErrorCode: "invalid_input", Want: "import"},
	{Name: "escape/import through eval has no loader",
		Code:   `try { await eval('import("fs")'); return "loaded" } catch (e) { return "refused" }`,
		Status: "completed", Want: `"refused"`},
	{Name: "escape/require through new Function is undefined",
		Code:   `try { return typeof new Function("return require")() } catch (e) { return e.name }`,
		Status: "completed", Want: `"ReferenceError"`},
	{Name: "escape/unicode-escaped require is still not defined",
		Code:   `try { return typeof r\u0065quire } catch (e) { return e.name }`,
		Status: "completed", Want: `"undefined"`},
	{Name: "escape/computed member reaches nothing",
		Code:   `const g = globalThis; const k = ["req", "uire"].join(""); return typeof g[k]`,
		Status: "completed", Want: `"undefined"`},
	{Name: "escape/import inside a template string is only text",
		Code:   "const s = `import(\"fs\")`; return s.length",
		Status: "completed", Want: `12`},
	{Name: "escape/no CallSite leaks a host function",
		Code: `const got = []; Error.prepareStackTrace = (e, cs) => { for (const c of cs) { try { got.push(typeof c.getFunction()) } catch (x) {} } return "" };
await tools.search("shipments"); try { null.x } catch (e) { e.stack } return got.filter((t) => t === "function").length`,
		Status: "completed", Want: `0`},
	{Name: "escape/prototype pollution through a tool result does not reach the guest's Object.prototype",
		Code:   `const r = await tools.echo({message: "m", "__proto__": {"polluted": 1}, "constructor": {"prototype": {"p2": 1}}}); return [({}).polluted === undefined, ({}).p2 === undefined]`,
		Status: "completed", Want: `[true,true]`},
	{Name: "escape/getters toJSON and toPrimitive in tool inputs run once in the guest, never on the host",
		Code: `let n = 0; const input = { message: "m", get a() { n++; return 1 }, b: { toJSON() { n++; return "j" } }, c: { [Symbol.toPrimitive]() { return 7 } } };
await tools.callValue("openclaw:core:echo", input); return n`,
		Status: "completed", Want: `2`},
	{Name: "escape/a Proxy as tool input is serialized by the guest or refused",
		Code:   `const p = new Proxy({}, { ownKeys() { throw new Error("trap") } }); try { await tools.echo(p); return "sent" } catch (e) { return e.message.includes("trap") }`,
		Status: "completed", Want: `true`},
	{Name: "escape/replacing JSON before calling tools does not change what the host sees",
		Code:   `JSON.stringify = () => '{"evil":1'; JSON.parse = () => ({ forged: true }); const r = await tools.callValue("openclaw:core:echo", { message: "x" }); return typeof r`,
		Status: "completed", Want: `"object"`},
	{Name: "escape/replacing Promise and then before calling tools",
		Code:   `Object.prototype.then = function (res) { res("forged") }; const r = await tools.callValue("openclaw:core:echo", { message: "m" }); delete Object.prototype.then; return r === "forged" ? "guest-only" : "unchanged"`,
		Status: "completed", Want: `"guest-only"`},
	{Name: "escape/a replaced Object.prototype.toJSON cannot forge the result",
		Code:   `Object.prototype.toJSON = function () { return "forged" }; return { ok: 1 }`,
		Status: "completed", Want: `"forged"`},
	{Name: "escape/error whose name and message getters throw",
		Code:   `throw { get name() { throw new Error("n") }, get message() { throw new Error("m") } }`,
		Status: "failed", Want: "Error"},
	{Name: "escape/a thrown string",
		Code: `throw "plain string"`, Status: "failed", Want: "plain string"},
	{Name: "escape/a thrown symbol",
		Code: `throw Symbol("s")`, Status: "failed", Want: "Symbol"},
	{Name: "escape/recursive exec from the guest is refused",
		Code:   `try { await tools.call("exec", { code: "return 1" }); return "ran" } catch (e) { return "refused" }`,
		Status: "completed", Want: `"refused"`},
	{Name: "escape/recursive wait from the guest is refused",
		Code:   `try { await tools.callValue("wait", { runId: "x" }); return "ran" } catch (e) { return "refused" }`,
		Status: "completed", Want: `"refused"`},
	{Name: "escape/a guessed catalog id of a hidden tool",
		Code:   `try { await tools.callValue("openclaw:core:shell_exec_guess", {}); return "ran" } catch (e) { return e.message.includes("unknown") || e.message.includes("not") }`,
		Status: "completed", Want: `true`},
	{Name: "escape/forged namespace ids are refused",
		Code:   `try { await namespaces.Issues.update("1; drop", { state: "closed" }); return "ran" } catch (e) { return "refused" }`,
		Status: "completed", Want: `"refused"`},
	{Name: "escape/API.read refuses path traversal",
		Code:   `const out = []; for (const p of ["../etc/passwd", "/etc/passwd", "mcp/../../x", "mcp//x"]) { try { await API.read(p); out.push("read") } catch (e) { out.push("refused") } } return out`,
		Status: "completed", Want: `["refused","refused","refused","refused"]`},
}

var exhaustion = []Case{
	{Name: "exhaustion/busy loop", Code: `for (;;) {}`, Status: "failed", ErrorCode: "timeout", Want: "timeoutMs"},
	{Name: "exhaustion/busy loop with try/finally", Code: `for (;;) { try { for (;;) {} } finally { continue } }`, Status: "failed", ErrorCode: "timeout", Want: "timeoutMs"},
	{Name: "exhaustion/stringify of a huge string in a loop",
		Code: `const s = "x".repeat(1 << 24); for (;;) JSON.stringify(s)`, Status: "failed", ErrorCode: "timeout", Want: "timeoutMs", LongBuiltin: true},
	{Name: "exhaustion/indexOf in a loop",
		Code: `const s = "a".repeat(1 << 22); for (;;) s.indexOf("b")`, Status: "failed", ErrorCode: "timeout", Want: "timeoutMs", LongBuiltin: true},
	{Name: "exhaustion/join of a huge-length array",
		Code: `const a = []; a.length = 2 ** 32 - 1; a.join(",")`, Status: "failed", ErrorCode: "timeout", Want: "timeoutMs", LongBuiltin: true},
	{Name: "exhaustion/regex backtracking",
		Code: `/^(a+)+$/.test("a".repeat(40) + "b"); return 1`, Status: "failed", ErrorCode: "timeout", Want: "timeoutMs", LongBuiltin: true},
	// The default sort compares numbers as strings, so it allocates as it goes:
	// 2e5 elements keep each pass well inside memoryLimitBytes (1e6 sometimes
	// ran out of memory before the deadline, an outcome of its own).
	{Name: "exhaustion/default sort in a loop",
		Code: `const a = Array.from({ length: 2e5 }, (_, i) => (i * 7919) % 200003); for (;;) a.slice().sort()`, Status: "failed", ErrorCode: "timeout", Want: "timeoutMs", LongBuiltin: true},
	{Name: "exhaustion/typed-array copies",
		Code: `const b = new Uint8Array(1 << 24); for (;;) b.copyWithin(1, 0)`, Status: "failed", ErrorCode: "timeout", Want: "timeoutMs", LongBuiltin: true},
	{Name: "exhaustion/microtask flood", Code: `for (;;) await null`, Status: "failed", ErrorCode: "timeout", Want: "timeoutMs"},
	// QuickJS's hottest short loops (a call's frame set-up and teardown, the
	// argument frees, the catch re-entry, the property lookup's chain walk),
	// each driven as long as a cell can: loopguard counts only a loop's
	// back-edges, so these must still be counted once they repeat.
	{Name: "exhaustion/calls of a frame with 20000 locals",
		Code: `function f() { var ` + manyNames("v", 20000) + ` } for (;;) f()`, Status: "failed", ErrorCode: "timeout", Want: "timeoutMs"},
	{Name: "exhaustion/calls with 60000 arguments",
		Code: `function f() {} const args = new Array(60000).fill(0); for (;;) f.apply(null, args)`, Status: "failed", ErrorCode: "timeout", Want: "timeoutMs"},
	{Name: "exhaustion/throw and catch in a loop", Code: `for (;;) { try { throw 0 } catch {} }`, Status: "failed", ErrorCode: "timeout", Want: "timeoutMs"},
	{Name: "exhaustion/lookups on an object of 1e5 properties",
		Code: `const o = {}; for (let i = 0; i < 1e5; i++) o["p" + i] = i; let n = 0; for (;;) n += o.p5 + (o.missing ?? 0)`, Status: "failed", ErrorCode: "timeout", Want: "timeoutMs"},
	{Name: "exhaustion/memory bomb ends the VM",
		Code: `const a = []; for (;;) a.push("x".repeat(4096) + a.length)`, Status: "failed", Want: "memoryLimitBytes", TimeoutMs: 30000},
	{Name: "exhaustion/deep recursion is a catchable RangeError",
		Code: `function f(n) { return f(n + 1) + 1 } try { f(0) } catch (e) { return e.name }`, Status: "completed", Want: `"RangeError"`},
	{Name: "exhaustion/deep toString chain",
		Code:   `let o = {}; for (let i = 0; i < 1e5; i++) o = { toString: ((p) => () => String(p))(o) }; try { String(o); return "done" } catch (e) { return e.name }`,
		Status: "completed", Want: `"RangeError"`, Heavy: true, TimeoutMs: 10000}, // ~1.9 s under -race alone
	{Name: "exhaustion/deeply nested value returned",
		Code: `let v = 1; for (let i = 0; i < 1e5; i++) v = [v]; return v`, Status: "completed", Heavy: true, TimeoutMs: 10000},
	{Name: "exhaustion/output flood through text",
		Code: `for (let i = 0; ; i++) text("line " + i)`, Status: "failed", ErrorCode: "output_limit_exceeded", Want: "maxOutputBytes", Heavy: true},
	{Name: "exhaustion/output flood through json",
		Code: `for (let i = 0; ; i++) json({ i, pad: "x".repeat(100) })`, Status: "failed", ErrorCode: "output_limit_exceeded", Want: "maxOutputBytes", Heavy: true},
	{Name: "exhaustion/output flood through console",
		Code: `for (let i = 0; ; i++) console.log("line", i)`, Status: "failed", ErrorCode: "output_limit_exceeded", Want: "maxOutputBytes", Heavy: true},
	{Name: "exhaustion/too many pending tool calls",
		Code:   `const ps = []; for (let i = 0; i < 200; i++) ps.push(tools.echo({ message: "m" + i })); await Promise.all(ps); return "all"`,
		Status: "failed", Want: "maxPendingToolCalls", Heavy: true},
	{Name: "exhaustion/too many timers",
		Code:   `const ids = []; let err = ""; try { for (let i = 0; i < 5000; i++) ids.push(setTimeout(() => {}, 1e6)) } catch (e) { err = e.name } ids.forEach(clearTimeout); return [ids.length, err]`,
		Status: "completed", Want: `[1000,"RangeError"]`, Heavy: true},
	{Name: "exhaustion/a promise nothing settles",
		Code: `await new Promise(() => {}); return 1`, Status: "failed", Want: "nothing will ever settle"},
	{Name: "exhaustion/huge source text",
		Code: "return 1 //" + bigComment, Status: "failed", ErrorCode: "invalid_input", Want: "at most"},
	{Name: "exhaustion/adversarial TypeScript nesting", Language: "typescript",
		Code: "const f = " + repeat("() => ", 20000) + "1; return 1", Status: "failed", ErrorCode: "invalid_input"},
	{Name: "exhaustion/huge JSON through the bridge",
		Code:   `try { await tools.echo({ message: "x".repeat(17 << 20) }); return "sent" } catch (e) { return e.name }`,
		Status: "completed", Want: `"RangeError"`, TimeoutMs: 30000, LongBuiltin: true},
	{Name: "exhaustion/deeply nested JSON through the bridge is cut by the output adapter",
		Code:   `let v = {}; for (let i = 0; i < 10000; i++) v = { v }; try { await tools.echo({ message: "m", v }); return "sent" } catch (e) { return "refused" }`,
		Status: "completed", Want: `"sent"`, Heavy: true},
}

var inputs = []Case{
	{Name: "inputs/echo with a non-object input names the problem",
		Code:   `try { await tools.callValue("openclaw:core:echo", "not an object"); return "ran" } catch (e) { return e.message.includes("want object") && !/Go value|struct|json: /.test(e.message) }`,
		Status: "completed", Want: `true`},
	{Name: "inputs/sleep_ms with a string names the field",
		Code:   `try { await tools.sleep_ms({ ms: "soon" }); return "ran" } catch (e) { return e.message.includes("ms") && !/Go value|struct|json: /.test(e.message) }`,
		Status: "completed", Want: `true`},
	{Name: "inputs/sleep_ms out of range names the field",
		Code:   `try { await tools.sleep_ms({ ms: -5 }); return "ran" } catch (e) { return e.message.includes("ms") && !/Go value|struct|json: /.test(e.message) }`,
		Status: "completed", Want: `true`},
	{Name: "inputs/shipping_list with an unknown field",
		Code:   `try { await tools.shipping_list({ filter: 1 }); return "ran" } catch (e) { return e.message.includes("filter") && !/Go value|struct|json: /.test(e.message) }`,
		Status: "completed", Want: `true`},
	{Name: "inputs/Issues.update with a wrong state type",
		Code:   `try { await namespaces.Issues.update(1, { state: 7 }); return "ran" } catch (e) { return e.message.includes("state") && !/Go value|struct|json: /.test(e.message) }`,
		Status: "completed", Want: `true`},
	{Name: "inputs/github_list_issues with a wrong type",
		Code:   `const t = ALL_TOOLS.find((x) => x.name === "github_list_issues"); try { await tools.callValue(t.id, { state: ["open"] }); return "ran" } catch (e) { return e.message.includes("state") && !/Go value|struct|json: /.test(e.message) }`,
		Status: "completed", Want: `true`},
}

var protocol = []Case{
	{Name: "protocol/tools.call with a forged payload shape",
		Code:   `try { await tools.call(123, null); return "ran" } catch (e) { return e instanceof Error }`,
		Status: "completed", Want: `true`},
	{Name: "protocol/describe of an unknown id",
		Code:   `try { await tools.describe("openclaw:core:nope"); return "ran" } catch (e) { return e.message.includes("nope") }`,
		Status: "completed", Want: `true`},
	{Name: "protocol/search limit out of bounds",
		Code:   `try { const r = await tools.search("x", { limit: 1e9 }); return r.length <= 50 } catch (e) { return e instanceof RangeError }`,
		Status: "completed", Want: `true`},
}

var bigComment = repeat("x", 300<<10)

func repeat(s string, n int) string {
	b := make([]byte, 0, len(s)*n)
	for i := 0; i < n; i++ {
		b = append(b, s...)
	}
	return string(b)
}

// Mismatch says how a result differs from what the case expects, or "" when
// it does not: every host's run of the battery judges results with it.
func (c Case) Mismatch(status, code, errText string, value []byte) string {
	switch {
	case status != c.Status:
		return fmt.Sprintf("status %s, want %s", status, c.Status)
	case c.ErrorCode != "" && code != c.ErrorCode:
		return fmt.Sprintf("code %q, want %q", code, c.ErrorCode)
	case c.Want == "":
		return ""
	case status == "failed" && !strings.Contains(errText, c.Want):
		return fmt.Sprintf("error %q does not contain %q", errText, c.Want)
	case status == "completed" && canonical(value) != canonical([]byte(c.Want)):
		return fmt.Sprintf("value %s, want %s", value, c.Want)
	}
	return ""
}

// canonical is JSON text in one spelling (hosts escape U+2028 and the like
// differently), numbers kept as written; text that is not JSON stays as is.
func canonical(b []byte) string {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if d.Decode(&v) != nil {
		return string(b)
	}
	out, err := json.Marshal(v)
	if err != nil {
		return string(b)
	}
	return string(out)
}

// manyNames returns "p0, p1, ..." with n names.
func manyNames(p string, n int) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s%d", p, i)
	}
	return b.String()
}
