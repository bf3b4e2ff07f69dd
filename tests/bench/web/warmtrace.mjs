// Diagnosis of a warm page load (issue 23): where a load of bench/first.html
// spends its time, and whether Chromium's wasm code cache is written and read.
//
//   node tests/bench/web/warmtrace.mjs [DIR] [--linger MS] [--persistent] [--side ours|ref] [--check] [--timeline] [--profile]
//
// DIR is a staged build/bench-web (./build.sh bench-web makes it). Loads
// first.html?side=... in a fresh context (cold), keeps that page open --linger
// ms (V8 hands tiered-up code to the cache only ~2 s after its last top-tier
// compile, and only while the page that compiled the module lives), then in
// two new pages of the same context (warm, warm2), each under a Chromium trace.
// Prints per load the wasm trace events (count, summed duration), among them
// Blink's v8.wasm.cachedModule (a compiled module written to the code cache)
// and v8.wasm.moduleCacheHit (a load that found one). --persistent: an on-disk
// profile, as a person's browser has, instead of an incognito-like context
// (prints the size of its Code Cache/wasm). --check: before the warm loads, a
// page that only compiles codemode.wasm (page/compileonly.html). --timeline:
// the load's requests, compiles, instantiations and long calls, ms from
// navigation start, by thread. --profile: V8's CPU profile of the page's worker
// (the Go core), inclusive and self time of the heaviest functions (function
// names need a codemode.wasm built without -s -w). A diagnosis tool: the trace slows what it
// watches, so its times are not the bench's. An incognito-like context keeps no
// code cache at all; codecache.mjs traces the same loads in a browser without
// DevTools (RESULTS.md, code-cache).
import { chromium } from "@playwright/test";
import { spawn, execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromiumArgs } from "./serve.mjs";

const argv = process.argv.slice(2);
const opt = (name, def) => { const i = argv.indexOf(name); if (i < 0) return def; const v = argv[i + 1]; argv.splice(i, 2); return v; };
const flag = (name) => { const i = argv.indexOf(name); if (i < 0) return false; argv.splice(i, 1); return true; };
const linger = Number(opt("--linger", "0"));
const side = opt("--side", "ours");
const persistent = flag("--persistent");
const check = flag("--check");
const showTimeline = flag("--timeline");
const showProfile = flag("--profile");
const dir = argv[0] ?? "build/bench-web";

const port = 20000 + Math.floor(Math.random() * 30000);
const origin = `http://127.0.0.1:${port}`;
const server = spawn("build/codemode", ["serve", "--config", "tests/e2e/ide/serve.json5", "--addr", `127.0.0.1:${port}`, "--static", dir], { stdio: ["ignore", "pipe", "ignore"] });
await new Promise((resolve, reject) => {
  server.stdout.on("data", (b) => { if (String(b).includes("serving on")) resolve(); });
  server.on("exit", (c) => reject(new Error(`codemode serve exited with ${c}`)));
});

let browser, ctx, profile;
if (persistent) {
  profile = mkdtempSync(join(tmpdir(), "warmtrace-"));
  ctx = await chromium.launchPersistentContext(profile, { executablePath: "/usr/bin/chromium", args: chromiumArgs });
} else {
  browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: chromiumArgs });
  ctx = await browser.newContext();
}
const categories = ["disabled-by-default-devtools.timeline", "devtools.timeline", "v8.wasm", "blink.user_timing", "v8",
  ...(showProfile ? ["disabled-by-default-v8.cpu_profiler"] : [])];
const cacheSize = () => {
  if (!profile) return "(incognito-like context: nothing on disk)";
  try { return execFileSync("du", ["-sb", join(profile, "Default", "Code Cache", "wasm")], { encoding: "utf8" }).split("\t")[0] + " bytes"; } catch { return "none"; }
};

async function load(label, page_, keep) {
  const page = await ctx.newPage();
  const cdp = await ctx.newCDPSession(page);
  const events = [];
  cdp.on("Tracing.dataCollected", (e) => events.push(...e.value));
  const done = new Promise((r) => cdp.once("Tracing.tracingComplete", r));
  await cdp.send("Tracing.start", { traceConfig: { includedCategories: categories }, transferMode: "ReportEvents" });
  await page.goto(`${origin}/bench/${page_}?side=${side}`);
  await page.waitForFunction(() => window.firstResult, null, { timeout: 120_000, polling: 20 });
  const r = await page.evaluate(() => window.firstResult);
  if (keep) await page.waitForTimeout(keep);
  await cdp.send("Tracing.end");
  await done;
  await page.close();
  const names = new Map();
  for (const e of events) {
    if (!/wasm/i.test(e.name) && !/wasm/i.test(e.cat)) continue;
    const k = e.name;
    const v = names.get(k) ?? { n: 0, dur: 0, args: [] };
    v.n++;
    v.dur += (e.dur ?? 0) / 1000;
    if (/[cC]ache|compiledModule/.test(e.name)) v.args.push(JSON.stringify(e.args?.data ?? e.args));
    names.set(k, v);
  }
  console.log(`${label} (${page_}): value at ${r.ms.toFixed(0)} ms`);
  if (showTimeline) timeline(events);
  if (showProfile) cpuProfile(events);
  for (const [k, v] of [...names].sort((a, b) => b[1].dur - a[1].dur)) {
    if (v.dur < 1 && !v.args.length) continue;
    console.log(`  ${k}: ${v.n}x ${v.dur.toFixed(1)} ms ${v.args.slice(0, 3).join(" ")}`);
  }
}

