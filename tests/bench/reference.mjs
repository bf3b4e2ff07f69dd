// The reference side of ./build.sh bench: quickjs-wasi's own JavaScript host
// (the pinned package in node_modules) on Node.js, running the JavaScript
// sources of workloads.json (the same file the Go side embeds). It prints one
// JSON object on stdout. The Go program passes the iteration plan with
// --plan '{"loop":[warm,n],...}'; run alone, it uses a short default plan.
import { QuickJS } from 'quickjs-wasi';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { performance } from 'node:perf_hooks';

const require = createRequire(import.meta.url);
const wasmBytes = readFileSync(require.resolve('quickjs-wasi/quickjs.wasm'));
const pkg = JSON.parse(readFileSync(require.resolve('quickjs-wasi/package.json'), 'utf8'));
const W = JSON.parse(readFileSync(new URL('./workloads.json', import.meta.url), 'utf8'));

let plan = {
  loop: [1, 3], loopSmall: [1, 3], fib: [1, 3], fibSmall: [1, 3],
  hostCalls: [1, 5], freshVM: [5, 30], snapshot: [5, 30], restore: [5, 30],
};
const i = process.argv.indexOf('--plan');
if (i > 0) plan = JSON.parse(process.argv[i + 1]);

const t0 = performance.now();
const module = await WebAssembly.compile(wasmBytes);
const compileMs = performance.now() - t0;

// Host callbacks, the same two the Go side registers. echo returns a new
// string handle; the library duplicates it for the guest, so the previous one
// is disposed on the next call (the last one with the VM).
function callbacks(vm, state) {
  let last = null;
  return {
    echo: (s) => {
      if (last) last.dispose();
      last = vm.newString(s.toString());
      return last;
    },
    // A promise the host settles later. Built with the Promise constructor so
    // the resolve function is an owned handle the host can export: after a
    // restore, importHandle() gives it back (Deferred keeps its resolvers
    // private).
    later: () => {
      let resolve = null;
      const exec = vm.newEphemeralFunction((res) => { resolve = res.dup(); return vm.undefined; });
      const ctor = vm.global.getProp('Promise');
      try {
        const p = vm.construct(ctor, exec);
        if (state) state.resolve = resolve;
        return p;
      } finally {
        exec.dispose();
        ctor.dispose();
      }
    },
  };
}

async function newVM(state) {
  const vm = await QuickJS.create({ wasm: module });
  const cb = callbacks(vm, state);
  for (const name of ['echo', 'later']) {
    const fn = vm.newFunction(name, cb[name]);
    vm.setProp(vm.global, name, fn);
    fn.dispose();
  }
  return vm;
}

function check(vm, h, w) {
  const got = JSON.stringify(vm.dump(h));
  if (got !== w.want) throw new Error(`got ${got}, want ${w.want}`);
}

async function measure(step, f) {
  const [warm, n] = step;
  for (let k = 0; k < warm; k++) await f();
  const samples = [];
  for (let k = 0; k < n; k++) samples.push(await f());
  const ms = [...samples].sort((a, b) => a - b);
  const m = ms.length;
  const median = m % 2 ? ms[(m - 1) / 2] : (ms[m / 2 - 1] + ms[m / 2]) / 2;
  return { median_ms: median, min_ms: ms[0], n: m, samples_ms: samples };
}

const results = {};

// Compute and host calls: one eval plus reading the result, in a VM created
// (untimed) for that run: the sources declare top-level let bindings.
for (const name of ['loop', 'loopSmall', 'fib', 'fibSmall', 'hostCalls']) {
  if (!plan[name]) continue;
  results[name] = await measure(plan[name], async () => {
    const vm = await newVM(null);
    const start = performance.now();
    const h = vm.evalCode(W[name].src, 'bench.js');
    check(vm, h, W[name]);
    h.dispose();
    const d = performance.now() - start;
    vm.dispose();
    return d;
  });
}

// Fresh VM: QuickJS.create from the compiled WebAssembly.Module, then dispose.
results.freshVM = await measure(plan.freshVM, async () => {
  const start = performance.now();
  const vm = await QuickJS.create({ wasm: module });
  vm.dispose();
  return performance.now() - start;
});

// A suspended run: an async function awaiting a host promise.
const state = {};
const vm = await newVM(state);
const out = vm.evalCode(W.suspended.src, 'bench.js');
vm.executePendingJobs();
if (out.promiseState !== 0) throw new Error(`suspended run is not pending (${out.promiseState})`);
const resolveToken = vm.exportHandle(state.resolve);
const outToken = vm.exportHandle(out);

results.snapshot = await measure(plan.snapshot, async () => {
  const start = performance.now();
  vm.snapshot();
  return performance.now() - start;
});
const snap = vm.snapshot();
const serialized = QuickJS.serializeSnapshot(snap);

async function restore() {
  const r = await QuickJS.restore(snap, { wasm: module });
  const cb = callbacks(r, null);
  r.registerHostCallback('echo', cb.echo);
  r.registerHostCallback('later', cb.later);
  return r;
}

results.restore = await measure(plan.restore, async () => {
  const start = performance.now();
  const r = await restore();
  r.dispose();
  return performance.now() - start;
});

// The restored VM completes the run when the host delivers the value.
let verified = false;
{
  const r = await restore();
  const resolve = r.importHandle(resolveToken);
  const p = r.importHandle(outToken);
  const v = r.newString('delivered');
  r.callFunction(resolve, r.undefined, v).dispose();
  r.executePendingJobs();
  if (p.promiseState === 1) {
    const res = await r.resolvePromise(p);
    if ('value' in res) {
      verified = JSON.stringify(r.dump(res.value)) === W.suspended.want;
      res.value.dispose();
    }
  }
  v.dispose();
  resolve.dispose();
  p.dispose();
  r.dispose();
}
vm.dispose();

process.stdout.write(JSON.stringify({
  node: process.version,
  package: `${pkg.name}@${pkg.version}`,
  sha256: createHash('sha256').update(wasmBytes).digest('hex'),
  compile_ms: compileMs,
  results,
  snapshot_bytes: serialized.byteLength,
  snapshot_gzip_bytes: gzipSync(serialized).byteLength,
  snapshot_memory_bytes: snap.memory.byteLength,
  restore_verified: verified,
}) + '\n');
