// Starts one Go instance of codemode.wasm (with the host WebAssembly engine for
// quickjs.wasm) in the current realm: a Web Worker, Node.js, a Durable Object.
// Internal to hostjs: codemode.js and codemode.worker.js use it.
import { installHostEngine } from "./hostengine.js";
import { assetNames } from "./assets.js";

/** URL of one of hostjs's assets in base: its versioned name when the build wrote one. */
export const asset = (name, base) => new URL(assetNames[name] ?? name, base);

const compiled = new Map();

/** Compiles a .wasm once per realm (fetch in browsers, the file system for file: URLs). */
export function compileOnce(url) {
  const key = String(url);
  if (!compiled.has(key)) {
    compiled.set(key, compile(new URL(key)).catch((e) => {
      compiled.delete(key);
      throw new Error(`codemode: cannot load ${key}: ${e && e.message ? e.message : e}`);
    }));
  }
  return compiled.get(key);
}

async function compile(url) {
  if (url.protocol === "file:") {
    const { readFile } = await import("node:fs/promises");
    return WebAssembly.compile(await readFile(url));
  }
  const res = await fetch(url);
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  if (WebAssembly.compileStreaming && (res.headers.get("content-type") || "").startsWith("application/wasm")) {
    return WebAssembly.compileStreaming(res);
  }
  return WebAssembly.compile(await res.arrayBuffer());
}

let wasmExec;
async function loadWasmExec(url) {
  if (globalThis.Go) return;
  if (!wasmExec) {
    // wasm_exec.js is a strict-mode script that sets globalThis.Go; it runs
    // unchanged as a module (the directory is "type": "module").
    wasmExec = import(String(url));
  }
  await wasmExec;
  if (!globalThis.Go) throw new Error(`codemode: ${url} did not define Go`);
}

/** Fetch hooks for server tools, cancellable by token. */
export function fetchHooks(fetchFn = globalThis.fetch) {
  const controllers = new Map();
  return {
    async fetch(url, init, token) {
      const ac = new AbortController();
      controllers.set(token, ac);
      try {
        const res = await fetchFn(url, { method: init.method, headers: init.headers, body: init.body, signal: ac.signal });
        return { status: res.status, body: await res.text() };
      } finally {
        controllers.delete(token);
      }
    },
    abortFetch(token) {
      const ac = controllers.get(token);
      if (ac) ac.abort();
    },
  };
}

/**
 * The core's await helper (hooks.watch; internal/jspromise.Watcher): settles
 * a Go await by its token through one long-lived Go function, settle, so an
 * await costs the core one call into JavaScript instead of two callbacks made
 * and released per promise.
 */
export function watch(p, token, settle) {
  Promise.resolve(p).then((v) => settle(token, true, v), (e) => settle(token, false, e));
}

/**
 * Runs a client tool of the page; answers its value as JSON text.
 * @param {Map<string, AbortController>} controllers
 */
export async function runClientTool(tool, inputJSON, runId, callId, controllers) {
  const ac = new AbortController();
  controllers.set(callId, ac);
  try {
    const v = await tool.execute(JSON.parse(inputJSON), { signal: ac.signal, runId, callId });
    const text = JSON.stringify(v === undefined ? null : v);
    return text === undefined ? "null" : text;
  } finally {
    controllers.delete(callId);
  }
}

/**
 * Runs a GOOS=js program that hands its api to globalThis[bootName].ready
 * while it starts (before main blocks); answers {api, exited}.
 */
function runGo(go, inst, bootName, what) {
  let api;
  globalThis[bootName] = { ready(a) { api = a; } };
  const exited = go.run(inst);
  delete globalThis[bootName];
  if (!api) throw new Error(`codemode: ${what} did not start`);
  return { api, exited };
}

/** A cell of the usual TypeScript shapes, transformed once at load: esbuild's first use sets up tables, and V8 tiers up what it runs. */
const TSX_WARMUP = `interface Row<T> { id: number; name?: string; tags: T[] }
type Pick2 = Pick<Row<string>, "id"> & { extra: boolean };
enum Kind { A = 1, B }
class Box<T> { constructor(private readonly v: T) {} get(): T { return this.v; } }
const rows: Row<string>[] = [1, 2, 3].map((i: number): Row<string> => ({ id: i, tags: [\`t\${i}\`] satisfies string[] }));
const byId = new Map<number, Row<string>>(rows.map((r) => [r.id, r] as const));
async function load(n: number): Promise<Pick2> { return { id: n, extra: n > 1 } as Pick2; }
for (const r of rows) { if (r.name ?? Kind.A) byId.delete(r.id!); }
const [first] = await Promise.all([load(1)]);
return { first, box: new Box<string>("x").get(), n: rows.length as number };`;

/**
 * The TypeScript transform (tsx.wasm: internal/typescript as its own Go program),
 * loaded once per loader on first use: a page that runs only JavaScript never
 * downloads it. load() answers {transform(src) -> JSON text}; it runs one
 * small transform first, so esbuild's first-use set-up is paid at load.
 * @param {{base?: URL|null, module?: WebAssembly.Module}} where
 */
