// The page's warm first result as a person's browser gets it (bench.mjs's
// warm figure): Debian's chromium without a DevTools client (rawbrowser.mjs)
// on a fresh on-disk profile loads bench/first.html cold, keeps it open
// readMs (a person reading the result; V8 hands tiered-up code to its wasm
// code cache only after 2 s without a new top-tier compile), closes; a new
// browser on the same profile loads it warm (HTTP cache + wasm code cache);
// then once more with the profile's wasm code cache deleted (the control:
// HTTP cache only). Each timed page is opened 2.5 s after its browser
// started. Ours and the reference alternate (ABBA), each the same way.
//
//   node tests/bench/web/person.mjs [ROUNDS] [DIR]   (standalone: prints the medians)
import { startCollector, newProfile, launchSettled, wasmCacheBytes, dropWasmCache } from "./rawbrowser.mjs";
import { startServe, median } from "./serve.mjs";
import { fileURLToPath } from "node:url";
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

/** How long a timed page may take to report (a loaded machine's cold page takes seconds, not tens of them). */
const REPORT_MS = 45_000;

/**
 * loadPage opens url in a browser without DevTools on profile (opened 2.5 s
 * after the browser started), waits for the page's report to collector,
 * keeps the page keepMs more and closes the browser; answers the report,
 * which must carry value 42. A browser now and then exits before it opens
 * the page at all (no report, and first.html reports every failed load):
 * that load is launched once more, after the silent browser has been
 * closed, so no late report can be taken for the second one's. With
 * capture, the report's output is what the browser printed until it closed.
 */
export async function loadPage(collector, profile, url, keepMs = 0, flags = [], capture = false) {
  for (let attempt = 1; ; attempt++) {
    const b = launchSettled(profile, url, 2500, flags, capture);
    try {
      const r = await collector.next(REPORT_MS);
      if (r.value !== 42) throw new Error(`${url} answered ${JSON.stringify(r.value ?? r.error)}`);
      if (keepMs) await new Promise((ok) => setTimeout(ok, keepMs));
      if (capture) {
        await b.close();
        r.output = b.output();
      }
      return r;
    } catch (e) {
      if (attempt > 1 || !/no page report/.test(e.message)) throw e;
      console.warn(`person.mjs: no report from ${url} within ${REPORT_MS / 1000} s (the browser ${b.proc.exitCode === null ? "is still running" : "had exited"}): launching it again`);
    } finally {
      await b.close();
    }
  }
}

/**
 * stageCore copies dir (a staged build/bench-web) to `to` with wasm as its
 * codemode.wasm and the precompressed copies build.sh writes for it (.gz,
 * .br, and .zst when the zstd command is there; without it the stale .zst
 * goes and pages get brotli, as from the build). Answers whether a .zst was
 * written. floor.mjs and tierup.mjs stage their variants with it.
 */
export function stageCore(dir, wasm, to) {
  cpSync(dir, to, { recursive: true });
  const w = join(to, "codemode.wasm");
  const b = readFileSync(wasm);
  writeFileSync(w, b);
  writeFileSync(w + ".gz", gzipSync(b, { level: 9 }));
  writeFileSync(w + ".br", brotliCompressSync(b, { params: { [constants.BROTLI_PARAM_QUALITY]: 9 } }));
  try {
    execFileSync("zstd", ["-q", "-f", "-19", "--zstd=wlog=23", w, "-o", w + ".zst"], { stdio: "ignore" });
    return true;
  } catch {
    rmSync(w + ".zst", { force: true });
    return false;
  }
}

/**
 * stagedWarmLoads serves stage (a staged copy of build/bench-web, patched by
 * a diagnosis tool; removed at the end) and runs rounds of ours' cold load
 * (read 5 s) and warm load in a fresh profile each, both with flags;
 * answers the warm loads' reports (with capture, each has the browser's
 * output). phases.mjs and tierup.mjs use it.
 */
