// Code Mode for JavaScript hosts: the Go core (codemode.wasm) with QuickJS on
// this host's own WebAssembly engine. One ES module, no framework: a page's
// <script type="module">, a bundler, Node.js >= 20, a Durable Object.
//
//   const cm = await createCodeMode({ app: "demo", clientTools: [...] });
//   const result = await cm.exec({ code: "return 1 + 1" });
//
// In a page the core runs in a dedicated Web Worker (a busy cell never freezes
// the page); a cell still running past timeoutMs plus a grace is stopped by
// terminating the worker. Elsewhere it runs inline. Types: codemode.d.ts.
import { startCore, compileCore, fetchHooks, runClientTool, tsxLoader, asset, watch } from "./core.js";
// core.js's own imports, named here too: served as they are, a browser then
// requests all three together with core.js instead of after it. build/web's
// codemode.js is this module bundled with them (hostjs/build: no round trip
// at all before the .wasm downloads start).
import "./assets.js";
import "./hostengine.js";

/** Extra time past timeoutMs before a page terminates a busy worker. */
export const WORKER_GRACE_MS = 1500;

const inPage = typeof window !== "undefined" && typeof document !== "undefined" && typeof Worker !== "undefined";
const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
const fail = (what, want, got) => {
  const kind = got === null ? "null" : Array.isArray(got) ? "an array" : typeof got;
  throw new TypeError(`createCodeMode: ${what} must be ${want} (got ${kind})`);
};

function checkOptions(o) {
  if (o === undefined) o = {};
  if (!isObject(o)) fail("options", "an object", o);
  const known = ["config", "app", "clientTools", "serverTools", "engine", "thread", "assets", "modules", "interruptsPerSecond", "pollsPerSecond", "demo"];
  for (const k of Object.keys(o)) {
    if (!known.includes(k)) throw new TypeError(`createCodeMode: unknown option "${k}" (known: ${known.join(", ")})`);
  }
  if (o.config !== undefined && !isObject(o.config)) fail("options.config", "an object", o.config);
  if (o.config && "enabled" in o.config && o.config.enabled !== true) {
    throw new TypeError("createCodeMode: options.config.enabled is implied; leave it out or set it to true");
  }
  if (o.app !== undefined && (typeof o.app !== "string" || !/^[A-Za-z0-9_.-]{1,64}$/.test(o.app))) {
    if (typeof o.app !== "string") fail("options.app", "a string", o.app);
    throw new TypeError("createCodeMode: options.app must be 1-64 letters, digits, '_', '.' or '-'");
  }
  const tools = o.clientTools ?? [];
  if (!Array.isArray(tools)) fail("options.clientTools", "an array", tools);
  if (tools.length && o.app === undefined) throw new TypeError("createCodeMode: options.app is required with clientTools (ids are client:<app>:<name>)");
  const names = new Set();
  tools.forEach((t, i) => {
    const at = `options.clientTools[${i}]`;
    if (!isObject(t)) fail(at, "an object", t);
    if (typeof t.name !== "string" || !/^[A-Za-z_][A-Za-z0-9_]{0,63}$/.test(t.name)) {
      throw new TypeError(`createCodeMode: ${at}.name must be an identifier of at most 64 characters`);
    }
    if (names.has(t.name)) throw new TypeError(`createCodeMode: ${at}.name "${t.name}" is used twice`);
    names.add(t.name);
    if (typeof t.description !== "string") fail(`${at}.description`, "a string", t.description);
    if (!isObject(t.parameters)) fail(`${at}.parameters`, "a JSON Schema object", t.parameters);
    if (t.label !== undefined && typeof t.label !== "string") fail(`${at}.label`, "a string", t.label);
    if (t.readOnly !== undefined && typeof t.readOnly !== "boolean") fail(`${at}.readOnly`, "a boolean", t.readOnly);
    if (typeof t.execute !== "function") fail(`${at}.execute`, "a function", t.execute);
  });
  if (o.serverTools !== undefined) {
    const s = o.serverTools;
    if (!isObject(s)) fail("options.serverTools", "an object", s);
    let u;
    try { u = new URL(s.url); } catch { u = null; }
    if (typeof s.url !== "string" || !u || (u.protocol !== "http:" && u.protocol !== "https:")) {
      throw new TypeError("createCodeMode: options.serverTools.url must be an http(s) URL");
    }
    if (s.fetch !== undefined && typeof s.fetch !== "function") fail("options.serverTools.fetch", "a function", s.fetch);
    if (s.headers !== undefined) {
      if (!isObject(s.headers)) fail("options.serverTools.headers", "an object of strings", s.headers);
      for (const [k, v] of Object.entries(s.headers)) {
        if (typeof v !== "string") fail(`options.serverTools.headers["${k}"]`, "a string", v);
      }
    }
  }
  if (o.engine !== undefined && o.engine !== "host" && o.engine !== "wazero") {
    throw new TypeError(`createCodeMode: options.engine must be "host" or "wazero"`);
  }
  if (o.demo !== undefined && typeof o.demo !== "boolean") fail("options.demo", "a boolean", o.demo);
  if (o.demo && o.engine === "wazero") throw new TypeError(`createCodeMode: options.demo needs engine "host" (codemode.demo.wasm is the host engine's core)`);
  if (o.thread !== undefined && o.thread !== "worker" && o.thread !== "inline") {
    throw new TypeError(`createCodeMode: options.thread must be "worker" or "inline"`);
  }
  if (o.thread === "worker" && typeof Worker === "undefined") {
    throw new TypeError(`createCodeMode: options.thread "worker" needs Web Workers, which this host lacks`);
  }
  if (o.assets !== undefined && typeof o.assets !== "string" && !(o.assets instanceof URL)) fail("options.assets", "a string or URL", o.assets);
  if (o.modules !== undefined) {
    // Hosts that forbid compiling bytes (workerd) import the modules instead.
    if (!isObject(o.modules)) fail("options.modules", "an object {codemode, quickjs, tsx?}", o.modules);
    for (const k of ["codemode", "quickjs"]) {
      if (!(o.modules[k] instanceof WebAssembly.Module)) fail(`options.modules.${k}`, "a WebAssembly.Module", o.modules[k]);
    }
    if (o.modules.tsx !== undefined && !(o.modules.tsx instanceof WebAssembly.Module)) fail("options.modules.tsx", "a WebAssembly.Module", o.modules.tsx);
    if (o.thread === "worker") throw new TypeError(`createCodeMode: options.modules needs thread "inline"`);
  }
  if (o.interruptsPerSecond !== undefined && (!Number.isSafeInteger(o.interruptsPerSecond) || o.interruptsPerSecond < 1)) {
    throw new TypeError("createCodeMode: options.interruptsPerSecond must be a positive integer");
  }
  if (o.pollsPerSecond !== undefined && (!Number.isSafeInteger(o.pollsPerSecond) || o.pollsPerSecond < 1)) {
    throw new TypeError("createCodeMode: options.pollsPerSecond must be a positive integer");
  }
  return o;
}

