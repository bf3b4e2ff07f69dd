// CodeModeSession: the Durable Object that holds one long-lived Code Mode core
// per session. The Go front (a new Go instance per request, see index.mjs)
// authenticates and validates every request, then forwards exec, wait and
// surface here; suspended runs live in this object's memory, so a wait in a
// later request finds the run its exec left behind.
//
// The core is hostjs's inline mode, the same API a page uses, with
// codemode.wasm and quickjs.wasm imported as modules (workerd refuses to
// compile bytes at run time). Snapshots stay in memory as the spec requires:
// nothing is written to storage. When the object is evicted (idle, deploy,
// runtime update) its runs are gone and a wait answers invalid_input, which is
// what the core says about any unknown run.
//
// Every result shape and text is Go's: the core's answers pass through
// unchanged, and where no core answered this object sends {failure: kind}
// (FAILURE), which the Go front turns into the failed result
// (internal/ops.FailureResult).
import { DurableObject } from "cloudflare:workers";
import { openCore } from "./core.mjs";
import { RunTracker } from "./runs.mjs";

/** The failures this object reports when no core answered (internal/ops Failure*). */
export const FAILURE = Object.freeze({ unknownRun: "unknown_run", coreDown: "core_unavailable", glue: "internal" });

/** How many cancels of calls not (yet) in flight an object remembers. */
const MAX_EARLY_CANCELS = 64;

/**
 * Forwarded operations the front may ask for. touch is the front's own, never
 * a client's: after an exec or wait answered waiting, the front sends it (in
 * ctx.waitUntil) so the core restarts that run's snapshot TTL. On Cloudflare
 * this object's clock stands still during CPU work, so the suspension was
 * stamped with the time its request arrived; touch arrives as I/O, when the
 * clock is right again. cancel and end are the MCP server's (edge/mcpserver,
 * stateless in the front): cancel aborts the run of one exec or wait named by
 * its callId (notifications/cancelled arrives as a request of its own, maybe
 * in another isolate than the call); end ends every run (DELETE /mcp).
 */
const OPS = new Set(["exec", "wait", "surface", "touch", "cancel", "end"]);

export class CodeModeSession extends DurableObject {
  /** @type {Promise<any> | null} the core, started on the first request */
  #core = null;
  /** the principal this object belongs to (its name is derived from it) */
  #principal = null;
  /** Authorization of the latest forwarded request: server-tool relays reuse it */
  #auth = { value: "" };
  #runs;
  /** @type {Map<string, {runId: string | null, cancelled: boolean}>} exec/wait in flight by callId */
  #calls = new Map();
  /** callIds cancelled before their call arrived (a cancel may overtake it); bounded */
  #early = new Set();

