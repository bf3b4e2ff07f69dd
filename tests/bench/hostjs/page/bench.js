// The page side of ./build.sh bench-hostjs: runs bench.worker.js, then times
// the core through its default page mode (a dedicated worker), and publishes
// everything as window.benchResult for tests/bench/hostjs/run.mjs.
import { createCodeMode } from "../web/codemode.js";

const W = await (await fetch("../workloads.json")).json();
W.json = {
  src: `const o = {a: Array.from({length: 2000}, (_, i) => ({i, s: "x" + i, f: i / 4}))}; let n = 0; for (let k = 0; k < 20; k++) n += JSON.parse(JSON.stringify(o)).a.length; n`,
  want: "40000",
};
const steps = { loop: [1, 5], fib: [1, 5], json: [1, 5], hostCalls: [1, 5], freshVM: [5, 30] };
const smallSteps = { loopSmall: [1, 3], fibSmall: [1, 3] };

// ?rounds=N: timed rounds per side (default 6), pooled; ?ours=plain: ours on
// the unguarded quickjs.wasm (an A/B of the loop guard's cost).
const q = new URLSearchParams(location.search);
const rounds = Number(q.get("rounds") ?? 6), oursModule = q.get("ours") ?? "guarded";
const worker = new Worker("./bench.worker.js", { type: "module" });
const inWorker = await new Promise((resolve) => { worker.onmessage = (ev) => resolve(ev.data); worker.postMessage({ W, steps, smallSteps, rounds, oursModule }); });
worker.terminate();

// Through the page's default mode: postMessage to the core's worker and back.
const cm = await createCodeMode({});
const xs = [];
for (let k = 0; k < 35; k++) {
  const t = performance.now();
  await cm.exec({ code: "return 1" });
  if (k >= 5) xs.push(performance.now() - t);
}
await cm.close();
xs.sort((a, b) => a - b);
window.benchResult = { ...inWorker, workerTrivialExec: { median_ms: (xs[14] + xs[15]) / 2, min_ms: xs[0], n: xs.length } };
document.getElementById("out").textContent = JSON.stringify(window.benchResult, null, 1);
