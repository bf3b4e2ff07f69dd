// The IDE's one connection to Code Mode: it creates the hostjs instance
// (createCodeMode) for the current settings, runs exec/wait through it, tracks
// the session's suspended runs and records the trajectory. It holds no Code Mode
// logic of its own: results, limits, validation and catalogs all come from the
// core through the shim.

/** APP is the owner of the page's client tools: ids client:ide:<name>. */
export const APP = "ide";

let seq = 0;
const nextId = (p) => `${p}-${++seq}`;

export class Session extends EventTarget {
  /**
   * clientTools is the page's tool list; serverUrl "" means no server tools.
   * Events: "state" (instance loading/ready/failed), "runs" (suspended runs
   * changed), "trajectory" (a record was added or updated), "restart" (the
   * worker was restarted: runs in it are lost).
   */
  constructor({ clientTools, serverUrl, config }) {
    super();
    this.clientTools = clientTools;
    this.serverUrl = serverUrl;
    this.config = config; // a checked tools.codeMode object, or undefined for defaults
    this.cm = null;
    this.cmKey = "";
    this.loading = null;
    this.runs = new Map(); // runId -> {runId, reason, pending, since, ttlMs, cm, busy}
    this.trajectory = [];
    this.clientCalls = new Map(); // callId -> what the page saw of its own tool calls
  }

  key() { return JSON.stringify([this.serverUrl, this.config ?? null]); }

  /** configure changes what the next run uses; a new core starts lazily. */
  configure({ serverUrl = this.serverUrl, config = this.config }) {
    this.serverUrl = serverUrl;
    this.config = config;
  }

  /** instance returns the core for the current settings, starting it if needed. */
  async instance() {
    const key = this.key();
    if (this.cm && this.cmKey === key) return this.cm;
    if (this.loading && this.loadingKey === key) return this.loading;
    this.loadingKey = key;
    this.emit("state", { state: "loading" });
    const t0 = performance.now();
    const opts = {
      app: APP,
      clientTools: this.clientTools,
      assets: new URL("./", location.href),
      // The IDE is a demo: its core (codemode.demo.wasm) has the spec's
      // Issues namespace for codemode serve's example toolset.
      demo: true,
    };
    if (this.config) opts.config = this.config;
    if (this.serverUrl) opts.serverTools = { url: this.serverUrl };
    // The shim is loaded on first use: a page whose shim is missing still
    // renders and says so, instead of failing as a whole.
    this.loading = import("./codemode.js").then(({ createCodeMode }) => createCodeMode(opts)).then(async (cm) => {
      // One trivial cell first: V8 compiles the wasm functions on first use,
      // and on a loaded machine that first exec would eat into the person's
      // own first cell's deadline (and the worker's watchdog).
      await cm.exec({ code: "return 0;" }, { callId: nextId("ide-warmup") }).catch(() => {});
      const old = this.cm;
      this.cm = cm;
      this.cmKey = key;
      this.loading = null;
      cm.addEventListener?.("workerrestart", (e) => this.onRestart(cm, e.detail?.reason ?? ""));
      // An old core stays alive while it still holds suspended runs.
      if (old) (this.retired ??= new Set()).add(old);
      this.retire();
      this.emit("state", { state: "ready", ms: performance.now() - t0 });
      return cm;
    }, (err) => {
      this.loading = null;
      this.emit("state", { state: "failed", error: err?.message ?? String(err) });
      throw err;
    });
    return this.loading;
  }

  onRestart(cm, reason) {
    let lost = 0;
    for (const r of this.runs.values()) if (r.cm === cm) { r.lost = true; lost++; }
    this.emit("restart", { lost, stopped: reason.startsWith("stopped:") });
    this.emit("runs");
  }

  /** exec runs a cell; internal cells (catalog look-ups) stay out of the trajectory. */
  async exec({ code, language }, { internal = false } = {}) {
    // The foreground call: Stop reaches it on its core, or before it starts
    // while a new core is still loading for it.
    const call = internal ? null : this.reserve(false);
    const cm = await this.instance();
    const rec = internal ? null : this.record({ kind: "exec", language, codeBytes: new TextEncoder().encode(code).length, code });
    let res;
    if (call?.stopped) res = stoppedBeforeStart();
    else try {
      if (call) call.cm = cm;
      res = await cm.exec({ code, language }, { callId: rec?.callId ?? nextId("ide-internal") });
    } catch (err) {
      res = thrown(err);
    }
    if (call && this.fg === call) this.fg = null;
    this.settle(rec, res, cm);
    return res;
  }

  /** wait resumes a suspended run. */
  async wait(runId) {
    const run = this.runs.get(runId);
    const call = this.reserve(false);
    const cm = run?.cm ?? this.cm ?? (await this.instance());
    if (run) { run.busy = true; this.emit("runs"); }
    const rec = this.record({ kind: "wait", runId });
    let res;
    if (call.stopped) res = stoppedBeforeStart();
    else try {
      call.cm = cm;
      res = await cm.wait({ runId }, { callId: rec.callId });
    } catch (err) {
      res = thrown(err);
    }
    if (this.fg === call) this.fg = null;
    if (run) run.busy = false;
    this.runs.delete(runId);
    this.emit("runs");
    this.settle(rec, res, cm);
    this.retire();
    return res;
  }

