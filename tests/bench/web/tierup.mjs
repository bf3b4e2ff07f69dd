// Which functions V8 compiles with TurboFan during the page's warm first
// result in a person's browser (person.mjs's warm load, ours only), by Go
// name: a function whose loop or calls exhaust its Liftoff budget is compiled
// again in the background, and on two cores that compile competes with the
// start it is part of. A run-once loop (decoding the template image, package
// init) pays it for nothing. Also counts what V8 compiled with Liftoff (on
// first call, or in the background after a code cache hit).
//
//   node tests/bench/web/tierup.mjs [ROUNDS] DIR --names UNSTRIPPED
//
// DIR is a staged build/bench-web; UNSTRIPPED a codemode.wasm of the same
// source built without -s -w (GOOS=js GOARCH=wasm go build -tags
// codemode_hostjs -trimpath -o X ./wasm/codemode). The tool stages a copy of
// DIR with UNSTRIPPED as its codemode.wasm (precompressed as build.sh does:
// person.mjs's stageCore) and loads bench/first.html?side=ours cold (read
// 5 s) and warm, both with --js-flags=--trace-wasm-compilation-times and
// --no-zygote (so the renderer's lines reach the browser's output). Both
// loads run with the same flags: V8 refuses a code cache made under other
// flags. A diagnosis tool: the trace slows what it watches, so its times are
// not the bench's.
import { stagedWarmLoads, stageCore } from "./person.mjs";
import { median } from "./serve.mjs";
import { compileJobs, readModule } from "./wasmfile.mjs";
import { readFileSync, mkdtempSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const args = process.argv.slice(2);
const namesAt = args.indexOf("--names");
const unstripped = namesAt >= 0 ? args.splice(namesAt, 2)[1] : null;
const rounds = /^\d+$/.test(args[0] ?? "") ? Number(args.shift()) : 3;
const dir = args[0] ?? "build/bench-web";
if (!unstripped || !existsSync(join(dir, "bench", "first.html"))) {
  console.error("usage: node tests/bench/web/tierup.mjs [ROUNDS] DIR --names UNSTRIPPED (DIR: a staged build/bench-web)");
  process.exit(2);
}
const names = readModule(readFileSync(unstripped)).names;

const stage = mkdtempSync(join(tmpdir(), "tierup-"));
if (!stageCore(dir, unstripped, stage)) console.warn("tierup.mjs: no zstd command: codemode.wasm is served brotli-compressed");

/** One warm load's compiles, per module: Liftoff count and bytes, TurboFan [ms, index, body, code]. */
function parse(output) {
  const mods = new Map();
  for (const j of compileJobs(output)) {
    const e = mods.get(j.module) ?? { liftoff: 0, liftoffBytes: 0, turbofan: [] };
    if (j.tier === "Liftoff") (e.liftoff++, (e.liftoffBytes += j.body));
    else e.turbofan.push([j.ms, j.index, j.body, j.code]);
    mods.set(j.module, e);
  }
  // codemode.wasm is the module with the most Liftoff body bytes (Go start); the other is quickjs.wasm.
  const [go, qjs] = [...mods.values()].sort((a, b) => b.liftoffBytes - a.liftoffBytes);
  if (!go) throw new Error("tierup.mjs: the browser printed no V8 compile trace (its renderer needs --no-zygote for that; did chromium change?)");
  return { go, qjs: qjs ?? { liftoff: 0, liftoffBytes: 0, turbofan: [] } };
}

const flags = ["--no-zygote", "--js-flags=--trace-wasm-compilation-times"];
const loads = (await stagedWarmLoads(stage, rounds, { flags, capture: true })).map((w) => ({ ms: w.ms, ...parse(w.output) }));

const sum = (xs) => xs.reduce((a, x) => a + x, 0);
const each = (f) => loads.map(f);
const fmt = (xs) => `${median(xs).toFixed(1)} (${xs.map((x) => x.toFixed(1)).join(", ")})`;
console.log(`warm loads of bench/first.html?side=ours with V8's compile trace, ${rounds} rounds (medians; each round):`);
console.log(`  first result ${fmt(each((l) => l.ms))} ms (traced)`);
console.log(`  codemode.wasm: ${fmt(each((l) => l.go.liftoff))} functions compiled with Liftoff, ${fmt(each((l) => l.go.liftoffBytes / 1024))} KB of bodies`);
console.log(`  codemode.wasm: TurboFan ${fmt(each((l) => sum(l.go.turbofan.map((t) => t[0]))))} ms of background compiling, ${fmt(each((l) => l.go.turbofan.length))} functions`);
console.log(`  quickjs.wasm: ${fmt(each((l) => l.qjs.liftoff))} compiled with Liftoff; TurboFan ${fmt(each((l) => sum(l.qjs.turbofan.map((t) => t[0]))))} ms`);
const byName = new Map();
for (const l of loads) for (const [ms, i, body, code] of l.go.turbofan) {
  const e = byName.get(i) ?? { ms: [], body, code };
  e.ms.push(ms);
  byName.set(i, e);
}
console.log(`codemode.wasm functions compiled with TurboFan (loads that did / ${rounds}; ms each; body and machine code bytes):`);
for (const [i, e] of [...byName].sort((a, b) => sum(b[1].ms) - sum(a[1].ms))) {
  console.log(`  ${(names.get(i) ?? `#${i}`).padEnd(64)} ${e.ms.length}/${rounds}  ${e.ms.map((x) => x.toFixed(1)).join(" ").padEnd(18)} ${e.body} -> ${e.code}`);
}
