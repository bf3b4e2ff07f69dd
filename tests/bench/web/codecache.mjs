// Diagnosis: is V8's wasm code cache written by a cold load of
// bench/first.html and read back by a warm one, in a browser without DevTools
// and under Playwright? (issue 23; RESULTS.md, code-cache)
//
//   node tests/bench/web/codecache.mjs [DIR] [--side ours|ref] [--linger MS] [--cold raw|playwright|incognito] [--warm raw|playwright|incognito] [--warm-linger MS] [--drop] [--js-flags FLAGS] [--chrome-args ARGS]
//
// DIR is a staged build/bench-web. The cold load runs in a fresh on-disk
// profile and stays open --linger ms (default 8000: V8 hands tiered-up code to
// the cache only after 2 s without a new top-tier compile); then the browser
// is closed and started again on the same profile for two warm loads, each in
// its own browser. "raw" is chromium spawned without a DevTools client, traced
// by its own --trace-startup (JSON); "playwright" is launchPersistentContext,
// traced over CDP; "incognito" a new page in one browser.newContext() kept
// across the loads (no profile on disk; use it for --cold and --warm alike). --drop deletes the profile's wasm code cache before the
// warm loads (the control). Prints per load the value's time and Blink's code
// cache events: v8.wasm.cachedModule (written, with its size and module),
// v8.wasm.moduleCacheHit (read), wasm.Deserialize. The trace slows what it
// watches: the times are not the bench's.
import { chromium } from "@playwright/test";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { startServe, chromiumArgs } from "./serve.mjs";
import { startCollector, newProfile, launch, wasmCacheBytes, dropWasmCache } from "./rawbrowser.mjs";

const argv = process.argv.slice(2);
const opt = (name, def) => { const i = argv.indexOf(name); if (i < 0) return def; const v = argv[i + 1]; argv.splice(i, 2); return v; };
const flag = (name) => { const i = argv.indexOf(name); if (i < 0) return false; argv.splice(i, 1); return true; };
const side = opt("--side", "ours");
const linger = Number(opt("--linger", "8000"));
const coldHow = opt("--cold", "raw");
const warmHow = opt("--warm", "raw");
const drop = flag("--drop");
const jsFlags = opt("--js-flags", ""); // diagnosis only, e.g. --wasm-caching-timeout-ms=0
const chromeArgs = opt("--chrome-args", "").split(" ").filter(Boolean); // more chromium arguments for raw loads
const warmLinger = Number(opt("--warm-linger", "500"));
const dir = argv[0] ?? "build/bench-web";
if (argv.some((a) => a.startsWith("--")) || argv.length > 1) {
  console.error(`codecache.mjs: unknown arguments ${argv.join(" ")} (usage: the comment at the top of this file)`);
  process.exit(2);
}
if (!existsSync(join(dir, "bench", "first.html"))) {
  console.error(`codecache.mjs: ${dir} has no bench/first.html; ./build.sh bench-web stages build/bench-web`);
  process.exit(2);
}
for (const h of [coldHow, warmHow]) if (!["raw", "playwright", "incognito"].includes(h)) throw new Error(`--cold/--warm take raw, playwright or incognito, not ${h}`);

const categories = ["disabled-by-default-devtools.timeline", "devtools.timeline", "v8.wasm"];
const { url: origin, server } = await startServe({ dir, stderr: "ignore" });
const collector = await startCollector();
const profile = newProfile();
const pageURL = `${origin}bench/first.html?side=${side}&report=${encodeURIComponent(collector.url)}`;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// raw: chromium without DevTools, traced from its start for seconds s.
async function rawLoad(keep) {
  const file = join(profile.dir, "trace.json");
  rmSync(file, { force: true });
  const seconds = Math.ceil(keep / 1000) + 8;
  const b = launch(profile.dir, pageURL, [`--trace-startup=${categories.join(",")}`, `--trace-startup-file=${file}`, `--trace-startup-duration=${seconds}`, "--trace-startup-format=json", ...(jsFlags ? [`--js-flags=${jsFlags}`] : []), ...chromeArgs]);
  const r = await collector.next();
  for (let i = 0; i < 150 && !existsSync(file); i++) await sleep(200); // written when the duration ends
  await sleep(1000);
  await b.close();
  let events = [];
  try { events = JSON.parse(readFileSync(file, "utf8")).traceEvents ?? []; } catch { /* no trace: printed below */ }
  return { r, events };
}

