// CPU per exec of hostjs's inline mode in Node.js: the path a Worker's
// session object runs (createCodeMode inline over codemode.wasm and the host
// engine), without workerd's request plumbing around it. Warm-up execs first
// (V8 tiers the Go code up after some dozens), then timed ones; with --prof,
// the functions with the most inclusive time (as a share of an exec's wall
// time) under a CPU profile of the timed
// execs (build codemode.wasm without -s -w for Go names).
//
//   node tests/bench/hostjs/inline.mjs [--dir build/web] [--cell trivial|calls]
//        [--warm 150] [--n 300] [--prof [--top 40] [--self]]
//
// cell "calls" is the page figure's cell: 10 sequential calls of a client tool.
import { Session } from "node:inspector/promises";
import { pathToFileURL } from "node:url";
import { resolve } from "node:path";

const arg = (k, d) => (process.argv.includes(k) ? process.argv[process.argv.indexOf(k) + 1] : d);
const dir = resolve(arg("--dir", "build/web"));
const cells = {
  trivial: "return 1 + 1",
  calls: `const id = "client:bench:ping"; for (let i = 0; i < 10; i++) await tools.call(id, { n: i }); return 10`,
};
const code = cells[arg("--cell", "trivial")];
if (!code) throw new Error(`--cell must be one of ${Object.keys(cells).join(", ")}`);
const warm = Number(arg("--warm", "150")), n = Number(arg("--n", "300")), top = Number(arg("--top", "40"));

const { createCodeMode } = await import(pathToFileURL(`${dir}/codemode.js`));
const cm = await createCodeMode({
  app: "bench", thread: "inline",
  clientTools: [{ name: "ping", description: "Answers its input.", parameters: { type: "object" }, execute: async (input) => ({ pong: input.n ?? 0 }) }],
});
const run = async () => {
  const r = await cm.exec({ code });
  if (r.status !== "completed") throw new Error(JSON.stringify(r));
};
for (let i = 0; i < warm; i++) await run();

let session = null;
if (process.argv.includes("--prof")) {
  session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.setSamplingInterval", { interval: 50 });
  await session.post("Profiler.start");
}
const c0 = process.cpuUsage(), t0 = performance.now();
for (let i = 0; i < n; i++) await run();
const cpu = process.cpuUsage(c0), wall = performance.now() - t0;
console.log(`${arg("--cell", "trivial")}: CPU ${((cpu.user + cpu.system) / 1000 / n).toFixed(2)} ms per exec (all threads), wall ${(wall / n).toFixed(2)} ms, ${n} execs after ${warm}`);
if (session) {
  const { profile } = await session.post("Profiler.stop");
  report(profile, wall / n);
}
process.exit(0); // an inline core's Go program stays parked on the event loop

/** Inclusive share per function name (each counted once per sample), as ms of an exec's wall time. */
function report(p, perExec) {
  const byId = new Map(p.nodes.map((x) => [x.id, x]));
  const parent = new Map();
  for (const x of p.nodes) for (const c of x.children ?? []) parent.set(c, x.id);
  const name = (x) => `${x.callFrame.functionName || "(anon)"} [${x.callFrame.url.replace(/^.*\//, "") || "native"}]`;
  const incl = new Map();
  let total = 0;
  p.samples.forEach((id, i) => {
    const d = (p.timeDeltas[i] ?? 0) / 1000;
    total += d;
    const seen = new Set();
    for (let x = id; x !== undefined; x = parent.get(x)) {
      const k = name(byId.get(x));
      if (!seen.has(k)) {
        seen.add(k);
        incl.set(k, (incl.get(k) ?? 0) + d);
      }
    }
  });
  const self = new Map();
  p.samples.forEach((id, i) => {
    const k = name(byId.get(id));
    self.set(k, (self.get(k) ?? 0) + (p.timeDeltas[i] ?? 0) / 1000);
  });
  for (const [k, t] of [...(process.argv.includes("--self") ? self : incl)].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    console.log(`${((t / total) * perExec).toFixed(3).padStart(8)} ms/exec ${((100 * t) / total).toFixed(1).padStart(5)}%  ${k}`);
  }
}
