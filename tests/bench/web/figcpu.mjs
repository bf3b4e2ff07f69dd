// What the page figures cost the machine, per build: bench/figures.html
// (bench-web's warm-core page: the first TypeScript cell, later ones, 20
// rounds of 10 client-tool calls) in a browser without DevTools on a fresh
// profile, the page kept 6 s longer so V8's background compiles run out; the
// CPU of every process of that browser (utime + stime from /proc, the
// browser and its descendants) when the page reports. Wall figures of this
// page move by 2x between loads on two cores; its CPU is what a change to a
// module does to everything else on the machine. Builds alternate per round.
//
//   node tests/bench/web/figcpu.mjs ROUNDS DIR [DIR...] [--trace]
//
// Each DIR is a staged build/bench-web. With --trace the browsers run with
// V8's compile trace (--no-zygote, so the renderer's lines reach the output)
// and the tool sums the TurboFan compile jobs by module (codemode.wasm,
// tsx.wasm, quickjs.wasm, told apart by function index and body size); the
// trace slows what it watches, so its CPU is not the figure.
import { median, startServe } from "./serve.mjs";
import { launch, newProfile, startCollector } from "./rawbrowser.mjs";
import { readModule, turbofanJobs } from "./wasmfile.mjs";
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const args = process.argv.slice(2);
const trace = args.includes("--trace");
if (trace) args.splice(args.indexOf("--trace"), 1);
const [rounds, ...dirs] = args;
if (!(Number(rounds) > 0) || dirs.length === 0 || dirs.some((d) => !existsSync(join(d, "bench", "figures.html")))) {
  console.error("usage: node tests/bench/web/figcpu.mjs ROUNDS DIR [DIR...] [--trace] (each DIR a staged build/bench-web)");
  process.exit(2);
}

const tmp = mkdtempSync(join(tmpdir(), "codemode-figcpu-"));
const sides = [];
for (const [k, dir] of dirs.entries()) {
  // A copy whose figures.html reports to the collector after 6 s more.
  const stage = join(tmp, String(k));
  cpSync(dir, stage, { recursive: true });
  const page = join(stage, "bench", "figures.html");
  const html = readFileSync(page, "utf8")
    .replace("window.figures = {", 'await new Promise((r) => setTimeout(r, 6000));\nwindow.figures = {')
    .replace("</script>", 'fetch(new URLSearchParams(location.search).get("report"), { method: "POST", body: JSON.stringify({ value: 42, ...window.figures }) });\n</script>');
  // A figures.html whose lines moved would never report: say so now, not after the collector's timeout.
  if (!html.includes("setTimeout(r, 6000)") || !html.includes("value: 42")) throw new Error(`figcpu.mjs: ${dir}/bench/figures.html no longer has the lines this tool patches`);
  writeFileSync(page, html);
  const mods = Object.fromEntries(["codemode", "tsx", "quickjs"].map((m) => [m, readModule(readFileSync(join(dir, `${m}.wasm`)))]));
  sides.push({ dir, mods, ...(await startServe({ dir: stage, stderr: "ignore" })), cpu: [], tools: [], ts: [], turbofan: [] });
}

/** CPU seconds of pid and its descendants, from /proc. */
function treeCPU(pid) {
  const procs = [];
  for (const p of readdirSync("/proc")) {
    if (!/^\d+$/.test(p)) continue;
    try {
      const st = readFileSync(`/proc/${p}/stat`, "utf8");
      const f = st.slice(st.lastIndexOf(")") + 2).split(" ");
      procs.push({ pid: Number(p), ppid: Number(f[1]), ticks: Number(f[11]) + Number(f[12]) });
    } catch { /* exited meanwhile */ }
  }
  const tree = new Set([pid]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const p of procs) if (!tree.has(p.pid) && tree.has(p.ppid)) tree.add(p.pid), (grew = true);
  }
  return procs.filter((p) => tree.has(p.pid)).reduce((a, p) => a + p.ticks, 0) / 100;
}

/** TurboFan compile time (ms, summed over jobs) per module in V8's trace. */
function turbofanByModule(output, mods) {
  const by = {};
  for (const j of turbofanJobs(output, mods)) by[j.mod] = (by[j.mod] ?? 0) + j.ms;
  return by;
}

const collector = await startCollector();
const load = () => readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
const load0 = load();
try {
  for (let r = 0; r < Number(rounds); r++) {
    for (const s of r % 2 ? [...sides].reverse() : sides) {
      const profile = newProfile();
      const flags = trace ? ["--no-zygote", "--js-flags=--trace-wasm-compilation-times"] : [];
      const url = `${s.url}bench/figures.html?report=${encodeURIComponent(collector.url)}`;
      const browser = launch(profile.dir, url, flags, trace);
      try {
        const rep = await collector.next(180_000);
        if (rep.value !== 42) throw new Error(`${s.dir}: the page answered ${JSON.stringify(rep.error ?? rep)}`);
        s.cpu.push(treeCPU(browser.proc.pid));
        s.tools.push(median(rep.tools.slice(5)));
        s.ts.push(rep.tsFirst);
      } finally {
        await browser.close();
        profile.remove();
      }
      if (trace) s.turbofan.push(turbofanByModule(browser.output(), s.mods));
      const tf = trace ? `  TurboFan ms ${JSON.stringify(Object.fromEntries(Object.entries(s.turbofan.at(-1)).map(([k, v]) => [k, Math.round(v)])))}` : "";
      console.log(`round ${r + 1} ${s.dir}: CPU ${s.cpu.at(-1).toFixed(2)} s, tool rounds 6-20 ${s.tools.at(-1).toFixed(1)} ms, first TS cell ${s.ts.at(-1).toFixed(0)} ms${tf}`);
    }
  }
  console.log(`load ${load0} -> ${load()}; medians:`);
  for (const s of sides) {
    const f = (xs, d) => `${median(xs).toFixed(d)} (${xs.map((x) => x.toFixed(d)).join(" ")})`;
    console.log(`${s.dir}\n  browser CPU, s      ${f(s.cpu, 2)}\n  tool rounds 6-20    ${f(s.tools, 1)}\n  first TS cell, ms   ${f(s.ts, 0)}`);
  }
} finally {
  for (const s of sides) s.server.kill("SIGTERM");
  collector.close();
  rmSync(tmp, { recursive: true, force: true });
}
