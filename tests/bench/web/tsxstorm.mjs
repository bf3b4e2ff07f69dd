// What V8 compiles in the background after a page loads tsx.wasm: a fresh
// browser without DevTools opens bench/tsxload.html (TypeScript enabled, no
// cell run: the idle worker's warm-ups, tsx.wasm's load and its warm-up
// transform), keeps it open LINGER ms and closes. Prints V8's TurboFan compile
// jobs summed by module (job time and machine-code bytes), the largest jobs of
// tsx.wasm by name, and the wasm code cache entries the visit left by module.
// The calls figure of bench-web runs inside these compiles (RESULTS.md,
// calls-storm).
//
//   node tests/bench/web/tsxstorm.mjs DIR [UNSTRIPPED_TSX] [LINGER]
//
// DIR is a staged build/bench-web; UNSTRIPPED_TSX a tsx.wasm built without
// -s -w from the same sources (for names: GOOS=js GOARCH=wasm go build
// -trimpath -o X ./wasm/tsx). TOP=N lists N jobs (default 12).
import { startServe } from "./serve.mjs";
import { launch, newProfile, startCollector } from "./rawbrowser.mjs";
import { readModule, turbofanJobs } from "./wasmfile.mjs";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

const [dir, unstripped, linger = "6000"] = process.argv.slice(2);
if (!dir || !existsSync(join(dir, "bench", "tsxload.html")) || !(Number(linger) >= 0)) {
  console.error("usage: node tests/bench/web/tsxstorm.mjs DIR [UNSTRIPPED_TSX] [LINGER] (DIR a staged build/bench-web)");
  process.exit(2);
}
const mods = Object.fromEntries(["codemode", "tsx", "quickjs"].map((m) => [m, readModule(readFileSync(join(dir, `${m}.wasm`)))]));
const names = unstripped ? readModule(readFileSync(unstripped)).names : new Map();
const top = Number(process.env.TOP ?? 12);

const { url, server } = await startServe({ dir, stderr: "ignore" });
const collector = await startCollector();
const profile = newProfile();
try {
  const page = `${url}bench/tsxload.html?linger=${linger}&report=${encodeURIComponent(collector.url)}`;
  const browser = launch(profile.dir, page, ["--no-zygote", "--js-flags=--trace-wasm-compilation-times"], true);
  let rep;
  try { rep = await collector.next(180_000); } finally { await browser.close(); }
  if (rep.value !== 42) throw new Error(`the page answered ${JSON.stringify(rep.error ?? rep)}`);

  const jobs = turbofanJobs(browser.output(), mods);
  for (const j of jobs) if (j.mod === "tsx") j.name = names.get(j.index);
  console.log(`typescriptready ${rep.tready.toFixed(0)} ms after createCodeMode resolved; the page kept ${linger} ms more`);
  console.log("TurboFan jobs by module (job time is wall time of each job: jobs share two cores):");
  for (const mod of [...Object.keys(mods), "other"]) {
    const js = jobs.filter((j) => j.mod === mod);
    if (js.length) console.log(`  ${mod.padEnd(9)} ${String(js.length).padStart(4)} jobs ${js.reduce((a, j) => a + j.ms, 0).toFixed(0).padStart(6)} ms ${(js.reduce((a, j) => a + j.code, 0) / 1e6).toFixed(2)} MB of code`);
  }
  console.log(`tsx.wasm's ${top} largest jobs:`);
  for (const j of jobs.filter((j) => j.mod === "tsx").sort((a, b) => b.ms - a.ms).slice(0, top)) {
    console.log(`  ${j.ms.toFixed(0).padStart(5)} ms  body ${String(j.body).padStart(6)} B  ${j.name ?? "(no names: pass UNSTRIPPED_TSX)"}`);
  }
  // The code cache: a small entry per URL names the content hash its data entry has.
  const cache = join(profile.dir, "Default", "Code Cache", "wasm");
  const files = existsSync(cache) ? readdirSync(cache).filter((f) => f.endsWith("_0")).map((f) => ({ size: statSync(join(cache, f)).size, head: readFileSync(join(cache, f)).subarray(0, 512).toString("latin1") })) : [];
  const entries = [];
  for (const k of files) {
    const m = /_key\S*\/([\w.]+\.wasm)\?[\s\S]*?([0-9A-F]{64})/.exec(k.head);
    if (!m) continue;
    const data = files.find((d) => d !== k && d.head.includes(m[2]));
    entries.push(`${m[1]} ${data ? `${(data.size / 1024).toFixed(0)} KiB` : "(no data entry)"}`);
  }
  console.log(`wasm code cache after the visit: ${entries.length ? entries.join(", ") : "none"}`);
} finally {
  profile.remove();
  server.kill("SIGTERM");
  collector.close();
}