await load("cold", "first.html", linger);
console.log(`code cache after cold: ${cacheSize()}`);
if (check) await load("check", "compileonly.html", 0);
await load("warm", "first.html", 0);
await load("warm2", "first.html", 0);
console.log(`code cache at the end: ${cacheSize()}`);
await ctx.close();
if (browser) await browser.close();
if (profile) rmSync(profile, { recursive: true, force: true });
server.kill("SIGTERM");

// timeline prints the key events of one load, ms from its navigation start, by
// thread; only the renderer that loaded the page (a headless browser also runs
// its own WebUI pages meanwhile).
function timeline(events) {
  const pids = new Set(events.filter((e) => /127\.0\.0\.1/.test(JSON.stringify(e.args ?? {}))).map((e) => e.pid));
  events = events.filter((e) => pids.has(e.pid));
  const threads = new Map();
  for (const e of events) if (e.ph === "M" && e.name === "thread_name") threads.set(`${e.pid}:${e.tid}`, e.args.name);
  const nav = events.find((e) => e.name === "navigationStart" && /\/bench\//.test(JSON.stringify(e.args)));
  const t0 = nav ? nav.ts : Math.min(...events.filter((e) => e.ts).map((e) => e.ts));
  const want = /^(ResourceSendRequest|ResourceFinish|v8\.wasm\.moduleCacheHit|wasm\.FinishStreaming|wasm\.AsyncInstantiate|wasm\.SyncInstantiate|v8\.evaluateModule|FunctionCall)$/;
  const busy = new Map();
  const rows = [];
  for (const e of events) {
    const th = threads.get(`${e.pid}:${e.tid}`) ?? `${e.pid}:${e.tid}`;
    if (e.name === "RunTask" && e.dur) busy.set(th, (busy.get(th) ?? 0) + e.dur / 1000);
    if (!want.test(e.name) || (e.name === "FunctionCall" && (e.dur ?? 0) < 5000)) continue;
    const what = e.args?.data?.url ?? e.args?.data?.functionName ?? "";
    rows.push([(e.ts - t0) / 1000, (e.dur ?? 0) / 1000, th, e.name, String(what).replace(/^http:\/\/[^/]+/, "")]);
  }
  rows.sort((a, b) => a[0] - b[0]);
  for (const [t, d, th, n, u] of rows) console.log(`    ${t.toFixed(1).padStart(7)} +${d.toFixed(1).padStart(6)}  ${th.padEnd(24)} ${n} ${u}`);
  for (const [th, ms] of busy) if (ms > 5) console.log(`    busy ${th}: ${ms.toFixed(0)} ms of tasks`);
}

// cpuProfile prints the dedicated worker's CPU profile (from the trace's
// ProfileChunk events): the heaviest functions by inclusive and by self time.
function cpuProfile(events) {
  const threads = new Map();
  for (const e of events) if (e.ph === "M" && e.name === "thread_name") threads.set(`${e.pid}:${e.tid}`, e.args.name);
  // ProfileChunk events carry the profile's id; the Profile event that starts
  // it sits on the profiled thread.
  const ids = new Set(events.filter((e) => e.name === "Profile" && threads.get(`${e.pid}:${e.tid}`) === "DedicatedWorker thread").map((e) => `${e.pid}:${e.id}`));
  if (process.env.WARMTRACE_DEBUG) console.log([...new Set(events.filter((e) => /^Profile/.test(e.name)).map((e) => `${e.name} ${threads.get(`${e.pid}:${e.tid}`)} ${e.id}`))]);
  const chunks = events.filter((e) => e.name === "ProfileChunk" && ids.has(`${e.pid}:${e.id}`));
  const nodes = new Map();
  const samples = [];
  for (const c of chunks) {
    const p = c.args?.data?.cpuProfile ?? {};
    for (const n of p.nodes ?? []) nodes.set(n.id, { name: n.callFrame.functionName || n.callFrame.url || "(anonymous)", parent: n.parent });
    const deltas = c.args.data.timeDeltas ?? [];
    (p.samples ?? []).forEach((id, i) => samples.push([id, (deltas[i + 1] ?? deltas[i] ?? 0) / 1000]));
  }
  const incl = new Map(), self = new Map();
  let total = 0;
  for (const [id, ms] of samples) {
    const n = nodes.get(id);
    if (!n || n.name === "(idle)") continue;
    total += ms;
    self.set(n.name, (self.get(n.name) ?? 0) + ms);
    const seen = new Set();
    for (let x = n; x; x = nodes.get(x.parent)) {
      if (seen.has(x.name)) continue;
      seen.add(x.name);
      incl.set(x.name, (incl.get(x.name) ?? 0) + ms);
    }
  }
  const top = (m, k) => [...m].sort((a, b) => b[1] - a[1]).slice(0, k).map(([n, ms]) => `${ms.toFixed(0)} ${n}`).join("\n      ");
  console.log(`  worker CPU profile: ${total.toFixed(0)} ms sampled (not idle)\n    inclusive:\n      ${top(incl, 45)}\n    self:\n      ${top(self, 25)}`);
}
