// What V8 compiles on the way to the page's first result: the functions of
// codemode.wasm and quickjs.wasm compiled lazily (Liftoff, on first call) in
// each phase (Go start, api.init, the first exec of `return 6 * 7`), and
// their wasm body bytes. A fresh Node.js process per round, with
// --trace-wasm-compilation-times and without tier-up, so the figure counts
// work the start asks for and does not move with the machine's load the way
// CPU time does (only goroutine scheduling and GC timing shift a few
// functions between runs). Medians over the rounds.
//
//   node tests/bench/web/lazycompile.mjs [ROUNDS] DIR [DIR...]
//
// Each DIR is a build/web (codemode.wasm, quickjs.wasm, core.js, ...). With
// --names WASM (an unstripped codemode.wasm of the same build, the last DIR)
// it also lists that side's compiled Go functions by package and phase (the
// largest 12 packages of each; TOP=N for more).
import { spawnSync } from "node:child_process";
import { readFileSync, writeSync } from "node:fs";
import { pathToFileURL, fileURLToPath } from "node:url";
import { readModule, goPackage } from "./wasmfile.mjs";

if (process.argv[2] === "--child") {
  const base = pathToFileURL(process.argv[3] + "/");
  const mark = (s) => writeSync(1, `@@ ${s}\n`); // in order with V8's own printing, unlike console.log to a pipe
  const { bootGo } = await import(new URL("core.js", base));
  const { api, quickjsModule } = await bootGo(base, new URL("codemode.wasm", base));
  mark("gostart");
  await api.init("{}", {}, quickjsModule);
  mark("init");
  const v = JSON.parse(await api.exec(JSON.stringify({ code: "return 6 * 7", scope: {} }))).value;
  mark("exec");
  if (v !== 42) throw new Error(`value ${v}`);
  process.exit(0);
}

const args = process.argv.slice(2);
let names = null;
if (args.includes("--names")) names = args.splice(args.indexOf("--names"), 2)[1];
const rounds = /^\d+$/.test(args[0] ?? "") ? Number(args.shift()) : 3;
const phases = ["gostart", "init", "exec"];

/** One run: per phase and module ("codemode", "quickjs") {n, bytes, fns: [index, bytes]}. */
function run(dir) {
  const p = spawnSync(process.execPath, ["--trace-wasm-compilation-times", "--no-wasm-tier-up", fileURLToPath(import.meta.url), "--child", dir], { encoding: "utf8", maxBuffer: 1 << 28 });
  if (p.status !== 0) throw new Error(`${dir}: ${p.stderr}`);
  const out = Object.fromEntries(phases.map((ph) => [ph, { codemode: { n: 0, bytes: 0, fns: [] }, quickjs: { n: 0, bytes: 0, fns: [] } }]));
  let phase = 0, goModule = null;
  for (const line of p.stdout.split("\n")) {
    if (line.startsWith("@@ ")) { phase++; continue; }
    const m = /^Compiled function (\S+)#(\d+) using Liftoff.*bodysize (\d+)/.exec(line);
    if (!m || phase >= phases.length) continue;
    goModule ??= m[1]; // nothing of quickjs.wasm runs before Go is started
    const side = out[phases[phase]][m[1] === goModule ? "codemode" : "quickjs"];
    side.n++, side.bytes += Number(m[3]), side.fns.push([Number(m[2]), Number(m[3])]);
  }
  return out;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
let last;
for (const dir of args) {
  const runs = Array.from({ length: rounds }, () => run(dir));
  last = runs;
  const cell = (ph, mod) => `${median(runs.map((r) => r[ph][mod].n))} fns ${(median(runs.map((r) => r[ph][mod].bytes)) / 1024).toFixed(0)} KB`;
  console.log(`${dir}: ${phases.map((ph) => `${ph} codemode ${cell(ph, "codemode")}, quickjs ${cell(ph, "quickjs")}`).join("; ")}`);
  const toResult = (r) => ["init", "exec"].reduce((a, ph) => [a[0] + r[ph].codemode.n, a[1] + r[ph].codemode.bytes], [0, 0]);
  console.log(`  codemode.wasm after Go start to the first result: ${median(runs.map((r) => toResult(r)[0]))} fns, ${(median(runs.map((r) => toResult(r)[1])) / 1024).toFixed(0)} KB`);
}
if (names) {
  const nm = readModule(readFileSync(names)).names; // function index -> Go name
  for (const ph of ["gostart", "init", "exec"]) {
    const byPkg = new Map();
    for (const [i, bytes] of last[0][ph].codemode.fns) {
      const pkg = goPackage(nm.get(i));
      const e = byPkg.get(pkg) ?? [0, 0];
      byPkg.set(pkg, [e[0] + 1, e[1] + bytes]);
    }
    console.log(`${ph}: ${[...byPkg].sort((a, b) => b[1][1] - a[1][1]).slice(0, Number(process.env.TOP ?? 12)).map(([k, [n, by]]) => `${k} ${n}/${(by / 1024).toFixed(0)} KB`).join(", ")}`);
  }
}
