// ./build.sh bench-web: the web IDE's page load to first result in Debian's
// Chromium (cold: empty cache, a new browser profile; warm: the same profile
// reloaded, HTTP cache and V8's wasm code cache filled), and the download of
// what the page loads, raw / gzip / brotli (the precompressed files codemode
// serve sends). Writes its section of tests/bench/RESULTS.md.
//
// "First result" = from navigation start until the result panel shows the
// completed value of the default cell (the shipments example: tools.search,
// one server tool call), clicked through the page's own Run button.
import { chromium } from "@playwright/test";
import { readFileSync, statSync, writeFileSync, existsSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { chromiumArgs as args, median, startServe } from "./serve.mjs";

const ROUNDS = Number(process.env.BENCH_WEB_ROUNDS ?? 3);
const dir = "build/web";
const { url, server } = await startServe();

async function firstResult(page) {
  const t0 = Date.now();
  await page.goto(url);
  await page.locator("#engine-status").filter({ hasText: "core: ready" }).waitFor({ timeout: 120_000 });
  const tReady = Date.now() - t0;
  await page.getByRole("button", { name: "Run", exact: true }).click();
  await page.getByTestId("result-status").filter({ hasText: "completed" }).waitFor({ timeout: 60_000 });
  return { total: Date.now() - t0, ready: tReady };
}

const cold = [], warm = [];
for (let i = 0; i < ROUNDS; i++) {
  // A fresh persistent profile per round: nothing cached, then the same profile warm.
  const profile = `/tmp/codemode-bench-web-${process.pid}-${i}`;
  const ctx = await chromium.launchPersistentContext(profile, { executablePath: "/usr/bin/chromium", args, viewport: { width: 1280, height: 800 } });
  const page = ctx.pages()[0] ?? (await ctx.newPage());
  cold.push(await firstResult(page));
  await page.close();
  const page2 = await ctx.newPage();
  warm.push(await firstResult(page2));
  await ctx.close();
}
server.kill("SIGTERM");

// Download sizes: what the page fetches, as served (codemode serve picks the .br/.gz files).
const groups = {
  "IDE (index.html, ide.js, ide.css)": ["index.html", "ide.js", "ide.css"],
  "hostjs shim (codemode.js, worker, core.js, hostengine.js, wasm_exec.js)": ["codemode.js", "codemode.worker.js", "core.js", "hostengine.js", "wasm_exec.js"],
  "codemode.wasm (the Go core)": ["codemode.wasm"],
  "quickjs.wasm": ["quickjs.wasm"],
};
const size = (f) => (existsSync(`${dir}/${f}`) ? statSync(`${dir}/${f}`).size : 0);
const rows = [];
let tot = [0, 0, 0];
for (const [name, files] of Object.entries(groups)) {
  const raw = files.reduce((n, f) => n + size(f), 0);
  const gz = files.reduce((n, f) => n + (size(f + ".gz") || gzipSync(readFileSync(`${dir}/${f}`), { level: 9 }).length), 0);
  const br = files.reduce((n, f) => n + size(f + ".br"), 0);
  tot = [tot[0] + raw, tot[1] + gz, tot[2] + br];
  rows.push([name, raw, gz, br]);
}
rows.push(["**everything the page loads**", ...tot]);
const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;
const mib = (n) => (n > 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(2)} MiB` : kib(n));
const ms = (xs, k) => `${median(xs.map((x) => x[k]))} ms (${xs.map((x) => x[k]).join(", ")})`;

const when = new Date().toISOString().slice(0, 16).replace("T", " ");
const section = `<!-- bench-web -->
## Web IDE: page load to first result and download (${when} UTC)

Command: \`./build.sh bench-web\` (tests/bench/web/bench.mjs; BENCH_WEB_ROUNDS=${ROUNDS}). Debian chromium,
\`codemode serve\` on 127.0.0.1 with tests/e2e/ide/serve.json5, load average at the start ${loadavg()}.
First result = navigation start until the default cell's completed value is shown (the Run button
clicked as soon as the core reports ready); median of ${ROUNDS} (each round's figure in brackets).

| | core ready | first result |
|---|---|---|
| cold (new profile, empty cache) | ${ms(cold, "ready")} | ${ms(cold, "total")} |
| warm (same profile, reloaded) | ${ms(warm, "ready")} | ${ms(warm, "total")} |

| download | raw | gzip | brotli |
|---|---|---|---|
${rows.map(([n, r, g, b]) => `| ${n} | ${mib(r)} | ${mib(g)} | ${mib(b)} |`).join("\n")}

The IDE itself (CodeMirror 6 with basicSetup, JavaScript/TypeScript, One Dark, and the page's
modules) is a small part of the download (brotli sizes are what codemode serve sends); the Go
core's codemode.wasm dominates both the download and the time to "core ready" (V8 compiles it in
the worker, then the IDE runs one warm-up cell). Cold and warm differ by less than the noise of
a loaded machine: compile and start-up, not transfer from 127.0.0.1, is the cost.
<!-- /bench-web -->`;

function loadavg() {
  try { return readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" "); } catch { return "?"; }
}

const path = "tests/bench/RESULTS.md";
const old = readFileSync(path, "utf8");
const re = /<!-- bench-web -->[\s\S]*?<!-- \/bench-web -->/;
writeFileSync(path, re.test(old) ? old.replace(re, section) : old.trimEnd() + "\n\n" + section + "\n");
console.log(section);
