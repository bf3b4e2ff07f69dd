// The dedicated Web Worker that runs the Go core for a page (codemode.js starts
// it). A busy cell blocks only this thread; the page stops it by terminating the
// worker. Client tools run in the page; server tools are fetched from here.
import { startCore, fetchHooks, tsxLoader, preloadWasmExec, watch } from "./core.js";
// core.js's imports, requested together with it (see codemode.js).
import "./assets.js";
import "./hostengine.js";

let api = null;
let tsx = null; // the TypeScript transform (tsx.wasm), loaded on first use
let inflight = 0; // calls of the page this worker is running
let preload = false; // load tsx.wasm once the core is idle (TypeScript enabled)
let warm = false; // run the core's warm-up cell once idle: no exec or wait came yet
let warmCalls = false; // and warm the tool-call path up too (a page with client tools)
const tools = new Map(); // callId -> {resolve, reject}
const post = (m) => self.postMessage(m);
// wasm_exec.js sits beside this script: it loads while the page compiles the
// modules, before the init message arrives.
preloadWasmExec(new URL(".", import.meta.url));
const errorOf = (e) => ({ name: (e && e.name) || "Error", message: e && e.message !== undefined ? String(e.message) : String(e) });

/**
 * Preloading waits this long after the last call for the core to stay idle:
 * long enough that a page's first cells (a person's first Run) go first, so
 * the download never competes with them.
 */
const PRELOAD_IDLE_MS = 1000;

/**
 * The tool-call warm-up (api.warmUpCalls: a tool of the core's own, unseen
 * by the page, its hooks and the transcript): V8 runs the call path as
 * baseline code until it has seen some hundred calls and then compiles it in
 * the background, which otherwise lands in a page's first calls. Batches, a
 * task turn apart, so a cell that arrives meanwhile waits for one batch at most.
 */
const WARM_CALL_BATCHES = 5, WARM_CALL_BATCH = 20;

const hooks = {
  ...fetchHooks(),
  watch,
  callClientTool(name, input, runId, callId) {
    return new Promise((resolve, reject) => {
      tools.set(callId, { resolve, reject });
      post({ type: "callTool", name, input, runId, callId });
    });
  },
  abortClientTool(callId) {
    post({ type: "abortTool", callId });
  },
  // The first TypeScript cell may have to load tsx.wasm: the page holds its
  // watchdog meanwhile (the worker is waiting, not busy), and the core starts
  // the run's clock only after the transform.
  transformTS(src) {
    if (tsx.ready) return tsx.transform(src);
    post({ type: "hold" });
    return tsx.transform(src).finally(() => post({ type: "resume" })).then((out) => {
      post({ type: "tsxready" });
      return out;
    });
  },
};

// idle schedules, for when no call of the page has run for PRELOAD_IDLE_MS,
// the core's warm-up cell (api.warmUp: unseen by transcript, hooks and runs;
// V8 compiles the exec path's Go code on its first call, which the page's
// first cell then finds done) unless a cell came first, then the background
// load of tsx.wasm (a low-priority download). Neither competes with the first
// cells of a page that just started.
function idle() {
  if ((!preload && !warm) || inflight > 0) return;
  setTimeout(async () => {
    if (inflight > 0) return;
    if (warm) {
      warm = false;
      await api.warmUp().catch(() => {}); // a closed core refuses; its next call says why
      for (let i = 0; warmCalls && i < WARM_CALL_BATCHES && inflight === 0; i++) {
        await api.warmUpCalls(WARM_CALL_BATCH).catch(() => {});
        await new Promise((r) => setTimeout(r, 0)); // a cell's message gets its turn
      }
      if (inflight > 0) return; // a call came meanwhile: idle runs again after it
    }
    if (!preload) return;
    preload = false;
    tsx.load().then(() => post({ type: "tsxready" }), () => {}); // a failure is reported by the first TypeScript cell
  }, PRELOAD_IDLE_MS);
}

self.onmessage = async (ev) => {
  const m = ev.data;
  if (m.type === "toolResult") {
    const t = tools.get(m.callId);
    if (!t) return;
    tools.delete(m.callId);
    if (m.ok) t.resolve(m.value);
    else {
      const e = new Error(m.error.message);
      e.name = m.error.name;
      t.reject(e);
    }
    return;
  }
  inflight++;
  try {
    let value;
    if (m.type === "init") {
      tsx = tsxLoader({ base: new URL(m.assets) });
      const started = await startCore({ assets: m.assets, options: m.options, hooks, modules: m.modules });
      api = started.api;
      value = started.info;
      preload = (value.languages ?? []).includes("typescript");
      warm = true;
      warmCalls = (m.options.clientTools ?? []).length > 0;
    } else {
      // The page's watchdog counts from here: a fresh worker's start-up and a
      // queue of earlier messages never eat into the cell's timeoutMs.
      if (m.method === "exec" || m.method === "wait") {
        warm = false; // the page's first cell warms the core itself
        post({ type: "started", id: m.id });
      }
      value = await api[m.method](...m.args);
    }
    post({ type: "reply", id: m.id, ok: true, value });
  } catch (e) {
    post({ type: "reply", id: m.id, ok: false, error: errorOf(e) });
  } finally {
    inflight--;
    idle();
  }
};
