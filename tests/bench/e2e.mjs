// The reference side of the end-to-end workloads (e2e.json): an OpenClaw-style
// host on Node.js doing the same per-exec work as core.Runtime: a VM from the
// compiled module, one bridge callback, the cell as an async function, drain,
// settle tool promises with JSON text, read the result, dispose. yield+wait
// snapshots the VM at the yield and restores it for the wait, as a host that
// suspends runs must. It prints one JSON object on stdout; the Go program
// passes the plan with --plan '{"seq20":[warm,n],...}'.
import { QuickJS } from 'quickjs-wasi';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';

const require = createRequire(import.meta.url);
const module = await WebAssembly.compile(readFileSync(require.resolve('quickjs-wasi/quickjs.wasm')));
const W = JSON.parse(readFileSync(new URL('./e2e.json', import.meta.url), 'utf8'));
let plan = { freshExec: [1, 5], oneCall50: [1, 5], seq20: [1, 5], par10: [1, 5], yieldWait: [1, 5], sessions100: [0, 1] };
const pi = process.argv.indexOf('--plan');
if (pi > 0) plan = JSON.parse(process.argv[pi + 1]);

const rows = Array.from({ length: 50 }, (_, i) => ({ id: `SH-${1000 + i}`, paid: i % 2 === 0, tons: (i % 25) + 0.5, note: `row number ${i}` }));
const tools = { rows: async () => rows, echo: async (input) => input };

// The guest side: tools.* and yield_control over one bridge function, JSON
// text both ways (what OpenClaw's prelude and ours do).
const PRELUDE = `
const tools = new Proxy({}, { get: (_, name) => (input) => __bridge(JSON.stringify({ tool: name, input: input === undefined ? {} : input })).then(JSON.parse) });
const yield_control = () => __bridge(JSON.stringify({ tool: "yield" }));
`;

function bridge(vm, run) {
  return (reqH) => {
    const req = JSON.parse(reqH.toString());
    if (req.tool === 'yield') {
      // A promise whose resolve function is an exportable handle, so it can
      // be found again in the restored VM.
      let resolve = null;
      const ex = vm.newEphemeralFunction((res) => { resolve = res.dup(); return vm.undefined; });
      const ctor = vm.global.getProp('Promise');
      try {
        const p = vm.construct(ctor, ex);
        run.yielded = resolve;
        return p;
      } finally { ex.dispose(); ctor.dispose(); }
    }
    const d = vm.newPromise();
    run.pending++;
    Promise.resolve(tools[req.tool](req.input)).then((v) => {
      const s = vm.newString(JSON.stringify(v));
      d.resolve(s);
      s.dispose();
      run.pending--;
      vm.executePendingJobs();
      run.wake();
    });
    return d.handle;
  };
}

async function newVM(run) {
  const vm = await QuickJS.create({ wasm: module });
  const fn = vm.newFunction('__bridge', bridge(vm, run));
  vm.setProp(vm.global, '__bridge', fn);
  fn.dispose();
  return vm;
}

// drive runs jobs and waits for tool settlements until the cell's promise
// settles or the run yields.
async function drive(vm, run, h) {
  for (;;) {
    vm.executePendingJobs();
    if (h.promiseState !== 0) return true;
    if (run.yielded) return false;
    if (run.pending === 0) throw new Error('cell awaits nothing');
    await new Promise((r) => { run.wake = r; });
  }
}

async function execCell(src) {
  const run = { pending: 0, yielded: null, wake: () => {} };
  let vm = await newVM(run);
  let h = vm.evalCode(PRELUDE + '(async () => {' + src + '\n})()', 'cell.js');
  if (!(await drive(vm, run, h))) {
    // suspend: snapshot and dispose; wait: restore and resume.
    const rTok = vm.exportHandle(run.yielded), hTok = vm.exportHandle(h);
    const snap = vm.snapshot();
    vm.dispose();
    vm = await QuickJS.restore(snap, { wasm: module });
    run.yielded = null;
    vm.registerHostCallback('__bridge', bridge(vm, run));
    const resolve = vm.importHandle(rTok);
    h = vm.importHandle(hTok);
    vm.callFunction(resolve, vm.undefined, vm.undefined).dispose();
    resolve.dispose();
    await drive(vm, run, h);
  }
  const res = await vm.resolvePromise(h);
  if (!('value' in res)) throw new Error('cell failed: ' + JSON.stringify(vm.dump(res.error)));
  const out = JSON.stringify(vm.dump(res.value));
  res.value.dispose();
  h.dispose();
  vm.dispose();
  return out;
}

async function once(w) {
  if (!w.sessions) {
    const got = await execCell(w.src);
    if (got !== w.want) throw new Error(`got ${got}, want ${w.want}`);
    return;
  }
  const all = await Promise.all(Array.from({ length: w.sessions }, () => execCell(w.src)));
  for (const got of all) if (got !== w.want) throw new Error(`got ${got}, want ${w.want}`);
}

// Warm up every path first (V8 tiers quickjs.wasm up over the first runs),
// so the first workload measured does not pay for the others.
for (let k = 0; k < 30; k++) for (const name of Object.keys(plan)) if (!W[name].sessions) await once(W[name]);

const results = {};
for (const name of Object.keys(plan)) {
  const [warm, n] = plan[name];
  const c0 = process.cpuUsage();
  for (let k = 0; k < warm; k++) await once(W[name]);
  const samples = [];
  for (let k = 0; k < n; k++) {
    const t = performance.now();
    await once(W[name]);
    samples.push(performance.now() - t);
  }
  const c = process.cpuUsage(c0);
  const s = [...samples].sort((a, b) => a - b);
  const m = s.length;
  const median = m % 2 ? s[(m - 1) / 2] : (s[m / 2 - 1] + s[m / 2]) / 2;
  results[name] = { wall: { median_ms: median, min_ms: s[0], n: m, samples_ms: samples }, cpu_ms: (c.user + c.system) / 1000 / (warm + n) };
}
process.stdout.write(JSON.stringify({ node: process.version, results }) + '\n');
