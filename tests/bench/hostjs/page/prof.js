// The page side of tests/bench/hostjs/prof.mjs: one side (ours on the host
// engine, or quickjs-wasi's own host), one quickjs.wasm (build/web's guarded
// copy or the plain pinned one), one workload, on the page's main thread so a
// CDP session of the page can profile it. window.runBench() answers the
// median and min of n timed evals after warm untimed ones.
import { QuickJS } from "../quickjs-wasi/index.js";
import { installHostEngine } from "../web/hostengine.js";

const q = new URLSearchParams(location.search);
const side = q.get("side"), which = q.get("mod"), work = q.get("work");
const W = await (await fetch("../workloads.json")).json();
W.json = {
  src: `const o = {a: Array.from({length: 2000}, (_, i) => ({i, s: "x" + i, f: i / 4}))}; let n = 0; for (let k = 0; k < 20; k++) n += JSON.parse(JSON.stringify(o)).a.length; n`,
  want: "40000",
};
// mod: "plain" (as quickjs-wasi ships it), "guarded" (build/web's), or any
// other NAME for ../NAME.wasm in build/bench-hostjs (an A/B copy).
const wasmURL = which === "plain" ? "../quickjs-wasi/quickjs.wasm" : which === "guarded" ? "../web/quickjs.wasm" : `../${which}.wasm`;
const qjs = await WebAssembly.compileStreaming(fetch(wasmURL));

const stat = (xs) => {
  xs.sort((a, b) => a - b);
  const m = xs.length;
  return { median_ms: m % 2 ? xs[(m - 1) / 2] : (xs[m / 2 - 1] + xs[m / 2]) / 2, min_ms: xs[0], n: m };
};

let run;
if (side === "ref") {
  run = async (warm, n) => {
    const once = async () => {
      const vm = await QuickJS.create({ wasm: qjs });
      const t = performance.now();
      const h = vm.evalCode(W[work].src, "bench.js");
      const got = JSON.stringify(vm.dump(h));
      const d = performance.now() - t;
      h.dispose();
      vm.dispose();
      if (got !== W[work].want) throw new Error(`reference ${work}: got ${got}`);
      return d;
    };
    for (let k = 0; k < warm; k++) await once();
    const xs = [];
    for (let k = 0; k < n; k++) xs.push(await once());
    return stat(xs);
  };
} else {
  await import("../web/wasm_exec.js");
  const go = new globalThis.Go();
  const host = installHostEngine(go, { quickjsModule: qjs });
  const inst = await WebAssembly.instantiate(await WebAssembly.compileStreaming(fetch("../driver.wasm")), go.importObject);
  let api;
  globalThis.__codemodeBoot = { ready(a) { api = a; } };
  host.bind(inst);
  go.run(inst);
  run = async (warm, n) => JSON.parse(await api.run(JSON.stringify({ workloads: W, steps: { [work]: [warm, n] }, engine: "host" })))[work];
}
window.runBench = run;
window.ready = true;
document.getElementById("out").textContent = "ready";