  /**
   * stop ends the exec or wait in flight on the current core: hostjs
   * terminates its worker and starts a new core; the call answers failed,
   * saying it was stopped. Resolves false when nothing was running.
   */
  /**
   * reserve marks a foreground call as begun before exec or wait is called
   * (the page first waits for its config check), so Stop reaches it from the
   * click on Run. fresh=false keeps a reservation already made.
   */
  reserve(fresh = true) {
    if (fresh || !this.fg) this.fg = { cm: null, stopped: false };
    return this.fg;
  }

  async stop() {
    const call = this.fg;
    if (!call) return false;
    call.stopped = true;
    if (!call.cm) return true; // still waiting for its core: it ends before it starts
    try { return await call.cm.stop("Stop in the IDE"); } catch { return false; } // a retired, closed core
  }

  /** abort ends a suspended run (its client prompts close through their signal). */
  abort(runId) {
    const run = this.runs.get(runId);
    (run?.cm ?? this.cm)?.abort(runId);
    this.runs.delete(runId);
    this.emit("runs");
    this.retire();
  }

  // retire closes older cores (from before a config or server change) once
  // none of their runs is still suspended.
  retire() {
    for (const cm of this.retired ?? []) {
      if (![...this.runs.values()].some((r) => r.cm === cm)) { cm.close(); this.retired.delete(cm); }
    }
  }

  record(fields) {
    const id = nextId(fields.kind);
    const rec = { id, callId: `ide-${id}`, start: Date.now(), t0: performance.now(), nested: [], calls: [], ...fields };
    this.trajectory.push(rec);
    this.emit("trajectory", rec);
    return rec;
  }

  settle(rec, res, cm) {
    if (res.status === "waiting") {
      const ttl = (this.configOf(cm).snapshotTtlSeconds ?? 900) * 1000;
      this.runs.set(res.runId, {
        runId: res.runId, reason: res.reason, pending: res.pendingToolCalls ?? [],
        since: Date.now(), ttlMs: ttl, cm, busy: false, restartSafe: !!res.restartSafe,
      });
      this.emit("runs");
    }
    if (!rec) return;
    rec.durationMs = performance.now() - rec.t0;
    rec.status = res.status;
    rec.code = res.code;
    rec.error = res.error;
    rec.runId = rec.runId ?? res.runId;
    rec.reason = res.reason;
    rec.telemetry = res.telemetry;
    this.emit("trajectory", rec);
    this.refreshTranscript(cm);
  }

  /**
   * refreshTranscript files the core's record of nested calls (tool id, input
   * size, outcome, duration) under the IDE's exec/wait records by call id. A
   * call that finished while its run was suspended lands under the exec that
   * made it, as in the core. Client calls add the input the page saw.
   */
  async refreshTranscript(cm) {
    if (!cm?.transcript) return;
    let t;
    try { t = await cm.transcript(); } catch { return; }
    const byCall = new Map(t.entries.map((e) => [e.callId, e]));
    for (const rec of this.trajectory) {
      const e = byCall.get(rec.callId);
      if (e) rec.core = e.nested;
    }
    this.emit("trajectory");
  }

  configOf(cm) { return cm?.config ?? this.config ?? {}; }

  /**
   * nested files a client-tool call the page saw under the exec/wait record in
   * progress (until the core's transcript has it), and keeps its input.
   */
  nested(call) {
    this.clientCalls.set(call.callId, call);
    const rec = [...this.trajectory].reverse().find((r) => r.status === undefined) ?? this.trajectory.at(-1);
    if (!rec) return;
    rec.nested.push(call);
    this.emit("trajectory", rec);
  }

  /**
   * callsOf lists a record's nested calls for display: the core's, with the
   * input for the page's own tools, then page calls the core has not recorded
   * yet (still waiting for the person).
   */
  callsOf(rec) {
    const core = rec.core ?? [];
    const seen = new Set(this.trajectory.flatMap((r) => (r.core ?? []).map((c) => c.callId)));
    const out = core.map((c) => {
      const mine = this.clientCalls.get(c.callId);
      return mine ? { ...c, input: mine.input, error: mine.error } : c;
    });
    for (const c of rec.nested) {
      if (!seen.has(c.callId)) out.push({ callId: c.callId, toolId: `client:${APP}:${c.tool}`, via: "client", input: c.input, outcome: c.outcome, durationMs: c.end ? c.end - c.start : undefined, error: c.error });
    }
    return out;
  }

  emit(type, detail) { this.dispatchEvent(new CustomEvent(type, { detail })); }
}

// stoppedBeforeStart answers a call Stop ended while its core was starting.
function stoppedBeforeStart() {
  return { status: "failed", error: "code mode cell was stopped by the host (Stop in the IDE) before it started.", telemetry: null };
}

// thrown turns an exception of the shim (a bug or a lost worker) into the
// failed shape the result panel shows; the spec's union is what the core returns.
function thrown(err) {
  return { status: "failed", error: err?.message ?? String(err), code: "runtime_unavailable", telemetry: null };
}