  constructor(ctx, env) {
    super(ctx, env);
    // A pending interval keeps the object in memory while it holds suspended
    // runs (compatibility date 2026-10-01: pending timers prevent eviction).
    this.#runs = new RunTracker({
      setInterval: (fn, ms) => setInterval(fn, ms),
      clearInterval: (t) => clearInterval(t),
      now: () => Date.now(),
    });
  }

  /**
   * operate is the front's way in (Durable Object RPC, which spares the
   * Request/Response and body streams of a fetch): op, the JSON message and
   * the caller's Authorization for relays; it returns the JSON answer, or
   * throws an Error naming a refused request.
   */
  async operate(op, body, relayAuth) {
    const { status, value } = await this.#handle(op, () => JSON.parse(body), relayAuth ?? "");
    if (status !== 200) throw new Error(`session object answered ${status}: ${JSON.stringify(value)}`);
    return JSON.stringify(value);
  }

  /** fetch is the same operations over HTTP: POST /<op> with the JSON message. */
  async fetch(request) {
    const op = new URL(request.url).pathname.replace(/^\/+/, "");
    if (request.method !== "POST") return Response.json(refusal(404, "not_found", "unknown session operation").value, { status: 404 });
    const { status, value } = await this.#handle(op, () => request.json(), request.headers.get("x-codemode-relay-auth") ?? "");
    return Response.json(value, { status });
  }

  /** #handle answers one operation as {status, value}; readMsg parses its message. */
  async #handle(op, readMsg, relayAuth) {
    if (!OPS.has(op)) return refusal(404, "not_found", "unknown session operation");
    let msg;
    try {
      msg = await readMsg();
    } catch {
      return refusal(400, "invalid_request", "the forwarded body is not JSON");
    }
    if (typeof msg?.principal !== "string" || typeof msg.scope !== "object" || msg.scope === null) {
      return refusal(400, "invalid_request", "the forwarded body needs principal and scope");
    }
    // The object's name comes from principal + agent + session, so another
    // principal never reaches it; refuse anyway if the front ever got it wrong.
    if (this.#principal !== null && this.#principal !== msg.principal) {
      return refusal(403, "forbidden", "this session belongs to another principal");
    }
    this.#principal = msg.principal;
    if (op === "touch") return this.#touch(msg); // no relays: the auth stays the caller's
    if (op === "cancel") return ok({ cancelled: await this.#cancel(msg.callId, msg.scope) });
    if (op === "end") return ok({ ended: await this.#end(msg.scope) });
    this.#auth.value = relayAuth;
    if (op === "wait" && !this.#core && String(msg.input?.runId ?? "").trim() !== "") {
      // A new object (first request, or after an eviction or a deploy) holds
      // no runs: answer at once, as the core answers an unknown runId, instead
      // of starting a core only to say so. (An empty runId goes to the core,
      // whose answer says what a wait needs.)
      return ok({ failure: FAILURE.unknownRun });
    }
    let cm;
    try {
      cm = await this.#open(msg);
    } catch (err) {
      this.#core = null; // the next request tries again
      console.error("code mode core failed to start:", err?.message ?? String(err));
      return ok({ failure: FAILURE.coreDown });
    }
    try {
      return ok(await this.#serve(op, cm, msg));
    } catch (err) {
      // The core answers every cell with a result; an exception here is the
      // glue's own failure: report it without losing the object's other runs.
      console.error(`session ${op} failed:`, err?.message ?? String(err));
      return ok({ failure: FAILURE.glue });
    }
  }

  async #serve(op, cm, msg) {
    switch (op) {
      case "exec":
      case "wait": {
        const resumed = op === "wait" ? msg.input?.runId : null;
        const call = { runId: typeof resumed === "string" ? resumed : null, cancelled: false };
        const callId = typeof msg.callId === "string" && msg.callId !== "" ? msg.callId : null;
        if (callId) this.#calls.set(callId, call);
        if (callId && this.#early.delete(callId)) {
          call.cancelled = true;
          if (call.runId) await this.#abort(call.runId, msg.scope);
        }
        try {
          const result = await cm[op](msg.input ?? {}, { scope: msg.scope });
          this.#runs.observe(result, resumed, msg.ttlSeconds);
          if (call.cancelled && result?.status === "waiting") {
            // Cancelled while in flight: the run it left ends now.
            await this.#abort(result.runId, msg.scope);
            this.#runs.observe(null, result.runId, msg.ttlSeconds);
          }
          return result;
        } finally {
          if (callId && this.#calls.get(callId) === call) this.#calls.delete(callId);
        }
      }
      case "surface":
        return await cm.surface(msg.format ?? "plain", { scope: msg.scope });
    }
  }

  /**
   * touch restarts a waiting run's TTL (core.Runtime.RestartTTL) and moves its
   * keep-alive to the core's new expiry. It answers the core's {ok, expiresAt}
   * or its refusal {ok: false, code, error} ({failure} without a core or when
   * the glue failed; the front needs neither): a run already resumed or ended
   * is refused, which is harmless (a resumed run is stamped anew when it
   * suspends again, and the front touches it again then). A new object has no
   * runs and starts no core for a touch.
   */
  async #touch(msg) {
    const runId = msg.input?.runId;
    if (typeof runId !== "string") return refusal(400, "invalid_request", "touch needs input.runId");
    if (!this.#core) return ok({ failure: FAILURE.unknownRun });
    try {
      const answer = await (await this.#core).restartTTL(runId, { scope: msg.scope });
      if (answer.ok) this.#runs.renew(runId, answer.expiresAt);
      return ok(answer);
    } catch (err) {
      console.error("session touch failed:", err?.message ?? String(err));
      return ok({ failure: FAILURE.glue });
    }
  }

  /**
   * cancel aborts the run of the exec or wait in flight named callId: a
   * wait's run at once (the wait answers that it was aborted), an exec's run
   * when the exec answers (its runId is not known before). A call that
   * already answered, or an unknown callId, changes nothing (false).
   */
  async #cancel(callId, scope) {
    if (typeof callId !== "string" || callId === "") return false;
    const call = this.#calls.get(callId);
    if (!call) {
      // Not here yet (or already answered): remember it, boundedly.
      this.#early.add(callId);
      if (this.#early.size > MAX_EARLY_CANCELS) this.#early.delete(this.#early.values().next().value);
      return false;
    }
    if (call.cancelled) return false;
    call.cancelled = true;
    if (call.runId && this.#core) await this.#abort(call.runId, scope);
    return true;
  }

  /**
   * end ends every run of the session: the suspended ones and those of the
   * calls in flight (the MCP session was deleted). It answers how many
   * suspended runs it ended; a new object has none and starts no core.
   */
  async #end(scope) {
    let n = 0;
    for (const [callId, call] of [...this.#calls]) if (!call.cancelled) await this.#cancel(callId, scope);
    if (!this.#core) return n;
    for (const runId of this.#runs.ids()) {
      if (await this.#abort(runId, scope)) n++;
      this.#runs.observe(null, runId, 0);
    }
    return n;
  }

  /** #abort discards one run of scope in the core; false when it had none. */
  async #abort(runId, scope) {
    try {
      return await (await this.#core).abort(runId, { scope });
    } catch (err) {
      console.error("session abort failed:", err?.message ?? String(err));
      return false;
    }
  }

  /** The core, started once per object life from the front's codeMode config. */
  #open(msg) {
    if (!this.#core) {
      const core = openCore({
        env: this.env,
        exports: this.ctx.exports,
        config: msg.config ?? {},
        auth: this.#auth,
        interruptsPerSecond: msg.interruptsPerSecond,
        pollsPerSecond: msg.pollsPerSecond,
      });
      this.#core = core;
      if (this.env.CODEMODE_DEBUG_INSTANCES === "true") core.then((cm) => openCores.add(new WeakRef(cm)), () => {});
    }
    return this.#core;
  }
}

/**
 * openCores holds weak references to the started cores of this isolate's
 * session objects (only with CODEMODE_DEBUG_INSTANCES=true): the debug
 * route's goroutine and heap totals read them. Weak, so an evicted object's
 * core is not kept alive by the count.
 */
export const openCores = new Set();

/** coreStats sums stats() over this isolate's live session cores. */
export async function coreStats() {
  const cores = [];
  for (const ref of openCores) {
    const cm = ref.deref();
    if (cm) cores.push(cm);
    else openCores.delete(ref);
  }
  const all = await Promise.all(cores.map((cm) => cm.stats()));
  return {
    objects: all.length,
    goroutines: all.reduce((n, s) => n + s.goroutines, 0),
    heapBytes: all.reduce((n, s) => n + s.heapBytes, 0),
  };
}

function refusal(status, code, message) {
  return { status, value: { error: { code, message } } };
}

function ok(value) {
  return { status: 200, value };
}