/** The JSON the Go side receives: tool metadata without the functions. */
function goOptions(o) {
  return {
    config: o.config,
    app: o.app,
    clientTools: (o.clientTools ?? []).map(({ name, label, description, parameters, readOnly }) => ({ name, label, description, parameters, readOnly })),
    serverTools: o.serverTools && { url: o.serverTools.url, headers: o.serverTools.headers },
    interruptsPerSecond: o.interruptsPerSecond,
    pollsPerSecond: o.pollsPerSecond,
    engine: o.engine ?? "host",
  };
}

// callIdOf checks the optional {callId, scope} of exec/wait (["", {}] when
// absent); a bad one rejects like every other input error of exec/wait.
const callIdOf = (opts, method) => new Promise((resolve) => resolve([callIdText(opts, method), scopeOf(opts)]));
const SCOPE_FIELDS = ["agentId", "sessionId", "sessionKey", "agentRunId"];

/** The optional scope of an operation ({} for none): a host serving several agents or sessions. */
function scopeOf(opts) {
  if (opts === undefined || opts.scope === undefined) return {};
  const sc = opts.scope;
  if (!isObject(sc)) throw new TypeError("scope must be an object {agentId?, sessionId?, sessionKey?, agentRunId?}");
  for (const [k, v] of Object.entries(sc)) {
    if (!SCOPE_FIELDS.includes(k)) throw new TypeError(`scope: unknown field "${k}"`);
    if (typeof v !== "string") throw new TypeError(`scope.${k} must be a string`);
  }
  return sc;
}

/** The message of one operation of the Go table (internal/ops): its fields and the scope. */
const message = (fields, opts) => JSON.stringify({ ...fields, scope: scopeOf(opts) });

function callIdText(opts, method) {
  if (opts === undefined) return "";
  if (!isObject(opts)) throw new TypeError(`${method}: options must be an object {callId?, scope?}`);
  if (opts.callId !== undefined && (typeof opts.callId !== "string" || opts.callId.length > 128)) {
    throw new TypeError(`${method}: options.callId must be a string of at most 128 characters`);
  }
  return opts.callId ?? "";
}

