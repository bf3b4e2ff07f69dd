// ./build.sh bench-hostjs: serves build/bench-hostjs with the real codemode
// serve, drives tests/bench/hostjs/page in Debian's Chromium and prints the
// figures with ratios against quickjs-wasi's own host measured in the same run.
// Flags: --out FILE writes the markdown section.
import { chromium } from "@playwright/test";
import { chromiumArgs, startServe } from "./serve.mjs";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const root = process.cwd();
const flag = (k, d) => (process.argv.includes(k) ? process.argv[process.argv.indexOf(k) + 1] : d);
const outFile = flag("--out", "");
const rounds = Number(flag("--rounds", "6"));
const oursModule = flag("--ours", "guarded"); // or "plain": ours on the unguarded quickjs.wasm
const { base, server } = await startServe();

const launch = { executablePath: "/usr/bin/chromium", args: chromiumArgs };
const bs = await chromium.launchServer(launch);
const browser = await chromium.connect(bs.wsEndpoint());
let result, load;
try {
  const page = await (await browser.newContext()).newPage();
  page.on("console", (m) => m.type() === "error" && console.error("page:", m.text()));
  await page.goto(`${base}/page/index.html?rounds=${rounds}&ours=${oursModule}`);
  await page.waitForFunction(() => window.benchResult, null, { timeout: 15 * 60_000, polling: 500 });
  result = await page.evaluate(() => window.benchResult);
  if (!result.ok) throw new Error(result.error);
  const peakKiB = rendererPeakKiB(bs.process().pid);
  // Page load to first result: a new context (cold HTTP cache), then a reload (warm).
  const ctx = await browser.newContext();
  const p2 = await ctx.newPage();
  const first = async () => {
    await p2.waitForFunction(() => window.firstResult, null, { timeout: 120_000 });
    return p2.evaluate(() => window.firstResult.ms);
  };
  await p2.goto(`${base}/page/load.html`);
  const cold = await first();
  await p2.reload();
  const warm = await first();
  load = { cold, warm, peakKiB };
} finally {
  await browser.close();
  await bs.close();
  server.kill("SIGTERM");
}

function rendererPeakKiB(rootPid) {
  const kids = new Map();
  for (const d of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${d}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (!kids.has(ppid)) kids.set(ppid, []);
      kids.get(ppid).push(Number(d));
    } catch {}
  }
  let peak = 0;
  const walk = (pid) => {
    for (const c of kids.get(pid) || []) {
      try {
        const cmd = fs.readFileSync(`/proc/${c}/cmdline`, "utf8");
        const hwm = /VmHWM:\s+(\d+)/.exec(fs.readFileSync(`/proc/${c}/status`, "utf8"));
        if (cmd.includes("--type=renderer") && hwm) peak = Math.max(peak, Number(hwm[1]));
      } catch {}
      walk(c);
    }
  };
  walk(rootPid);
  return peak;
}

const { ref, host, wazero, e2e, workerTrivialExec, rounds: perRound } = result;
const f = (x) => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(3));
const rows = [];
const row = (label, ours, theirs, target, minRatio) => {
  const ratio = theirs ? ours / theirs : NaN;
  rows.push({ label, ours, theirs, ratio, target, minRatio });
};
// The pooled rows also show the ratio of the fastest samples (min/min).
const pooled = (label, k, target) => row(label, host[k].median_ms, ref[k].median_ms, target, host[k].min_ms / ref[k].min_ms);
pooled("loop 1e6 (ms), host engine", "loop", 1.2);
pooled("fib(25) (ms), host engine", "fib", 1.2);
pooled("JSON round trips (ms), host engine", "json", 1.2);
pooled("10k bridge calls (ms), host engine", "hostCalls", 2);
row("fresh VM (ms), host engine", host.freshVM.median_ms, ref.freshVM.median_ms);
row("loop 1e5 (ms), wazero interpreter", wazero.loopSmall.median_ms, ref.loopSmall.median_ms);
row("fib(20) (ms), wazero interpreter", wazero.fibSmall.median_ms, ref.fibSmall.median_ms);
row("yield + wait round trip (ms) vs suspend+snapshot+restore+resume", e2e.yieldWait.median_ms, ref.suspendResume.median_ms);
row("trivial exec end to end, inline (ms)", e2e.trivialExec.median_ms, null);
row("trivial exec through the page's worker (ms)", workerTrivialExec.median_ms, null);
row("one client-tool call, exec end to end, inline (ms)", e2e.clientToolCall.median_ms, null);

