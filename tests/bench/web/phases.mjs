// Where the page's warm first result spends its time, phase by phase, in a
// person's browser (person.mjs's warm figure, ours only): the page's spawn of
// the worker, codemode.wasm's response end and compile, the worker's boot,
// Go's start, api.init and the first exec.
//
//   node tests/bench/web/phases.mjs [ROUNDS] [DIR] [--inittrace]
//
// DIR is a staged build/bench-web (./build.sh bench-web makes it). The tool
// copies it to a temporary directory and marks the phases in that copy's
// codemode.js and codemode.worker.js (User Timing marks in the page; the
// worker's are taken with its clock and handed back in init's reply), so the
// build under test stays as it is. Each round: a fresh on-disk profile loads
// bench/first.html cold, keeps it open 5 s (V8 writes its wasm code cache),
// then a new browser on the profile loads it warm; the warm load's marks are
// printed as medians, ms from navigation start, with the phase each closes.
// A diagnosis tool: the marks cost microseconds, but the figure to quote is
// bench-web's.
//
// --inittrace also runs the warm loads' Go program with GODEBUG=inittrace=1
// and prints each package's init time (the runtime's own clock, median over
// the rounds): which package-level initialisation the start pays, in the
// browser and with the code cache as a person has it. The trace's lines go
// through the worker's console, so the Go start phase is a little longer.
import { stagedWarmLoads } from "./person.mjs";
import { median } from "./serve.mjs";
import { cpSync, readFileSync, writeFileSync, rmSync, mkdtempSync, existsSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const args = process.argv.slice(2);
const inittrace = args.includes("--inittrace");
if (inittrace) args.splice(args.indexOf("--inittrace"), 1);
const rounds = /^\d+$/.test(args[0] ?? "") ? Number(args.shift()) : 5;
const dir = args[0] ?? "build/bench-web";
if (!existsSync(join(dir, "bench", "first.html"))) {
  console.error(`phases.mjs: ${dir} has no bench/first.html; ./build.sh bench-web stages build/bench-web`);
  process.exit(2);
}

/** patch replaces each [pattern, replacement] in file once; a pattern not found stops the tool (the bundle changed shape). */
function patch(file, edits) {
  let s = readFileSync(file, "utf8");
  for (const [re, to] of edits) {
    if (!re.test(s)) throw new Error(`phases.mjs: ${file} has no ${re}: the hostjs bundle changed, update the marks here`);
    s = s.replace(re, to);
  }
  writeFileSync(file, s);
  // The server would answer a precompressed copy of the unpatched file.
  for (const f of readdirSync(join(file, ".."))) if (f.startsWith(file.replace(/^.*\//, "") + ".")) rmSync(join(file, "..", f));
}

const stage = mkdtempSync(join(tmpdir(), "phases-"));
cpSync(dir, stage, { recursive: true });
const W = "__phase";
// With --inittrace, wasm_exec.js's console.log lines (the runtime's trace) are
// kept by the worker and handed back beside its marks.
const trace = inittrace
  ? { go: ` go.env = { GODEBUG: "inittrace=1" }; self.${W}Lines = []; console.log = (s) => { self.${W}Lines.push(String(s)); };`, reply: ` info.${W}Lines = self.${W}Lines;`, page: ` window.__inittrace = info.${W}Lines; delete info.${W}Lines;` }
  : { go: "", reply: "", page: "" };
patch(join(stage, "codemode.js"), [
  [/const ready = compileCore\(/, "performance.mark(\"spawn\"); const ready = compileCore("],
  [/(compileCore\([^)]*\)\.then\(\(modules\) => \{)/, "$1 performance.mark(\"compiled\");"],
  [/this\.info = info;/, `this.info = info; performance.mark("init reply"); for (const [k, t] of Object.entries(info.${W} ?? {})) performance.mark(k, { startTime: t - performance.timeOrigin }); delete info.${W};${trace.page}`],
]);
patch(join(stage, "codemode.worker.js"), [
  [/(async function bootGo\([^)]*\) \{)/, `const ${W} = {}; const ${W}At = (k) => { ${W}[k] = performance.timeOrigin + performance.now(); }; ${W}At("worker ran");\n$1 ${W}At("worker boot");`],
  [/(\n\s*const go = new globalThis\.Go\(\);)(\s*const host)/, `$1${trace.go}$2`],
  [/(\n\s*)(host\.bind\(inst\);)/, `$1${W}At("Go instantiated"); $2`],
  [/(\n\s*)(return \{ api: \w+, quickjsModule: qjsMod, exited \};)/, `$1${W}At("Go started"); $2`],
  [/(const info = JSON\.parse\(await \w+\.init\([^;]*\);)/, `$1 ${W}At("api.init done"); info.${W} = ${W};${trace.reply}`],
]);
patch(join(stage, "bench", "first.html"), [
  [/body: JSON\.stringify\(\{ \.\.\.window\.firstResult,/, "body: JSON.stringify({ ...window.firstResult, inittrace: window.__inittrace, marks: Object.fromEntries(performance.getEntriesByType(\"mark\").map((m) => [m.name, m.startTime])),"],
]);

const loads = [];
const inits = new Map(); // package -> init ms per warm load
for (const w of await stagedWarmLoads(stage, rounds)) {
  const wasm = (w.resources ?? []).find((r) => /\/codemode\.wasm/.test(r.url));
  for (const line of w.inittrace ?? []) {
    const m = /^init (\S+) @\S+ ms, ([\d.]+) ms clock/.exec(line);
    if (m) inits.set(m[1], [...(inits.get(m[1]) ?? []), Number(m[2])]);
  }
  loads.push({ ...w.marks, ...(wasm ? { "codemode.wasm response end": wasm.responseEnd } : {}), "ready (createCodeMode resolved)": w.ready, "first result": w.ms });
}
const keys = Object.keys(loads[0]).filter((k) => loads.every((l) => typeof l[k] === "number"))
  .sort((a, b) => median(loads.map((l) => l[a])) - median(loads.map((l) => l[b])));
console.log(`warm loads of bench/first.html?side=ours in a person's browser, ${rounds} rounds: ms from navigation start (median; each round)`);
let prev = 0;
for (const k of keys) {
  const m = median(loads.map((l) => l[k]));
  console.log(`${k.padEnd(34)} ${m.toFixed(1).padStart(6)}  +${(m - prev).toFixed(1).padStart(5)}   ${loads.map((l) => l[k].toFixed(0)).join(" ")}`);
  prev = m;
}
if (inittrace) {
  const rows = [...inits].map(([pkg, ms]) => [pkg, median(ms), ms]).sort((a, b) => b[1] - a[1]);
  console.log(`package init in the warm loads (GODEBUG=inittrace=1; median ms, each round), ${rows.reduce((a, r) => a + r[1], 0).toFixed(1)} ms in all:`);
  for (const [pkg, m, ms] of rows.filter((r) => r[1] >= 0.1)) console.log(`  ${pkg.padEnd(52)} ${m.toFixed(2).padStart(6)}   ${ms.map((x) => x.toFixed(1)).join(" ")}`);
}