const rethrow = (e) => {
  if (e instanceof Error) throw e;
  const err = new Error(e && e.message ? e.message : String(e));
  if (e && e.name) err.name = e.name;
  throw err;
};

/** A core in this realm. */
class InlineCore {
  async start(o, assets) {
    const byName = new Map((o.clientTools ?? []).map((t) => [t.name, t]));
    this.controllers = new Map();
    // TypeScript: tsx.wasm beside the assets, or modules.tsx, loaded on the
    // first TypeScript cell only (a Worker's session object pays nothing for
    // JavaScript-only sessions).
    const tsx = tsxLoader({ base: assets, module: o.modules?.tsx });
    const hooks = {
      ...fetchHooks(o.serverTools?.fetch),
      callClientTool: (name, input, runId, callId) => runClientTool(byName.get(name), input, runId, callId, this.controllers),
      abortClientTool: (callId) => { const ac = this.controllers.get(callId); if (ac) ac.abort(); },
      transformTS: (src) => tsx.transform(src),
      watch,
    };
    const { api, info } = await startCore({ assets, options: goOptions(o), hooks, modules: o.modules, demo: o.demo });
    this.api = api;
    return info;
  }
  call(method, args) { return this.api[method](...args); }
  close() { return this.api.close(); }
}

/** A core in a dedicated Web Worker, restarted when a cell overruns. */
class WorkerCore {
  constructor(owner) {
    this.owner = owner;
    this.seq = 0;
    this.pending = new Map(); // id -> {resolve, reject, method, timer}
    this.controllers = new Map();
  }
  start(o, assets) {
    this.o = o;
    this.assets = assets;
    this.byName = new Map((o.clientTools ?? []).map((t) => [t.name, t]));
    return this.spawn();
  }
  spawn() {
    // The versioned name (assets.js) is immutable in the HTTP cache: a warm
    // load starts the worker without asking the server first.
    const w = new Worker(asset("codemode.worker.js", this.assets), { type: "module" });
    this.worker = w;
    w.onmessage = (ev) => this.onMessage(w, ev.data);
    w.onerror = (ev) => {
      ev.preventDefault?.();
      this.restart(`the worker failed: ${ev.message || "error"}`, null);
    };
    // The page downloads and compiles the modules while the worker loads its
    // scripts, and hands them over compiled; a restarted worker reuses them.
    const ready = compileCore(this.assets, this.o.engine, this.o.demo).then((modules) => {
      if (w !== this.worker) return this.ready; // restarted meanwhile: the new worker's start
      return this.send("init", [], { type: "init", options: goOptions(this.o), assets: String(this.assets), modules }).then((info) => {
        this.info = info;
        return info;
      });
    });
    this.ready = ready;
    return ready;
  }
  send(method, args, msg) {
    const id = ++this.seq;
    return new Promise((resolve, reject) => {
      const p = { resolve, reject, method };
      this.pending.set(id, p);
      this.worker.postMessage(msg ? { ...msg, id } : { type: "call", id, method, args });
    });
  }
  onMessage(w, m) {
    if (w !== this.worker) return;
    if (m.type === "started") {
      // The worker began an exec or wait: from now on it has timeoutMs plus
      // the grace before it is terminated.
      const p = this.pending.get(m.id);
      if (p && this.info && !p.timer) {
        p.started = true;
        if (!this.holds) this.arm(m.id, p);
      }
    } else if (m.type === "tsxready") {
      if (!this.owner.typescriptReady) {
        this.owner.typescriptReady = true;
        this.owner.dispatchEvent(new Event("typescriptready"));
      }
    } else if (m.type === "hold" || m.type === "resume") {
      // The worker is loading tsx.wasm for a TypeScript cell: it waits, it is
      // not busy, so no cell's watchdog runs meanwhile; each restarts after.
      this.holds = (this.holds ?? 0) + (m.type === "hold" ? 1 : -1);
      for (const [id, p] of this.pending) {
        if (!p.started) continue;
        clearTimeout(p.timer);
        p.timer = null;
        if (!this.holds) this.arm(id, p);
      }
    } else if (m.type === "reply") {
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      clearTimeout(p.timer);
      if (m.ok) p.resolve(m.value);
      else p.reject(m.error);
    } else if (m.type === "callTool") {
      const tool = this.byName.get(m.name);
      runClientTool(tool, m.input, m.runId, m.callId, this.controllers).then(
        (value) => w === this.worker && w.postMessage({ type: "toolResult", callId: m.callId, ok: true, value }),
        (e) => w === this.worker && w.postMessage({ type: "toolResult", callId: m.callId, ok: false, error: { name: (e && e.name) || "Error", message: e && e.message !== undefined ? String(e.message) : String(e) } }),
      );
    } else if (m.type === "abortTool") {
      const ac = this.controllers.get(m.callId);
      if (ac) ac.abort();
    }
  }
  arm(id, p) {
    p.timer = setTimeout(() => this.restart(`cell exceeded timeoutMs`, id), this.info.timeoutMs + WORKER_GRACE_MS);
  }
  /**
   * Stops the worker; the overrunning call (timedOut) fails as timeout, a call
   * the host stopped (stopped: stop()) says so, others as lost.
   */
  restart(reason, timedOut, stopped = null) {
    const old = this.worker;
    old.terminate();
    this.holds = 0;
    for (const ac of this.controllers.values()) ac.abort();
    this.controllers.clear();
    const pending = [...this.pending.entries()];
    this.pending.clear();
    // The results and texts are Go's (init's failures: internal/ops.ShimFailures); an exec or
    // wait is only sent once init answered, so they are here.
    const failures = this.info?.failures;
    for (const [id, p] of pending) {
      clearTimeout(p.timer);
      if (p.method === "exec" || p.method === "wait") {
        const f = id === timedOut ? failures.timeout : stopped !== null ? failures.stopped : failures.restarted;
        p.resolve(JSON.stringify({ ...f, error: f.error.replace("{reason}", () => stopped), telemetry: this.owner.lastTelemetry() }));
      } else {
        p.reject(new Error("code mode worker was restarted"));
      }
    }
    if (this.closed) return;
    this.spawn().catch(() => {});
    this.owner.dispatchEvent(new CustomEventish("workerrestart", { reason }));
  }
  /** Terminates the worker at once when an exec or wait is in flight; see CodeMode.stop. */
  stop(reason) {
    const busy = [...this.pending.values()].some((p) => p.method === "exec" || p.method === "wait");
    if (!busy || this.closed) return false;
    this.restart(`stopped: ${reason}`, null, reason);
    return true;
  }
  async call(method, args) {
    await this.ready;
    return this.send(method, args);
  }
  async close() {
    this.closed = true;
    try {
      await Promise.race([this.call("close", []), new Promise((r) => setTimeout(r, 500))]);
    } finally {
      this.worker.terminate();
    }
  }
}

