// node --test for the inline mode (Node.js): the real codemode.wasm from
// build/web (./build.sh build-web), the real `codemode serve` for server tools.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import path from "node:path";
import { createCodeMode } from "./codemode.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const assets = new URL("../build/web/", import.meta.url);
const schema = { type: "object", properties: { who: { type: "string" } } };

let server, serverURL, cm;

/** Starts build/codemode serve (example toolset + server-everything) on a free port. */
async function startServe() {
  const port = 20000 + Math.floor(Math.random() * 30000);
  const child = spawn(path.join(root, "build/codemode"), ["serve", "--config", path.join(root, "tests/e2e/hostjs/serve.json5"), "--addr", `127.0.0.1:${port}`], { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
  const url = await new Promise((resolve, reject) => {
    let out = "";
    const t = setTimeout(() => reject(new Error("codemode serve did not start: " + out)), 30000);
    const onData = (d) => {
      out += d;
      const m = out.match(/http:\/\/127\.0\.0\.1:\d+/);
      if (m) { clearTimeout(t); resolve(m[0]); }
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.on("exit", (code) => reject(new Error(`codemode serve exited ${code}: ${out}`)));
  });
  return { child, url };
}

const slowTool = (log) => ({
  name: "slow", description: "Waits until aborted.", parameters: { type: "object" }, readOnly: true,
  execute: (_in, { signal, callId }) => new Promise((_, reject) => {
    signal.addEventListener("abort", () => { log.push(["aborted", callId]); reject(new Error("aborted")); });
  }),
});

const aborts = [];
before(async () => {
  ({ child: server, url: serverURL } = await startServe());
  cm = await createCodeMode({
    assets,
    app: "demo",
    config: { timeoutMs: 2000 },
    serverTools: { url: serverURL },
    clientTools: [
      { name: "greet", description: "Greets someone.", parameters: schema, readOnly: true, execute: async ({ who }) => ({ hello: who }) },
      { name: "explode", description: "Always throws.", parameters: { type: "object" }, execute: async () => { throw new RangeError("client says no"); } },
      slowTool(aborts),
      { name: "seen", description: "Answers the runId and callId it was called with.", parameters: { type: "object" }, readOnly: true, execute: async (_in, { runId, callId }) => ({ runId, callId }) },
    ],
  });
});
after(async () => {
  await cm?.close();
  server?.kill("SIGTERM");
});

test("options are checked in JavaScript: a TypeError names the option", async () => {
  const cases = [
    [{ app: 3 }, /options\.app must be a string/],
    [{ config: [] }, /options\.config must be an object/],
    [{ clientTools: {} }, /options\.clientTools must be an array/],
    [{ app: "a", clientTools: [{ name: "x", description: "d", parameters: {} }] }, /options\.clientTools\[0\]\.execute must be a function/],
    [{ app: "a", clientTools: [{ name: "1x", description: "d", parameters: {}, execute() {} }] }, /options\.clientTools\[0\]\.name/],
    [{ clientTools: [{ name: "x", description: "d", parameters: {}, execute() {} }] }, /options\.app is required/],
    [{ serverTools: { url: "ftp://x" } }, /options\.serverTools\.url must be an http\(s\) URL/],
    [{ serverTools: { url: "http://x", headers: { a: 1 } } }, /options\.serverTools\.headers\["a"\] must be a string/],
    [{ engine: "v8" }, /options\.engine must be "host" or "wazero"/],
    [{ thread: "fiber" }, /options\.thread must be "worker" or "inline"/],
    [{ asset: "x" }, /unknown option "asset"/],
    [{ config: { enabled: false } }, /enabled is implied/],
    [{ demo: "yes" }, /options\.demo must be a boolean/],
    [{ demo: true, engine: "wazero" }, /options\.demo needs engine "host"/],
  ];
  for (const [opts, re] of cases) {
    await assert.rejects(createCodeMode(opts), (e) => e instanceof TypeError && re.test(e.message), JSON.stringify(opts));
  }
  await assert.rejects(cm.exec({ code: 1 }), TypeError);
  await assert.rejects(cm.exec({ code: "1", extra: 1 }), /unknown field "extra"/);
  await assert.rejects(cm.wait({}), /runId must be a string/);
  await assert.rejects(cm.surface("xml"), /field "format" must be "plain"/);
});

test("JavaScript and TypeScript cells complete with the spec's result union", async () => {
  const js = await cm.exec({ code: "text('hi'); return [1, 2].map((x) => x * 2)" });
  assert.equal(js.status, "completed");
  assert.deepEqual(js.value, [2, 4]);
  assert.deepEqual(js.output, [{ type: "text", text: "hi" }]);
  assert.equal(typeof js.telemetry.catalogSize, "number");
  const ts = await cm.exec({ code: "const n: number = 41; return n + 1;", language: "typescript" });
  assert.equal(ts.status, "completed");
  assert.equal(ts.value, 42);
  const bad = await cm.exec({ code: "const n: number = ;", language: "typescript" });
  assert.equal(bad.status, "failed");
  assert.equal(bad.code, "invalid_input");
});

// codemode.wasm has no compiler: TypeScript runs in tsx.wasm, and its answer
// crosses to the core in a wire form that carries the line map too.
test("TypeScript through tsx.wasm: a syntax error names the cell's line, a throw maps to the TypeScript line", async () => {
  const bad = await cm.exec({ code: "const a = 1;\nconst n: number = ;", language: "typescript" });
  assert.equal(bad.status, "failed");
  assert.match(bad.error, /typescript:2:/);
  const r = await cm.exec({ code: "type A = { n: number };\nconst a: A = { n: 1 };\nthrow new Error('boom ' + a.n);", language: "typescript" });
  assert.equal(r.status, "failed");
  assert.match(r.error, /boom 1[\s\S]*cell\.ts:3:/);
});

test("client tools: untrusted entries, found by search, called, errors catchable", async () => {
  const cat = await cm.catalog();
  const greet = cat.find((e) => e.id === "client:demo:greet");
  assert.ok(greet, JSON.stringify(cat.map((e) => e.id)));
  assert.equal(greet.source, "client");
  assert.equal(greet.sourceName, "demo");
  assert.equal(greet.input, "unknown");
  assert.equal(greet.output, undefined);
  const r = await cm.exec({ code: `const [t] = await tools.search("greets someone"); return { id: t.id, v: await tools.callValue(t.id, { who: "Ada" }) };` });
  assert.equal(r.status, "completed", JSON.stringify(r));
  assert.deepEqual(r.value, { id: "client:demo:greet", v: { hello: "Ada" } });
  const e = await cm.exec({ code: `try { await tools.callValue("client:demo:explode", {}); return "no"; } catch (e) { return e.message; }` });
  assert.equal(e.status, "completed", JSON.stringify(e));
  assert.match(e.value, /client:demo:explode/);
  assert.match(e.value, /RangeError: client says no/);
});

test("errors a model can act on: the same words as every other host (issue 24)", async () => {
  const rows = [
    ["await tools.gret({ who: 'x' })", /^TypeError: tools\.gret is not a tool in this run\. Did you mean tools\.greet\?.*\n {4}at <anonymous> \(cell\.js:1:7\)$/s],
    ["return await MCP.everything.get_sum({ a: 1, b: 2 })", /^TypeError: MCP\.everything\.get_sum is not a tool of the MCP server MCP\.everything\. Did you mean MCP\.everything\.getSum\?/],
    ["return (1 +", /^SyntaxError: unexpected end of the cell \(a bracket, string, template or expression is left open\)\n {4}at cell\.js:1:12$/],
    ["const a = 1;\nnull.x", /\(cell\.js:2:1\)$/],
  ];
  for (const [code, want] of rows) {
    const r = await cm.exec({ code });
    assert.equal(r.status, "failed", code);
    assert.match(r.error, want, code);
    assert.doesNotMatch(r.error, /__openclaw|bridge|malformed message|prelude\.js/, code);
  }
  const ts = await cm.exec({ code: "const a: number = 1;\n\nnull.x", language: "typescript" });
  assert.match(ts.error, /\(cell\.ts:3:1\)$/);
  // Lone surrogates cross as U+FFFD: text, json, a client tool's input, the result.
  const s = await cm.exec({ code: `text("a\\ud800"); json({ k: "\\udc00" }); const g = await tools.greet({ who: "\\udfff" }); return "b\\ud800" + g.hello;` });
  assert.equal(s.status, "completed", JSON.stringify(s));
  assert.equal(s.value, "b\ufffd\ufffd");
  assert.deepEqual(s.output, [{ type: "text", text: "a\ufffd" }, { type: "json", value: { k: "\ufffd" } }]);
});

test("yield_control then wait; abort reaches a pending client tool's signal", async () => {
  const y = await cm.exec({ code: `text("a"); await yield_control("checkpoint"); text("b"); return "done";` });
  assert.equal(y.status, "waiting");
  const w = await cm.wait({ runId: y.runId });
  assert.equal(w.status, "completed", JSON.stringify(w));
  assert.equal(w.value, "done");
  const again = await cm.wait({ runId: y.runId });
  assert.equal(again.code, "invalid_input");
  assert.match(again.error, /unavailable or expired/);

  const s = await cm.exec({ code: `const p = tools.callValue("client:demo:slow", {}); await yield_control(); return await p;` });
  assert.equal(s.status, "waiting", JSON.stringify(s));
  assert.equal(await cm.abort(s.runId), true);
  for (let i = 0; i < 50 && aborts.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
  assert.equal(aborts.length, 1);
  assert.equal((await cm.wait({ runId: s.runId })).code, "invalid_input");
});

test("restartTTL restarts a waiting run's TTL; refusals carry wait's code and message", async () => {
  const scope = { agentId: "a", sessionId: "s-ttl" };
  const y = await cm.exec({ code: `await yield_control(); return "kept";` }, { scope });
  assert.equal(y.status, "waiting", JSON.stringify(y));
  const before = Date.now();
  const ok = await cm.restartTTL(y.runId, { scope });
  assert.equal(ok.ok, true, JSON.stringify(ok));
  // The default snapshotTtlSeconds is 900.
  assert.ok(ok.expiresAt >= before + 899_000 && ok.expiresAt <= Date.now() + 900_000, JSON.stringify(ok));
  assert.deepEqual(await cm.restartTTL(y.runId, { scope: { ...scope, sessionId: "other" } }),
    { ok: false, code: "invalid_input", error: "code mode run belongs to a different session." });
  assert.equal((await cm.wait({ runId: y.runId }, { scope })).value, "kept");
  assert.deepEqual(await cm.restartTTL(y.runId, { scope }),
    { ok: false, code: "invalid_input", error: "code mode run is unavailable or expired." });
  await assert.rejects(cm.restartTTL(7), /restartTTL: runId must be a string/);
  await assert.rejects(cm.restartTTL("x", { scope: { agent: "a" } }), /scope: unknown field "agent"/);
});

test("stats: the core's goroutines come back to their count after execs, suspensions and client calls", async () => {
  const before = await cm.stats();
  assert.ok(Number.isInteger(before.goroutines) && before.goroutines > 0, JSON.stringify(before));
  assert.ok(Number.isInteger(before.heapBytes) && before.heapBytes > 0, JSON.stringify(before));
  for (let i = 0; i < 20; i++) {
    assert.equal((await cm.exec({ code: `return ${i} + 1` })).value, i + 1);
    const y = await cm.exec({ code: `await yield_control(); return await tools.callValue("client:demo:greet", {who: "x"});` });
    assert.equal(y.status, "waiting", JSON.stringify(y));
    assert.equal((await cm.wait({ runId: y.runId })).status, "completed");
  }
  let after = await cm.stats();
  for (let i = 0; i < 50 && after.goroutines > before.goroutines; i++) {
    await new Promise((r) => setTimeout(r, 20));
    after = await cm.stats();
  }
  assert.ok(after.goroutines <= before.goroutines, `goroutines ${before.goroutines} -> ${after.goroutines}`);
});

test("a client tool sees the run's runId (the one wait takes), the same before and after a suspension", async () => {
  const y = await cm.exec({ code: `const a = await tools.callValue("client:demo:seen", {}); await yield_control(); const b = await tools.callValue("client:demo:seen", {}); return [a, b];` });
  assert.equal(y.status, "waiting", JSON.stringify(y));
  const w = await cm.wait({ runId: y.runId });
  assert.equal(w.status, "completed", JSON.stringify(w));
  const [a, b] = w.value;
  assert.equal(a.runId, y.runId);
  assert.equal(b.runId, y.runId);
  assert.notEqual(a.callId, b.callId);
});

test("server tools: shipping_list relayed with its output hint", async () => {
  const cat = await cm.catalog();
  const ship = cat.find((e) => e.name === "shipping_list");
  assert.ok(ship, JSON.stringify(cat.map((e) => e.id)));
  assert.equal(ship.source, "openclaw");
  assert.ok(ship.output && ship.output.includes("tons"), JSON.stringify(ship));
  const r = await cm.exec({ code: `const [t] = await tools.search("list shipments"); const s = await tools.callValue(t.id, {}); return s.length > 0 && s.every((x) => typeof x.tons === "number");` });
  assert.equal(r.status, "completed", JSON.stringify(r));
  assert.equal(r.value, true);
});

test("the Issues namespace is only in the demo core (demo: true, codemode.demo.wasm), not in the shipped codemode.wasm", async () => {
  const code = `return "Issues" in namespaces ? (await Issues.list({ state: "closed" })).length : "no Issues"`;
  const shipped = await cm.exec({ code });
  assert.equal(shipped.status, "completed", JSON.stringify(shipped));
  assert.equal(shipped.value, "no Issues");
  const demo = await createCodeMode({ assets, demo: true, serverTools: { url: serverURL } });
  try {
    const r = await demo.exec({ code });
    assert.equal(r.status, "completed", JSON.stringify(r));
    assert.equal(r.value, 1);
  } finally {
    await demo.close();
  }
});

test("server MCP tools appear under MCP.<server> with API files", async () => {
  const cat = await cm.catalog();
  assert.ok(cat.some((e) => e.id === "mcp:everything:echo"), JSON.stringify(cat.map((e) => e.id)));
  assert.ok(!cat.some((e) => e.source === "mcp" && e.id.startsWith("openclaw:")));
  const r = await cm.exec({ code: `const files = await API.list("mcp"); const d = await API.read(files.find((f) => f.path.includes("everything")).path); const res = await MCP.everything.echo({ message: "relayed" }); return { d: d.includes("echo"), res };` });
  assert.equal(r.status, "completed", JSON.stringify(r));
  assert.equal(r.value.d, true);
  assert.match(JSON.stringify(r.value.res), /relayed/);
});

test("a relayed MCP server's resources and prompts are read through the server (POST /v1/mcp/...)", async () => {
  // The server lists the resources in its catalog; the page core reads one.
  const cat = await (await fetch(`${serverURL}/v1/catalog`)).json();
  const uri = cat.mcpServers.find((m) => m.name === "everything").resources[0].uri;
  const r = await cm.exec({ code: `
    const read = await MCP.everything.resources.read({ uri: ${JSON.stringify(uri)} });
    const p = await MCP.everything.prompts.get({ name: "args-prompt", arguments: { city: "Berlin" } });
    let bad = ""; try { await MCP.everything.prompts.get({ name: "no-such-prompt" }); } catch (e) { bad = e.message; }
    return { uri: read.contents[0].uri, p: JSON.stringify(p), bad };` });
  assert.equal(r.status, "completed", JSON.stringify(r));
  assert.equal(r.value.uri, uri);
  assert.match(r.value.p, /weather in Berlin/);
  assert.match(r.value.bad, /no-such-prompt/);
  assert.doesNotMatch(r.value.bad, /goroutine|\.go:|not available through the tool relay/);
});

test("an unreachable server is a clear, catchable error naming the URL", async () => {
  await assert.rejects(createCodeMode({ assets, serverTools: { url: "http://127.0.0.1:1" } }), (e) => e instanceof Error && /http:\/\/127\.0\.0\.1:1\/v1\/catalog/.test(e.message) && !/goroutine|\.go:/.test(e.message));
});

test("the wazero engine runs the same cells", async () => {
  const wz = await createCodeMode({ assets, engine: "wazero" });
  try {
    const r = await wz.exec({ code: "let s = 0; for (let i = 0; i < 1000; i++) s += i; return s;" });
    assert.equal(r.status, "completed");
    assert.equal(r.value, 499500);
  } finally {
    await wz.close();
  }
});

test("a spinning cell times out and the runtime keeps serving", async () => {
  const r = await cm.exec({ code: "while (true) {}" });
  assert.equal(r.status, "failed");
  assert.equal(r.code, "timeout");
  assert.equal((await cm.exec({ code: "return 7" })).value, 7);
});

// Inline mode has no worker to terminate: the loop guard in build/web's
// quickjs.wasm is what stops a guest inside a long built-in, which never
// reaches QuickJS's own interrupt check.
for (const [name, code] of [
  ["JSON.stringify of a 16 MiB string", `let s = "x".repeat(1 << 24); for (;;) JSON.stringify(s);`],
  ["indexOf over a 4 MiB string", `const s = "a".repeat(1 << 22); for (;;) s.indexOf("b");`],
]) {
  test(`a loop of long built-ins (${name}) ends as timeout near timeoutMs and the runtime keeps serving`, async () => {
    const t0 = performance.now();
    const r = await cm.exec({ code });
    const took = performance.now() - t0;
    assert.equal(r.status, "failed", JSON.stringify(r).slice(0, 300));
    assert.equal(r.code, "timeout");
    // timeoutMs is 2000 here; the bound is generous for a loaded machine, and
    // an unguarded module never returns at all.
    assert.ok(took < 2000 + 3000, `took ${Math.round(took)} ms`);
    assert.equal((await cm.exec({ code: "return 7" })).value, 7);
  });
}

test("close() stops the runtime", async () => {
  const c = await createCodeMode({ assets });
  await c.close();
  await assert.rejects(c.exec({ code: "return 1" }), /closed/);
});

test("stop() needs the worker thread: inline it refuses, naming why", async () => {
  const c = await createCodeMode({ assets });
  await assert.rejects(c.stop(), /stop: needs thread "worker"/);
  await assert.rejects(c.stop(42), /reason must be a string/);
  assert.equal((await c.exec({ code: "return 3" })).value, 3);
  await c.close();
  await assert.rejects(c.stop(), /closed/);
});