// playwright: a persistent context on the same profile, traced over CDP.
// incognito: a new page in one browser.newContext() that lives across the
// loads (bench-web's earlier warm figure).
let incognito;
async function playwrightLoad(keep, how) {
  let ctx;
  if (how === "incognito") {
    incognito ??= await chromium.launch({ executablePath: "/usr/bin/chromium", args: chromiumArgs }).then(async (b) => ({ b, ctx: await b.newContext() }));
    ctx = incognito.ctx;
  } else ctx = await chromium.launchPersistentContext(profile.dir, { executablePath: "/usr/bin/chromium", args: chromiumArgs });
  const page = how === "incognito" ? await ctx.newPage() : ctx.pages()[0] ?? (await ctx.newPage());
  const cdp = await ctx.newCDPSession(page);
  const events = [];
  cdp.on("Tracing.dataCollected", (e) => events.push(...e.value));
  const done = new Promise((r) => cdp.once("Tracing.tracingComplete", r));
  await cdp.send("Tracing.start", { traceConfig: { includedCategories: categories }, transferMode: "ReportEvents" });
  await page.goto(pageURL);
  const r = await collector.next();
  await sleep(keep);
  await cdp.send("Tracing.end");
  await done;
  await (how === "incognito" ? page.close() : ctx.close());
  return { r, events };
}

function show(label, how, { r, events }) {
  const short = (u) => String(u ?? "").replace(/^https?:\/\/[^/]+\//, "");
  const wasm = (r.resources ?? []).filter((e) => /\.wasm/.test(e.url)).map((e) => `${short(e.url)} ${e.transferSize} B`).join(", ");
  console.log(`${label} (${how}): value ${r.value} at ${r.ms.toFixed(0)} ms (page ${r.visibility ?? "?"}); wasm transferred: ${wasm}`);
  if (!events.length) console.log("  (no trace)");
  const count = (n) => events.filter((e) => e.name === n);
  for (const e of count("v8.wasm.compiledModule")) console.log(`  handed to the cache: ${short(e.args?.url)}`);
  for (const e of count("v8.wasm.cachedModule")) console.log(`  written: ${e.args?.producedCacheSize} B`);
  for (const e of count("v8.wasm.moduleCacheHit")) console.log(`  read: ${short(e.args?.url)} ${e.args?.consumedCacheSize} B`);
  for (const n of ["v8.wasm.moduleCacheInvalid", "v8.wasm.moduleCacheInvalidDigest"]) if (count(n).length) console.log(`  ${n}: ${count(n).length}`);
  const sum = (n) => count(n).reduce((a, e) => a + (e.dur ?? 0) / 1000, 0);
  console.log(`  wasm.Deserialize ${count("wasm.Deserialize").length}x ${sum("wasm.Deserialize").toFixed(0)} ms; wasm.CompileLazy ${count("wasm.CompileLazy").length}x ${sum("wasm.CompileLazy").toFixed(0)} ms; wasm.TopTierCompilation ${count("wasm.TopTierCompilation").length}x`);
  console.log(`  profile's Code Cache/wasm: ${wasmCacheBytes(profile.dir)} B`);
}

const load = (how, keep) => (how === "raw" ? rawLoad(keep) : playwrightLoad(keep, how));
try {
  show("cold", coldHow, await load(coldHow, linger));
  if (drop) { dropWasmCache(profile.dir); console.log("(wasm code cache dropped)"); }
  show("warm", warmHow, await load(warmHow, warmLinger));
  show("warm2", warmHow, await load(warmHow, warmLinger));
} finally {
  if (incognito) await incognito.b.close();
  collector.close();
  server.kill("SIGTERM");
  profile.remove();
}
