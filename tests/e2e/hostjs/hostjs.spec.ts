// The hostjs shim in a real page (Debian's Chromium) against the real
// `codemode serve`: the core runs in a dedicated worker on the host's own
// WebAssembly engine, client tools in the page, server tools relayed by fetch.
import { test, expect, type Page } from "@playwright/test";

async function open(page: Page) {
  await page.goto("/hostjs/index.html");
  await page.waitForFunction(() => (window as any).pageReady === true);
  await page.evaluate(async () => { (window as any).cm = await (window as any).makeCodeMode(); });
}

const exec = (page: Page, code: string, language?: string, on = "cm") =>
  page.evaluate(({ code, language, on }) => (window as any)[on].exec(language ? { code, language } : { code }), { code, language, on });

/** A second runtime with a short timeoutMs for the timeout specs. */
const short = (page: Page) =>
  page.evaluate(async () => {
    (window as any).short = await (window as any).makeCodeMode({ config: { timeoutMs: 1000 } });
  });

test.describe("hostjs in a page", () => {
  test.beforeEach(async ({ page }) => open(page));
  test.afterEach(async ({ page }) => page.evaluate(() => (window as any).cm?.close()));

  test("JavaScript and TypeScript cells run in a worker", async ({ page }) => {
    expect(await page.evaluate(() => (window as any).cm.thread)).toBe("worker");
    const js = await exec(page, "text('hi'); return [1, 2, 3].reduce((a, b) => a + b)");
    expect(js).toMatchObject({ status: "completed", value: 6, output: [{ type: "text", text: "hi" }] });
    const ts = await exec(page, "interface P { n: number } const p: P = { n: 41 }; return p.n + 1;", "typescript");
    expect(ts).toMatchObject({ status: "completed", value: 42 });
  });

  // tsx.wasm (the TypeScript transform) is not part of codemode.wasm: the first
  // TypeScript cell of a fresh core loads it, and neither the load nor the
  // transform counts against timeoutMs or the worker's watchdog.
  test("the first TypeScript cell of a fresh core loads tsx.wasm without eating a short timeoutMs", async ({ page }) => {
    await short(page);
    const r = await page.evaluate(async () => {
      const cm = (window as any).short;
      const ready = cm.typescriptReady || new Promise((resolve) => cm.addEventListener("typescriptready", () => resolve(true)));
      const ts = await cm.exec({ code: "const xs: number[] = [1, 2, 3]; return xs.map((x: number): number => x * 2)", language: "typescript" });
      return { ts, ready: await ready, flag: cm.typescriptReady };
    });
    expect(r).toMatchObject({ ts: { status: "completed", value: [2, 4, 6] }, ready: true, flag: true });
    await page.evaluate(() => (window as any).short.close());
  });

  // Idle after start, the worker runs one warm-up cell (V8 compiles the exec
  // path then, not in the first real cell) before it loads tsx.wasm: neither
  // the transcript nor the runs see it, and the first real cell is the first entry.
  test("the idle warm-up cell leaves no trace", async ({ page }) => {
    // A core of its own: makeCodeMode's cells would make the warm-up moot.
    const r = await page.evaluate(async () => {
      const cm = await (window as any).createCodeMode({ app: "page", serverTools: { url: location.origin } });
      try {
        if (!cm.typescriptReady) await new Promise((resolve) => cm.addEventListener("typescriptready", resolve));
        const before = await cm.transcript();
        const first = await cm.exec({ code: "return 7" });
        return { before, first, after: await cm.transcript() };
      } finally {
        cm.close();
      }
    });
    expect(r.before.entries).toEqual([]);
    expect(r.first).toMatchObject({ status: "completed", value: 7 });
    expect(r.after.entries).toHaveLength(1);
    expect(r.after.entries[0]).toMatchObject({ tool: "exec", status: "completed", codeBytes: 8 });
  });

  test("the idle warm-up of the tool-call path calls no page tool and leaves no trace", async ({ page }) => {
    // A page with a client tool: its idle worker also runs the core's own
    // warm-up tool (api.warmUpCalls) before it loads tsx.wasm.
    const r = await page.evaluate(async () => {
      let called = 0;
      const cm = await (window as any).createCodeMode({
        app: "page",
        clientTools: [{ name: "count", description: "Counts its calls.", parameters: { type: "object" }, execute: async () => ++called }],
      });
      try {
        if (!cm.typescriptReady) await new Promise((resolve) => cm.addEventListener("typescriptready", resolve));
        const before = { called, transcript: await cm.transcript() };
        const first = await cm.exec({ code: `return [ALL_TOOLS.map((t) => t.id), await tools.callValue("client:page:count", {})]` });
        return { before, first, called, after: await cm.transcript() };
      } finally {
        cm.close();
      }
    });
    expect(r.before).toEqual({ called: 0, transcript: { entries: [] } });
    expect(r.first).toMatchObject({ status: "completed", value: [["client:page:count"], 1] });
    expect(r.first.telemetry).toMatchObject({ catalogSize: 1, callCount: 1 });
    expect(r.called).toBe(1);
    expect(r.after.entries).toHaveLength(1);
  });

  test("a client tool registered by the page is found by tools.search and called", async ({ page }) => {
    const r = await exec(page, `const [t] = await tools.search("title of the current page");
      const v = await tools.callValue(t.id, {});
      let err = ""; try { await tools.callValue("client:page:explode", {}); } catch (e) { err = e.message; }
      return { id: t.id, v, err };`);
    expect(r.status).toBe("completed");
    expect(r.value.id).toBe("client:page:page_title");
    expect(r.value.v).toEqual({ title: "hostjs test page", ticking: true });
    expect(r.value.err).toContain("client:page:explode");
    expect(r.value.err).toContain("TypeError: page says no");
    const cat = await page.evaluate(() => (window as any).cm.catalog());
    const entry = cat.find((e: any) => e.id === "client:page:page_title");
    expect(entry).toMatchObject({ source: "client", sourceName: "page", input: "unknown" });
    expect(entry.output).toBeUndefined();
  });

  test("server tool shipping_list is relayed with its output hint", async ({ page }) => {
    const cat = await page.evaluate(() => (window as any).cm.catalog());
    const ship = cat.find((e: any) => e.name === "shipping_list");
    expect(ship.source).toBe("openclaw");
    expect(ship.output).toContain("tons");
    const r = await exec(page, `const [t] = await tools.search("list shipments"); const s = await tools.callValue(t.id, {}); return { id: t.id, n: s.length, ok: s.every((x) => typeof x.paid === "boolean") };`);
    expect(r).toMatchObject({ status: "completed", value: { id: ship.id, ok: true } });
    expect(r.value.n).toBeGreaterThan(0);
  });

  test("an MCP tool of the server through MCP.<server> and API.read", async ({ page }) => {
    const r = await exec(page, `const files = await API.list("mcp");
      const f = files.find((x) => x.path.includes("everything"));
      const dts = await API.read(f.path);
      const res = await MCP.everything.echo({ message: "from the page" });
      return { dts: dts.includes("echo"), res: JSON.stringify(res) };`);
    expect(r.status).toBe("completed");
    expect(r.value.dts).toBe(true);
    expect(r.value.res).toContain("from the page");
  });

  test("yield_control then wait", async ({ page }) => {
    const y = await exec(page, `text("before"); await yield_control("checkpoint"); text("after"); return "resumed";`);
    expect(y).toMatchObject({ status: "waiting", reason: "yield" });
    const w = await page.evaluate((runId) => (window as any).cm.wait({ runId }), y.runId);
    expect(w).toMatchObject({ status: "completed", value: "resumed" });
  });

  test("abort reaches a pending client tool's signal", async ({ page }) => {
    const y = await exec(page, `const p = tools.callValue("client:page:slow", {}); await yield_control(); return await p;`);
    expect(y.status).toBe("waiting");
    expect(await page.evaluate((runId) => (window as any).cm.abort(runId), y.runId)).toBe(true);
    await page.waitForFunction(() => (window as any).aborted.length === 1);
  });

  for (const [name, code] of [
    ["while(true){}", "while (true) {}"],
    // Each sort is one built-in call of about half a second: QuickJS counts only
    // bytecode back jumps and calls toward its interrupt check, so the loop
    // guard of build/web's quickjs.wasm is what stops it, from inside, before
    // the worker's watchdog at timeoutMs + grace.
    ["a long built-in loop", `const a = Array.from({length: 2e5}, (_, i) => (i * 7919) % 200003); for (;;) a.slice().sort();`],
  ]) {
    test(`${name} ends as timeout while a page timer keeps ticking`, async ({ page }) => {
      await short(page);
      const before = await page.evaluate(() => (window as any).ticks);
      const started = Date.now();
      const pending = exec(page, code, undefined, "short");
      await page.waitForTimeout(700);
      const during = await page.evaluate(() => (window as any).ticks);
      expect(during - before).toBeGreaterThan(10);
      const r = await pending;
      expect(r).toMatchObject({ status: "failed", code: "timeout" });
      expect(r.error).not.toContain("worker"); // the core's own timeout, not the watchdog's
      expect(Date.now() - started).toBeLessThan(1000 + 1500 + 3000);
      expect((await exec(page, "return 'still serving'", undefined, "short")).value).toBe("still serving");
      await page.evaluate(() => (window as any).short.close());
    });
  }

  test("a cell stuck past timeoutMs + grace stops the worker; its suspended runs answer invalid_input", async ({ page }) => {
    // build/web's quickjs.wasm carries the loop guard, which stops the loop
    // below from inside (the specs above). A host may hand in a module without
    // it (/web-unguarded/ has the pinned one as quickjs-wasi ships it): there a
    // loop of long built-in calls never reaches QuickJS's interrupt check in
    // time, and the worker's watchdog is what ends it.
    await page.evaluate(async () => {
      (window as any).short = await (window as any).makeCodeMode({ config: { timeoutMs: 1000 }, assets: "/web-unguarded/" });
    });
    const y = await exec(page, "await yield_control(); return 1", undefined, "short");
    expect(y.status).toBe("waiting");
    const r = await exec(page, `const a = Array.from({length: 2e5}, (_, i) => (i * 7919) % 200003); for (;;) a.slice().sort();`, undefined, "short");
    expect(r).toMatchObject({ status: "failed", code: "timeout" });
    expect(r.error).toContain("worker");
    const lost = await page.evaluate((runId) => (window as any).short.wait({ runId }), y.runId);
    expect(lost).toMatchObject({ status: "failed", code: "invalid_input" });
    expect(lost.error).toContain("unavailable or expired");
    expect(await page.evaluate(() => (window as any).restarts.length)).toBeGreaterThanOrEqual(1);
    expect((await exec(page, "return 2", undefined, "short")).value).toBe(2);
    await page.evaluate(() => (window as any).short.close());
  });

  test("close() stops the worker", async ({ page }) => {
    const c = await page.evaluate(() => (window as any).makeCodeMode({ serverTools: undefined }).then((cm: any) => { (window as any).c2 = cm; return true; }));
    expect(c).toBe(true);
    const worker = page.workers().at(-1)!;
    const closed = new Promise((resolve) => worker.on("close", resolve));
    const err = await page.evaluate(async () => { const cm = (window as any).c2; await cm.close(); try { await cm.exec({ code: "return 1" }); return ""; } catch (e: any) { return e.message; } });
    expect(err).toContain("closed");
    await closed;
  });
});

test("an unreachable server URL is a catchable error", async ({ page }) => {
  await page.goto("/hostjs/index.html");
  await page.waitForFunction(() => (window as any).pageReady === true);
  const msg = await page.evaluate(async () => {
    try { await (window as any).createCodeMode({ serverTools: { url: "http://127.0.0.1:9/" } }); return "no error"; } catch (e: any) { return `${e.name}: ${e.message}`; }
  });
  expect(msg).toContain("http://127.0.0.1:9/v1/catalog");
  expect(msg).not.toMatch(/goroutine|\.go:\d/);
});

test("the wazero engine smoke test", async ({ page }) => {
  test.setTimeout(180_000);
  await page.goto("/hostjs/index.html");
  await page.waitForFunction(() => (window as any).pageReady === true);
  const r = await page.evaluate(async () => {
    const cm = await (window as any).createCodeMode({ engine: "wazero", config: { timeoutMs: 10000 } });
    try { return await cm.exec({ code: "let s = 0; for (let i = 0; i < 100; i++) s += i; return s" }); } finally { await cm.close(); }
  });
  expect(r).toMatchObject({ status: "completed", value: 4950 });
});
