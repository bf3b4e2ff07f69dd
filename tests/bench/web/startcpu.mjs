// The page's first result as CPU time, in fresh Node.js processes: a figure
// that a loaded machine disturbs far less than bench.mjs's wall clock (the
// same V8, hostjs's inline mode instead of the page's worker). For our sides
// it also prints CPU and wall by phase: compile (codemode.wasm and
// quickjs.wasm, V8's lazy compile: mostly the module's validation), Go start
// (instantiate, runtime and package init up to ready), api.init, the first exec.
//
//   node tests/bench/web/startcpu.mjs [ROUNDS] DIR [DIR...]
//
// Each DIR is a build/web (codemode.wasm, quickjs.wasm, core.js, ...); "ref" is
// quickjs-wasi's own host loading its quickjs.wasm and evaluating `6 * 7`.
// Rounds alternate between the sides; medians of process CPU (user + system,
// V8's compiler threads included) and wall time from the first import to the
// value, and for our sides the CPU by phase: Go start (compile, instantiate,
// package init up to ready), api.init, the first exec.
import { spawnSync } from "node:child_process";
import { pathToFileURL, fileURLToPath } from "node:url";

if (process.argv[2] === "--child") {
  const [side, dir] = process.argv.slice(3);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  let value;
  const phases = [], walls = [];
  const phase = () => { const c = process.cpuUsage(cpu0); phases.push((c.user + c.system) / 1000); walls.push(performance.now() - t0); };
  if (side === "ref") {
    const { QuickJS } = await import(pathToFileURL(`${dir}/dist/index.js`));
    const { readFile } = await import("node:fs/promises");
    const module = await WebAssembly.compile(await readFile(`${dir}/quickjs.wasm`));
    const vm = await QuickJS.create({ wasm: module });
    const h = vm.evalCode("6 * 7");
    value = vm.dump(h);
  } else {
    const base = pathToFileURL(dir + "/");
    const { bootGo, compileCore } = await import(new URL("core.js", base));
    const mods = await compileCore(base, undefined, false);
    phase();
    const { api, quickjsModule } = await bootGo(base, null, mods);
    phase();
    await api.init("{}", {}, quickjsModule);
    phase();
    value = JSON.parse(await api.exec(JSON.stringify({ code: "return 6 * 7", scope: {} }))).value;
  }
  const c = process.cpuUsage(cpu0);
  const cpu = (c.user + c.system) / 1000;
  const wall = performance.now() - t0;
  const steps = (xs, end) => [...xs, end].map((x, i) => x - (i ? xs[i - 1] : 0));
  console.log(JSON.stringify({ value, cpu, wall, phases: phases.length ? steps(phases, cpu) : null, walls: walls.length ? steps(walls, wall) : null }));
  process.exit(0);
}

const args = process.argv.slice(2);
const rounds = /^\d+$/.test(args[0] ?? "") ? Number(args.shift()) : 7;
const root = fileURLToPath(new URL("../../..", import.meta.url));
const sides = [["ref", `${root}node_modules/quickjs-wasi`], ...args.map((d) => [d, d])];
const got = new Map(sides.map(([name]) => [name, []]));
for (let r = 0; r < rounds; r++) {
  for (const [name, dir] of sides) {
    const p = spawnSync(process.execPath, [fileURLToPath(import.meta.url), "--child", name === "ref" ? "ref" : "ours", dir], { encoding: "utf8" });
    const line = p.stdout.trim().split("\n").pop();
    let m;
    try { m = JSON.parse(line); } catch { throw new Error(`${name}: ${p.stderr || p.stdout}`); }
    if (m.value !== 42) throw new Error(`${name}: value ${m.value}`);
    got.get(name).push(m);
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ref = median(got.get("ref").map((m) => m.cpu));
for (const [name, ms] of got) {
  const cpu = median(ms.map((m) => m.cpu)), wall = median(ms.map((m) => m.wall));
  const by = (k) => [0, 1, 2, 3].map((i) => median(ms.map((m) => m[k][i])).toFixed(0)).join(" / ");
  const ph = ms[0].phases ? `; by phase (compile / Go start / api.init / first exec) CPU ${by("phases")} ms, wall ${by("walls")} ms` : "";
  console.log(`${name}: CPU ${cpu.toFixed(0)} ms (${(cpu / ref).toFixed(2)}x ref), wall ${wall.toFixed(0)} ms${ph}; CPU rounds ${ms.map((m) => m.cpu.toFixed(0)).join(", ")}`);
}
