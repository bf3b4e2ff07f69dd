// What any Go core costs the page's first result, beside what this one costs:
// person.mjs's cold and warm loads of bench/first.html, against quickjs-wasi's
// own host in the same rounds, for three builds of codemode.wasm staged in
// copies of DIR (everything else, hostjs, its worker, quickjs.wasm and the
// server, as built):
//
//   core   codemode.wasm as built (the figure bench-web reports)
//   size   the same program with its api answering at once (floor/floorapi.go
//          through `go build -overlay`): every byte and package init of the
//          core, none of api.init's or the first exec's work
//   hello  floor/main.go: the smallest Go program that boots and answers the
//          same way (Go's runtime and syscall/js, ~1.9 MB)
//
// so the gap to the reference splits into the Go runtime in a worker (hello),
// the core's size and package inits (size - hello) and its work (core - size).
//
//   node tests/bench/web/floor.mjs [ROUNDS] [DIR]   (DIR: build/bench-web, staged by ./build.sh bench-web)
//
// Cold and warm loads only (person.mjs without its control load); a round takes 1-2 minutes.
import { personRounds, stageCore } from "./person.mjs";
import { startServe, median } from "./serve.mjs";
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const args = process.argv.slice(2);
const rounds = /^\d+$/.test(args[0] ?? "") ? Number(args.shift()) : 5;
const dir = args[0] ?? "build/bench-web";
if (!Number.isSafeInteger(rounds) || rounds < 1 || !existsSync(join(dir, "bench", "first.html"))) {
  console.error("usage: node tests/bench/web/floor.mjs [ROUNDS] [DIR]: DIR is a staged build/bench-web (./build.sh bench-web makes it)");
  process.exit(2);
}

const tmp = mkdtempSync(join(tmpdir(), "codemode-floor-"));
const goBuild = (out, pkg, extra = []) =>
  execFileSync("go", ["build", ...extra, "-trimpath", "-ldflags=-s -w", "-o", out, pkg], { env: { ...process.env, GOOS: "js", GOARCH: "wasm" }, stdio: ["ignore", "inherit", "inherit"] });

/** The size variant's overlay: main.go hands floorCore(h.api) to the boot instead of h.api(). */
function sizeOverlay() {
  const main = resolve("wasm/codemode/main.go");
  const src = readFileSync(main, "utf8");
  const call = 'boot.Call("ready", h.api())';
  if (src.split(call).length !== 2) throw new Error(`wasm/codemode/main.go no longer has exactly one ${call}: floor.mjs's size variant replaces that call`);
  writeFileSync(join(tmp, "main.go"), src.replace(call, 'boot.Call("ready", floorCore(h.api))'));
  const overlay = { Replace: { [main]: join(tmp, "main.go"), [resolve("wasm/codemode/floorapi.go")]: resolve("tests/bench/web/floor/floorapi.go") } };
  writeFileSync(join(tmp, "overlay.json"), JSON.stringify(overlay));
  return join(tmp, "overlay.json");
}

/** stage answers a staged copy of dir named name, with wasm (when given) as its codemode.wasm. */
function stage(name, wasm) {
  const to = join(tmp, name);
  if (wasm) stageCore(dir, wasm, to);
  else cpSync(dir, to, { recursive: true });
  const sz = (f) => (existsSync(f) ? statSync(f).size : NaN);
  const w = join(to, "codemode.wasm");
  return { name, dir: to, raw: sz(w), zst: sz(w + ".zst"), br: sz(w + ".br") };
}

const servers = [];
try {
  goBuild(join(tmp, "hello.wasm"), "./tests/bench/web/floor");
  goBuild(join(tmp, "size.wasm"), "./wasm/codemode", ["-tags", "codemode_hostjs", "-overlay", sizeOverlay()]);
  const variants = [stage("core", null), stage("size", join(tmp, "size.wasm")), stage("hello", join(tmp, "hello.wasm"))];
  for (const v of variants) {
    const { url, server } = await startServe({ dir: v.dir, stderr: "ignore" });
    servers.push(server);
    Object.assign(v, { origin: url, cold: [], warm: [] });
  }
  const ref = { cold: [], warm: [] };
  for (let i = 0; i < rounds; i++) {
    // Each round visits the variants in a rotated order, so the machine's drift falls on all alike.
    for (let k = 0; k < variants.length; k++) {
      const v = variants[(i + k) % variants.length];
      const p = await personRounds({ origin: v.origin, rounds: 1, nocache: false });
      v.cold.push(...p.ours.cold), v.warm.push(...p.ours.warm);
      ref.cold.push(...p.ref.cold), ref.warm.push(...p.ref.warm);
      process.stderr.write(`round ${i + 1} ${v.name}: warm ${p.ours.warm[0].toFixed(0)} ms, ref ${p.ref.warm[0].toFixed(0)} ms\n`);
    }
  }
  const mb = (b) => (b / 1e6).toFixed(2);
  const list = (xs) => xs.map((x) => x.toFixed(0)).join(", ");
  console.log(`first result in a person's browser, ${rounds} rounds, ms from navigation start (median; each round); ratios to the reference's median over all ${ref.warm.length} of its loads`);
  console.log(`| build | codemode.wasm raw / zstd / br (MB) | warm | warm ratio | cold | cold ratio |\n|---|---|---:|---:|---:|---:|`);
  for (const v of variants) {
    console.log(`| ${v.name} | ${mb(v.raw)} / ${mb(v.zst)} / ${mb(v.br)} | ${median(v.warm).toFixed(0)} (${list(v.warm)}) | ${(median(v.warm) / median(ref.warm)).toFixed(2)}x | ${median(v.cold).toFixed(0)} (${list(v.cold)}) | ${(median(v.cold) / median(ref.cold)).toFixed(2)}x |`);
  }
  console.log(`| quickjs-wasi's host | | ${median(ref.warm).toFixed(0)} | | ${median(ref.cold).toFixed(0)} | |`);
  const [core, size, hello] = variants.map((v) => median(v.warm));
  console.log(`warm gap to the reference, by part: Go in the page's worker (hello - reference) ${(hello - median(ref.warm)).toFixed(0)} ms, ` +
    `the core's bytes and package inits (size - hello) ${(size - hello).toFixed(0)} ms, its work (core - size) ${(core - size).toFixed(0)} ms; ` +
    `the 2x target is ${(2 * median(ref.warm)).toFixed(0)} ms`);
} finally {
  for (const s of servers) s.kill("SIGTERM");
  rmSync(tmp, { recursive: true, force: true });
}