const sizes = ["codemode.wasm", "quickjs.wasm", "wasm_exec.js", "codemode.js", "core.js", "hostengine.js", "codemode.worker.js"].map((n) => {
  const s = (e) => fs.statSync(path.join(root, "build/web", n + e)).size;
  return { n, raw: s(""), gz: s(".gz"), br: s(".br") };
});
const total = sizes.reduce((a, s) => ({ raw: a.raw + s.raw, gz: a.gz + s.gz, br: a.br + s.br }), { raw: 0, gz: 0, br: 0 });
const MB = (b) => (b / 1048576).toFixed(2) + " MiB";

const lines = [];
lines.push(`## hostjs in Chromium (./build.sh bench-hostjs), measured ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC`, "");
lines.push(`Command: \`./build.sh bench-hostjs\`. One Chromium page (Debian ${execFileSync("/usr/bin/chromium", ["--version"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim()}), one run; compute, bridge and fresh-VM rows run in one dedicated worker: the QuickJS driver on the host engine (internal/engine/jsengine) and quickjs-wasi@3.7.0's own JavaScript host on the same quickjs.wasm and the same sources (tests/bench/workloads.json plus a JSON workload), ${rounds} rounds per side in ABBA order, each a discarded and a timed pass, samples pooled per side; each round compiles its side's quickjs.wasm afresh (ours: ${oursModule === "plain" ? "the unguarded module, an A/B of the guard" : "build/web's loop-guarded module"}). Medians; "min ratio" is ours' fastest sample over the reference's. Machine: ${process.platform}/${process.arch}, load average ${fs.readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ")}.`, "");
lines.push("| workload | ours | quickjs-wasi host | ours/ref | min ratio | target |", "|---|---:|---:|---:|---:|---|");
for (const r of rows) {
  const verdict = r.target ? (r.ratio <= r.target ? `<= ${r.target}x **PASS**` : `<= ${r.target}x **FAIL**`) : "";
  const min = r.minRatio ? r.minRatio.toFixed(2) + "x" : "";
  lines.push(`| ${r.label} | ${f(r.ours)} | ${r.theirs ? f(r.theirs) : "-"} | ${r.theirs ? r.ratio.toFixed(2) + "x" : "-"} | ${min} | ${verdict} |`);
}
const triv = e2e.trivialExec.median_ms;
lines.push("", `- trivial exec target <= 2 ms: inline ${f(triv)} ms **${triv <= 2 ? "PASS" : "FAIL"}**; through the page's worker ${f(workerTrivialExec.median_ms)} ms`);
lines.push(`- download: ${sizes.map((s) => `${s.n} ${MB(s.raw)} raw / ${MB(s.gz)} gzip / ${MB(s.br)} br`).join("; ")}; total ${MB(total.raw)} raw, ${MB(total.gz)} gzip, ${MB(total.br)} brotli`);
lines.push(`- page load to first result from 127.0.0.1 (navigation start to the first exec's value, default worker mode): cold cache ${f(load.cold)} ms, warm cache ${f(load.warm)} ms`);
lines.push(`- peak memory: renderer process VmHWM ${MB(load.peakKiB * 1024)} (the page, the bench worker with both hosts, and the core's worker)`);
lines.push(`- setup (driver): compile-free template build ${f(host.setup.median_ms)} ms on the host engine, ${f(wazero.setup.median_ms)} ms on wazero's interpreter`);
// V8 runs one compile at one of two steady speeds (~1.8x apart), so the pooled
// median says partly which speed each side drew; each round's median shows it.
const fr = (xs) => xs.map((x) => x.toFixed(1)).join(", ");
for (const k of Object.keys(perRound.ref)) lines.push(`- ${k}, each round's median in ms (run order): reference ${fr(perRound.ref[k])}; ours ${fr(perRound.host[k])}`);
const md = lines.join("\n") + "\n";
process.stdout.write(md);
if (outFile) fs.writeFileSync(outFile, md);
