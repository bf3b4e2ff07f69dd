// node --test hostjs/modules.test.mjs (after ./build.sh build): the options a
// Durable Object uses: imported modules instead of asset URLs, a scope per
// call, and the interrupt budget's rate.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";

const web = new URL("../build/web/", import.meta.url);
await import(new URL("wasm_exec.js", web));
const { createCodeMode } = await import(new URL("codemode.js", web));
const modules = {
  codemode: await WebAssembly.compile(await readFile(new URL("codemode.wasm", web))),
  quickjs: await WebAssembly.compile(await readFile(new URL("quickjs.wasm", web))),
};

test("modules, scope and interruptsPerSecond", async () => {
  const cm = await createCodeMode({ thread: "inline", modules, interruptsPerSecond: 10, config: { timeoutMs: 60000 } });
  try {
    const a = { agentId: "a", sessionId: "s", sessionKey: "k1" };
    const w = await cm.exec({ code: "await yield_control('x'); return 'mine'" }, { scope: a });
    assert.equal(w.status, "waiting");
    const other = await cm.wait({ runId: w.runId }, { scope: { ...a, sessionKey: "k2" } });
    assert.equal(other.status, "failed");
    assert.equal(other.code, "invalid_input");
    const done = await cm.wait({ runId: w.runId }, { scope: a });
    assert.equal(done.value, "mine");
    // 60 s of wall clock away, 600 checks of budget: the budget ends the loop.
    const t0 = Date.now();
    const spin = await cm.exec({ code: "while (true) {}" }, { scope: a });
    assert.equal(spin.code, "timeout");
    assert.ok(Date.now() - t0 < 30000, `while(true) ran ${Date.now() - t0} ms`);
  } finally {
    await cm.close();
  }
});

test("bad modules and rates are TypeErrors naming the option", async () => {
  await assert.rejects(createCodeMode({ thread: "inline", modules: { codemode: 1, quickjs: modules.quickjs } }), /options\.modules\.codemode must be a WebAssembly\.Module/);
  await assert.rejects(createCodeMode({ thread: "inline", modules, interruptsPerSecond: 0 }), /interruptsPerSecond must be a positive integer/);
  await assert.rejects(createCodeMode({ thread: "inline", serverTools: { url: "http://127.0.0.1:1", fetch: "no" } }), /serverTools\.fetch must be a function/);
});

test("a scope with unknown fields is refused", async () => {
  const cm = await createCodeMode({ thread: "inline", modules });
  try {
    await assert.rejects(cm.exec({ code: "return 1" }, { scope: { agent: "x" } }), /scope: unknown field "agent"/);
  } finally {
    await cm.close();
  }
});

test("modules.tsx runs TypeScript; without it a TypeScript cell fails naming what to pass", async () => {
  const tsx = await WebAssembly.compile(await readFile(new URL("tsx.wasm", web)));
  const cm = await createCodeMode({ thread: "inline", modules: { ...modules, tsx } });
  const bare = await createCodeMode({ thread: "inline", modules });
  try {
    const r = await cm.exec({ code: "const n: number = 41; return n + 1", language: "typescript" });
    assert.equal(r.value, 42);
    const no = await bare.exec({ code: "const n: number = 41; return n + 1", language: "typescript" });
    assert.equal(no.status, "failed");
    assert.match(no.error, /modules\.tsx/);
    assert.equal((await bare.exec({ code: "return 7" })).value, 7);
  } finally {
    await cm.close();
    await bare.close();
  }
  await assert.rejects(createCodeMode({ thread: "inline", modules: { ...modules, tsx: 1 } }), /options\.modules\.tsx must be a WebAssembly\.Module/);
});