export function tsxLoader({ base, module }) {
  let loading = null;
  let ready = false;
  const load = () => {
    loading ??= (async () => {
      let mod = module;
      if (!mod) {
        if (!base) throw new Error("codemode: TypeScript needs tsx.wasm: pass modules.tsx (a WebAssembly.Module of build/web/tsx.wasm)");
        await loadWasmExec(asset("wasm_exec.js", base));
        mod = await compileOnce(asset("tsx.wasm", base));
      }
      const go = new globalThis.Go();
      const inst = await WebAssembly.instantiate(mod, go.importObject);
      const { api } = runGo(go, inst, "__codemodeTsxBoot", "tsx.wasm");
      api.transform(TSX_WARMUP);
      ready = true;
      return api;
    })().catch((e) => {
      loading = null; // the next TypeScript cell tries again
      throw e;
    });
    return loading;
  };
  return {
    load,
    /** @returns {boolean} whether the transform is loaded (a cell needs no wait) */
    get ready() { return ready; },
    async transform(src) {
      return (await load()).transform(src);
    },
  };
}

/**
 * Starts loading wasm_exec.js from base (a worker does it as its scripts load,
 * before its init message arrives). Errors surface at boot.
 */
export function preloadWasmExec(base) {
  loadWasmExec(asset("wasm_exec.js", base)).catch(() => {});
}

/**
 * The core's .wasm for options.engine and options.demo: codemode.wasm is built without wazero (the codemode_hostjs tag); the build that has it is loaded only for engine "wazero";
 * codemode.demo.wasm is codemode.wasm with the demo packages (the codemode_demo tag), which only the web IDE and tests ask for.
 */
const coreFile = (engine, demo) => (engine === "wazero" ? "codemode.wazero.wasm" : demo ? "codemode.demo.wasm" : "codemode.wasm");

/**
 * Downloads and compiles the core's two modules from base ({codemode,
 * quickjs}, once per realm). A page calls it before its worker has loaded its
 * scripts and hands the compiled modules over (a WebAssembly.Module is cloned
 * to a worker, not compiled again), so the download starts at createCodeMode.
 */
export async function compileCore(base, engine, demo) {
  const [codemode, quickjs] = await Promise.all([compileOnce(asset(coreFile(engine, demo), base)), compileOnce(asset("quickjs.wasm", base))]);
  return { codemode, quickjs };
}

/**
 * Boots one Go instance of a GOOS=js program of this repository (codemode.wasm,
 * or the benchmark driver) with the host engine; answers the api it hands to
 * globalThis.__codemodeBoot.ready.
 * @param {URL|null} base where wasm_exec.js and quickjs.wasm live (null: the host loaded wasm_exec.js)
 * @param {URL|null} wasmURL the Go program (unused with modules)
 * @param {{codemode: WebAssembly.Module, quickjs: WebAssembly.Module}} [modules] compiled already
 */
export async function bootGo(base, wasmURL, modules) {
  let goMod, qjsMod;
  if (modules) {
    // Imported modules (workerd forbids compiling bytes: the host has loaded
    // wasm_exec.js itself), or compiled by the page for its worker.
    if (base) await loadWasmExec(asset("wasm_exec.js", base));
    if (!globalThis.Go) throw new Error("codemode: import wasm_exec.js before createCodeMode({modules})");
    ({ codemode: goMod, quickjs: qjsMod } = modules);
  } else {
    // Both downloads and compiles start before wasm_exec.js is imported.
    const mods = Promise.all([compileOnce(wasmURL), compileOnce(asset("quickjs.wasm", base))]);
    await loadWasmExec(asset("wasm_exec.js", base));
    [goMod, qjsMod] = await mods;
  }
  const go = new globalThis.Go();
  const host = installHostEngine(go, { quickjsModule: qjsMod });
  const inst = await WebAssembly.instantiate(goMod, go.importObject);
  host.bind(inst);
  const { api, exited } = runGo(go, inst, "__codemodeBoot", String(wasmURL ?? "codemode.wasm"));
  return { api, quickjsModule: qjsMod, exited };
}

/**
 * @param {{assets: string|URL, options: object, hooks: object, modules?: object, demo?: boolean}} args demo: codemode.demo.wasm (options.demo)
 * @returns {Promise<{api: any, info: {timeoutMs: number, languages: string[], failures: object}}>} failures: internal/ops.ShimFailures
 */
export async function startCore({ assets, options, hooks, modules, demo }) {
  const base = assets ? new URL(String(assets)) : null;
  const { api, quickjsModule, exited } = await bootGo(base, base && asset(coreFile(options.engine, demo), base), modules);
  const info = JSON.parse(await api.init(JSON.stringify(options), hooks, quickjsModule));
  return { api, info, exited };
}
