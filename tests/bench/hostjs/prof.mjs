// ./build.sh bench-hostjs-profile: where the time of a compute workload goes,
// ours (the QuickJS driver on the host engine) against quickjs-wasi's own host,
// in Debian's Chromium. Each configuration (side x quickjs.wasm x workload)
// runs in its own browser context and page (tests/bench/hostjs/page/prof.js):
// warm-up evals, then timed ones under the CDP Profiler; prints the median and
// the top self-time entries, grouped by script (the Go binary, quickjs.wasm,
// JavaScript glue).
// Args: [--work loop,fib,json] [--n 7] [--warm 3] [--top 12] [--noprof]
//       [--sides ref:plain,host:guarded,host:plain] [--js-flags "..."]
import { chromium } from "@playwright/test";
import { chromiumArgs, startServe } from "./serve.mjs";

const arg = (k, d) => (process.argv.includes(k) ? process.argv[process.argv.indexOf(k) + 1] : d);
const works = arg("--work", "loop,fib,json").split(",");
const sides = arg("--sides", "ref:plain,host:guarded,host:plain").split(",");
const n = Number(arg("--n", "7")), warm = Number(arg("--warm", "3")), top = Number(arg("--top", "12"));
const profile = !process.argv.includes("--noprof");
// quickjs-wasi cannot instantiate a loop-guarded module (it lacks the poll import).
for (const s of sides) if (s.startsWith("ref:") && s !== "ref:plain") throw new Error(`--sides ${s}: the reference runs only the plain module (ref:plain)`);
const { base, server } = await startServe();
const args = [...chromiumArgs];
if (arg("--js-flags", "")) args.push("--js-flags=" + arg("--js-flags", ""));
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args });
try {
  for (const work of works) {
    for (const s of sides) {
      const [side, mod] = s.split(":");
      const ctx = await browser.newContext();
      const page = await ctx.newPage();
      page.on("console", (m) => m.type() === "error" && console.error("page:", m.text()));
      page.on("pageerror", (e) => console.error("page error:", e));
      await page.goto(`${base}/page/prof.html?side=${side}&mod=${mod}&work=${work}`);
      await page.waitForFunction(() => window.ready, null, { timeout: 120_000 });
      await page.evaluate((w) => window.runBench(w, 1), warm);
      const cdp = await ctx.newCDPSession(page);
      if (profile) {
        await cdp.send("Profiler.enable");
        await cdp.send("Profiler.setSamplingInterval", { interval: 100 });
        await cdp.send("Profiler.start");
      }
      const r = await page.evaluate((k) => window.runBench(0, k), n);
      console.log(`${work} ${side}:${mod} median ${r.median_ms.toFixed(2)} ms min ${r.min_ms.toFixed(2)} ms (n=${r.n})`);
      if (profile) {
        const { profile: p } = await cdp.send("Profiler.stop");
        report(p);
      }
      await ctx.close();
    }
  }
} finally {
  await browser.close();
  server.kill("SIGTERM");
}

function report(p) {
  const byId = new Map(p.nodes.map((x) => [x.id, x]));
  const self = new Map();
  const dt = p.timeDeltas;
  let total = 0;
  p.samples.forEach((id, i) => {
    const d = dt[i + 1] ?? 0;
    self.set(id, (self.get(id) ?? 0) + d);
    total += d;
  });
  const agg = new Map(), byScript = new Map();
  for (const [id, t] of self) {
    const cf = byId.get(id).callFrame;
    const script = cf.url ? cf.url.replace(/^.*\//, "") : "(native)";
    const key = `${cf.functionName || "(anon)"} [${script}]`;
    agg.set(key, (agg.get(key) ?? 0) + t);
    byScript.set(script, (byScript.get(script) ?? 0) + t);
  }
  const pct = (t) => ((100 * t) / total).toFixed(1).padStart(5) + "%";
  console.log("  by script: " + [...byScript].sort((a, b) => b[1] - a[1]).map(([k, t]) => `${k} ${pct(t)}`).join(", "));
  for (const [k, t] of [...agg].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`  ${pct(t)} ${k}`);
}
