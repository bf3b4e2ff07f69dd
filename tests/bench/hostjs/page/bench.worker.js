// ./build.sh bench-hostjs, in one dedicated worker of one Chromium page: ours
// (the QuickJS driver on the host engine and on wazero's interpreter; the whole
// core through createCodeMode inline) against quickjs-wasi's own JavaScript host
// on the same quickjs.wasm and the same workload sources.
import { QuickJS } from "../quickjs-wasi/index.js";
import { bootGo, compileOnce } from "../web/core.js";
import { createCodeMode } from "../web/codemode.js";

const web = new URL("../web/", import.meta.url);

async function measure([warm, n], f) {
  for (let k = 0; k < warm; k++) await f();
  const xs = [];
  for (let k = 0; k < n; k++) xs.push(await f());
  xs.sort((a, b) => a - b);
  const m = xs.length;
  return { median_ms: m % 2 ? xs[(m - 1) / 2] : (xs[m / 2 - 1] + xs[m / 2]) / 2, min_ms: xs[0], n: m };
}

async function reference(W, steps, module) {
  const newVM = async () => {
    const vm = await QuickJS.create({ wasm: module });
    let last = null;
    const fn = vm.newFunction("echo", (s) => { if (last) last.dispose(); last = vm.newString(s.toString()); return last; });
    vm.setProp(vm.global, "echo", fn);
    fn.dispose();
    return vm;
  };
  const out = {};
  for (const [name, step] of Object.entries(steps)) {
    if (name === "freshVM") {
      out[name] = await measure(step, async () => { const t = performance.now(); const vm = await QuickJS.create({ wasm: module }); vm.dispose(); return performance.now() - t; });
      continue;
    }
    out[name] = await measure(step, async () => {
      const vm = await newVM();
      const t = performance.now();
      const h = vm.evalCode(W[name].src, "bench.js");
      const got = JSON.stringify(vm.dump(h));
      const d = performance.now() - t;
      h.dispose();
      vm.dispose();
      if (got !== W[name].want) throw new Error(`reference ${name}: got ${got}, want ${W[name].want}`);
      return d;
    });
  }
  // Suspend + resume: an async function awaiting a host promise, snapshot,
  // restore into a fresh instance, deliver, drain (the reference's yield + wait).
  out.suspendResume = await measure([3, 15], async () => {
    const t = performance.now();
    const vm = await QuickJS.create({ wasm: module });
    let resolve;
    const later = vm.newFunction("later", () => {
      const exec = vm.newEphemeralFunction((res) => { resolve = res.dup(); return vm.undefined; });
      const ctor = vm.global.getProp("Promise");
      try { return vm.construct(ctor, exec); } finally { exec.dispose(); ctor.dispose(); }
    });
    vm.setProp(vm.global, "later", later);
    later.dispose();
    const p = vm.evalCode(`(async () => { const v = await later(); return "kept:" + v; })()`, "bench.js");
    vm.executePendingJobs();
    const rt = vm.exportHandle(resolve), pt = vm.exportHandle(p);
    const snap = vm.snapshot();
    vm.dispose();
    const r = await QuickJS.restore(snap, { wasm: module });
    r.registerHostCallback("later", () => r.undefined);
    const res = r.importHandle(rt), pr = r.importHandle(pt);
    const v = r.newString("delivered");
    r.callFunction(res, r.undefined, v).dispose();
    r.executePendingJobs();
    const done = await r.resolvePromise(pr);
    const got = r.dump(done.value);
    done.value.dispose(); v.dispose(); res.dispose(); pr.dispose(); r.dispose();
    if (got !== "kept:delivered") throw new Error("reference suspendResume: " + got);
    return performance.now() - t;
  });
  return out;
}

async function endToEnd() {
  const cm = await createCodeMode({
    assets: web, thread: "inline", app: "bench",
    clientTools: [{ name: "echo", description: "Echoes.", parameters: { type: "object" }, readOnly: true, execute: async (x) => x }],
  });
  const ex = async (code) => { const r = await cm.exec({ code }); if (r.status !== "completed") throw new Error(code + ": " + JSON.stringify(r)); };
  const out = {};
  out.trivialExec = await measure([5, 30], async () => { const t = performance.now(); await ex("return 1"); return performance.now() - t; });
  out.clientToolCall = await measure([5, 30], async () => { const t = performance.now(); await ex(`return await tools.callValue("client:bench:echo", {s: "hi"})`); return performance.now() - t; });
  out.yieldWait = await measure([3, 15], async () => {
    const t = performance.now();
    const y = await cm.exec({ code: "await yield_control(); return 1" });
    const w = await cm.wait({ runId: y.runId });
    if (w.status !== "completed") throw new Error("yieldWait: " + JSON.stringify(w));
    return performance.now() - t;
  });
  await cm.close();
  return out;
}

function average(a, b) {
  const out = {};
  for (const k of Object.keys(a)) {
    out[k] = { median_ms: (a[k].median_ms + b[k].median_ms) / 2, min_ms: Math.min(a[k].min_ms, b[k].min_ms), n: a[k].n + b[k].n };
  }
  return out;
}

self.onmessage = async (ev) => {
  const { W, steps, smallSteps } = ev.data;
  try {
    // The reference runs the pinned quickjs.wasm as quickjs-wasi ships it; ours
    // runs build/web's loop-guarded copy of it (what the shim serves), so the
    // guard's cost is part of the ratio. One discarded warm-up round each, then
    // two rounds in alternating order, whose medians are averaged.
    const module = await compileOnce(new URL("../quickjs-wasi/quickjs.wasm", import.meta.url));
    const { api } = await bootGo(web, new URL("../driver.wasm", import.meta.url));
    const runRef = () => reference(W, { ...steps, ...smallSteps }, module);
    const runHost = async () => JSON.parse(await api.run(JSON.stringify({ workloads: W, steps, engine: "host" })));
    await runRef();
    await runHost();
    const r1 = await runRef(), h1 = await runHost(), h2 = await runHost(), r2 = await runRef();
    const ref = average(r1, r2), host = average(h1, h2);
    const wazero = JSON.parse(await api.run(JSON.stringify({ workloads: W, steps: smallSteps, engine: "wazero" })));
    const e2e = await endToEnd();
    self.postMessage({ ok: true, ref, host, wazero, e2e });
  } catch (e) {
    self.postMessage({ ok: false, error: String(e && e.stack || e) });
  }
};