/** An Event with a detail, also where CustomEvent is missing (Node 18). */
class CustomEventish extends Event {
  constructor(type, detail) {
    super(type);
    this.detail = detail;
  }
}

const emptyTelemetry = () => ({ catalogSize: 0, catalogBySource: { openclaw: 0, mcp: 0, client: 0 }, searchCount: 0, describeCount: 0, callCount: 0, modelVisibleTools: ["exec", "wait"] });

/** The handle createCodeMode returns; see codemode.d.ts. */
class CodeMode extends EventTarget {
  constructor(core, thread) {
    super();
    this._core = core;
    this.thread = thread;
    this._closed = false;
    this._telemetry = null;
    /** True once the TypeScript transform (tsx.wasm) is loaded in a page's worker; the "typescriptready" event fires then. */
    this.typescriptReady = false;
  }
  lastTelemetry() {
    const t = this._telemetry ?? emptyTelemetry();
    return { ...t, searchCount: 0, describeCount: 0, callCount: 0 };
  }
  async _call(method, args) {
    if (this._closed) throw new Error("code mode runtime is closed.");
    try {
      return await this._core.call(method, args);
    } catch (e) {
      rethrow(e);
    }
  }
  async _result(method, args) {
    const r = JSON.parse(await this._call(method, args));
    if (r.telemetry) this._telemetry = r.telemetry;
    return r;
  }
  /**
   * @param {{code: string, language?: string, restartSafe?: boolean}} input
   * @param {{callId?: string}} [opts] callId names this call in transcript()
   */
  exec(input, opts) {
    if (!isObject(input)) return Promise.reject(new TypeError("exec: input must be an object {code, language?, restartSafe?}"));
    for (const k of Object.keys(input)) {
      if (!["code", "command", "language", "restartSafe"].includes(k)) return Promise.reject(new TypeError(`exec: unknown field "${k}"`));
    }
    if (typeof input.code !== "string" && typeof input.command !== "string") return Promise.reject(new TypeError("exec: input.code must be a string"));
    if (input.code !== undefined && typeof input.code !== "string") return Promise.reject(new TypeError("exec: input.code must be a string"));
    if (input.command !== undefined && typeof input.command !== "string") return Promise.reject(new TypeError("exec: input.command must be a string"));
    if (input.language !== undefined && typeof input.language !== "string") return Promise.reject(new TypeError("exec: input.language must be a string"));
    if (input.restartSafe !== undefined && typeof input.restartSafe !== "boolean") return Promise.reject(new TypeError("exec: input.restartSafe must be a boolean"));
    return callIdOf(opts, "exec").then(([cid, scope]) => this._result("exec", [JSON.stringify({ ...input, scope }), cid]));
  }
  /**
   * @param {{runId: string}} input
   * @param {{callId?: string}} [opts] callId names this call in transcript()
   */
  wait(input, opts) {
    if (!isObject(input) || typeof input.runId !== "string") return Promise.reject(new TypeError("wait: input.runId must be a string"));
    return callIdOf(opts, "wait").then(([cid, scope]) => this._result("wait", [JSON.stringify({ runId: input.runId, scope }), cid]));
  }
  /** Every exec/wait of this core with its nested tool calls: {entries: [...]}. */
  async transcript() {
    return JSON.parse(await this._call("transcript", []));
  }
  /** Parses tools.codeMode JSON/JSON5 text with the core's parser: the effective config, or an Error with the core's message. */
  async checkConfig(text) {
    if (typeof text !== "string") throw new TypeError("checkConfig: text must be a string");
    return JSON.parse(await this._call("checkConfig", [text]));
  }
  /** @param {"plain"|"anthropic"|"openai"|"openai-responses"} [format] The core checks it (internal/surface Formats). */
  async surface(format = "plain", opts) {
    if (typeof format !== "string") throw new TypeError("surface: format must be a string");
    return JSON.parse(await this._call("surface", [message({ format }, opts)]));
  }
  async catalog() {
    return JSON.parse(await this._call("catalog", ["{}"]));
  }
  /** The core's Go runtime: {goroutines, heapBytes} (live heap), for leak checks. */
  async stats() {
    return JSON.parse(await this._call("stats", []));
  }
  /**
   * Discards a run of opts.scope, suspended or being resumed; its pending
   * client tools see their signal abort.
   */
  async abort(runId, opts) {
    if (typeof runId !== "string") throw new TypeError("abort: runId must be a string");
    if (opts !== undefined && !isObject(opts)) throw new TypeError("abort: options must be an object {scope?}");
    return JSON.parse(await this._call("abort", [message({ runId }, opts)]));
  }
  /**
   * Restarts a suspended run's snapshot TTL from now, for hosts whose clock
   * stands still during CPU work (a Cloudflare Durable Object): call it at
   * the next I/O after a waiting answer. {ok: true, expiresAt} or the core's
   * refusal {ok: false, code, error} (wait's code and message for that runId).
   */
  async restartTTL(runId, opts) {
    if (typeof runId !== "string") throw new TypeError("restartTTL: runId must be a string");
    if (opts !== undefined && !isObject(opts)) throw new TypeError("restartTTL: options must be an object {scope?}");
    return JSON.parse(await this._call("restartTTL", [message({ runId }, opts)]));
  }
  /**
   * Stops the exec or wait in flight (thread "worker" only): the worker is
   * terminated, the call answers failed with a message naming reason, a new
   * core takes its place (a "workerrestart" event) and this core's suspended
   * runs are lost. Resolves to false when nothing was running.
   */
  async stop(reason = "stop()") {
    if (typeof reason !== "string") throw new TypeError("stop: reason must be a string");
    if (this._closed) throw new Error("code mode runtime is closed.");
    if (this.thread !== "worker") throw new TypeError(`stop: needs thread "worker" (an inline core cannot be stopped from its own thread)`);
    return this._core.stop(reason.slice(0, 200));
  }
  async close() {
    if (this._closed) return;
    this._closed = true;
    await this._core.close();
  }
}

/**
 * Starts a Code Mode runtime. Options are checked here (a TypeError names the
 * option) before anything reaches Go.
 * @param {import("./codemode.d.ts").CodeModeOptions} [options]
 * @returns {Promise<import("./codemode.d.ts").CodeMode>}
 */
export async function createCodeMode(options) {
  const o = checkOptions(options);
  const assets = o.modules ? null : o.assets !== undefined ? new URL(String(o.assets), inPage ? location.href : undefined) : new URL(".", import.meta.url);
  const thread = o.thread ?? (inPage ? "worker" : "inline");
  const cm = new CodeMode(null, thread);
  const core = thread === "worker" ? new WorkerCore(cm) : new InlineCore();
  cm._core = core;
  try {
    await core.start(o, assets);
  } catch (e) {
    if (core.worker) core.worker.terminate();
    rethrow(e);
  }
  return cm;
}