export async function stagedWarmLoads(stage, rounds, { flags = [], capture = false } = {}) {
  const { url: origin, server } = await startServe({ dir: stage, stderr: "ignore" });
  const collector = await startCollector();
  const url = `${origin.replace(/\/$/, "")}/bench/first.html?side=ours&report=${encodeURIComponent(collector.url)}`;
  const warm = [];
  try {
    for (let i = 0; i < rounds; i++) {
      const profile = newProfile();
      try {
        await loadPage(collector, profile.dir, url, 5000, flags);
        warm.push(await loadPage(collector, profile.dir, url, 0, flags, capture));
      } finally {
        profile.remove();
      }
    }
  } finally {
    collector.close();
    server.kill("SIGTERM");
    rmSync(stage, { recursive: true, force: true });
  }
  return warm;
}

/**
 * personRounds runs rounds of both sides against origin (a codemode serve of
 * a staged bench-web); per side the arrays cold, warm, nocache (ms from
 * navigation start to the value) and written (bytes of wasm code cache after
 * the cold page). With nocache false the third load (the control) is left out.
 */
export async function personRounds({ origin, rounds, readMs = 5000, flags = [], nocache = true }) {
  const base = origin.endsWith("/") ? origin : origin + "/";
  const out = { ours: { cold: [], warm: [], nocache: [], written: [], warmReady: [] }, ref: { cold: [], warm: [], nocache: [], written: [], warmReady: [] } };
  const collector = await startCollector();
  const load = (profile, url, keep) => loadPage(collector, profile, url, keep, flags);
  try {
    for (let i = 0; i < rounds; i++) {
      for (const side of i % 2 ? ["ref", "ours"] : ["ours", "ref"]) {
        const profile = newProfile();
        const url = `${base}bench/first.html?side=${side}&report=${encodeURIComponent(collector.url)}`;
        try {
          out[side].cold.push((await load(profile.dir, url, readMs)).ms);
          out[side].written.push(wasmCacheBytes(profile.dir));
          const warm = await load(profile.dir, url, 0);
          out[side].warm.push(warm.ms);
          out[side].warmReady.push(warm.ready);
          if (!nocache) continue;
          dropWasmCache(profile.dir);
          out[side].nocache.push((await load(profile.dir, url, 0)).ms);
        } finally {
          profile.remove();
        }
      }
    }
  } finally {
    collector.close();
  }
  return out;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const rounds = Number(process.argv[2] ?? 3);
  const dir = process.argv[3] ?? "build/bench-web";
  if (!Number.isSafeInteger(rounds) || rounds < 1) {
    console.error(`person.mjs: ROUNDS must be a positive integer, not ${process.argv[2]} (usage: node tests/bench/web/person.mjs [ROUNDS] [DIR])`);
    process.exit(2);
  }
  if (!existsSync(join(dir, "bench", "first.html"))) {
    console.error(`person.mjs: ${dir} has no bench/first.html; ./build.sh bench-web stages build/bench-web`);
    process.exit(2);
  }
  const { url, server } = await startServe({ dir, stderr: "ignore" });
  const flags = (process.env.BENCH_WEB_RAW_FLAGS ?? "").split(" ").filter(Boolean);
  try {
    const p = await personRounds({ origin: url, rounds, readMs: Number(process.env.BENCH_WEB_READ_MS ?? 5000), flags });
    const f = (xs) => `${median(xs).toFixed(0)} ms (${xs.map((x) => x.toFixed(0)).join(", ")})`;
    for (const k of ["cold", "warm", "nocache"]) console.log(`${k.padEnd(8)} ours ${f(p.ours[k])}  ref ${f(p.ref[k])}  ratio ${(median(p.ours[k]) / median(p.ref[k])).toFixed(2)}x`);
    console.log(`warm, ready to run code: ours ${f(p.ours.warmReady)}  ref ${f(p.ref.warmReady)}`);
    console.log(`wasm code cache written: ours ${p.ours.written.map((b) => `${(b / 1024).toFixed(0)} KiB`).join(", ")}; ref ${p.ref.written.map((b) => `${(b / 1024).toFixed(0)} KiB`).join(", ")}${flags.length ? ` (diagnosis flags: ${flags.join(" ")})` : ""}`);
  } finally {
    server.kill("SIGTERM");
  }
}
