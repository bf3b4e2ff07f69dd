// The Worker's entry: one Go program of the front (front.wasm: the edge
// handler, auth, validation, CORS and routing) per isolate, started inside the
// isolate's first request (workerd refuses random values and timers at global
// scope) and serving every later request through binding.serve; the session
// Durable Object class is exported beside it. wasm modules are imported, never
// compiled from bytes (workerd forbids that).
import "./wasm_exec.js";
import frontModule from "./front.wasm";
import { coreStats } from "./session.mjs";
export { CodeModeSession } from "./session.mjs";

globalThis.tryCatch ??= (fn) => {
  try {
    return { result: fn() };
  } catch (error) {
    return { error };
  }
};

/** @type {{binding: any, rearm: () => void} | null} this isolate's running front */
let front = null;
/** Go programs of the front started in this isolate (1 unless one exited). */
let started = 0;

/**
 * frontFor returns the isolate's front, starting its Go program on first use
 * (or again after it exited: a Go program that died is never reused). The
 * env is the same for every request of an isolate.
 */
function frontFor(env) {
  if (front) return front;
  const binding = {};
  const go = new Go();
  const rearm = followTimers(go);
  const instance = new WebAssembly.Instance(frontModule, go.importObject);
  const me = { binding, rearm };
  started++;
  // run executes main up to its first wait: binding.serve is set on return.
  const exited = () => {
    if (front === me) front = null;
  };
  go.run(instance, { env, binding }).then(exited, exited);
  if (typeof binding.serve !== "function") throw new Error("the front's Go program did not start");
  front = me;
  return me;
}

/**
 * serve hands one request to the front: method, URL, headers, a pull reader
 * of the body and the request's ctx (for waitUntil), and builds the Response
 * from its {status, headers, body}.
 */
async function serve(request, env, ctx) {
  const { binding, rearm } = frontFor(env);
  rearm();
  const body = request.body ? bodyReader(request) : null;
  try {
    const answer = await binding.serve({ method: request.method, url: request.url, headers: [...request.headers], read: body && body.read, ctx });
    return new Response(answer.body, { status: answer.status, headers: answer.headers });
  } finally {
    body?.release();
  }
}

/**
 * SMALL_BODY is the largest declared Content-Length read in one piece: far
 * below every body limit of the edge handler, so the front still refuses an
 * oversized body having read no more than its limit.
 */
const SMALL_BODY = 64 << 10;

/**
 * bodyReader is the pull reader of a request body the front reads: a body
 * declared small (every /v1 message of an agent) is read in one native call
 * on the first read(), which costs a fraction of a stream reader's set-up and
 * its per-chunk promises; any other is streamed chunk by chunk. release()
 * lets go of what the front left unread (a refused body is not read to its
 * end).
 */
function bodyReader(request) {
  const declared = Number(request.headers.get("content-length") ?? NaN);
  if (Number.isSafeInteger(declared) && declared >= 0 && declared <= SMALL_BODY) {
    let done = false;
    return {
      read: async () => {
        if (done) return null;
        done = true;
        return new Uint8Array(await request.arrayBuffer());
      },
      release() {},
    };
  }
  const reader = request.body.getReader();
  return {
    read: () => reader.read().then((r) => (r.done ? null : r.value)),
    release: () => reader.cancel().catch(() => {}),
  };
}

/**
 * followTimers keeps the front's Go timers alive across requests. The Go
 * program arms one JavaScript timeout for its earliest timer, in whichever
 * request was running then, and arms it again only when that deadline
 * changes. workerd drops a request's timeouts when the request is canceled
 * (a relayed tool call whose run was aborted), and every goroutine waiting
 * on a later timer (another request's sleeping tool) would then wait
 * forever: workerd ends that request as hung. So each request re-arms the
 * program's pending timeouts in its own context, with the time they have
 * left. It wraps wasm_exec.js's two timeout imports.
 */
function followTimers(go) {
  const imports = go.importObject.gojs;
  const schedule = imports["runtime.scheduleTimeoutEvent"];
  const clear = imports["runtime.clearTimeoutEvent"];
  /** @type {Map<number, number>} timeout id -> when it is due (ms since the epoch) */
  const due = new Map();
  imports["runtime.scheduleTimeoutEvent"] = (sp) => {
    schedule(sp);
    sp >>>= 0;
    const delay = go.mem.getUint32(sp + 8, true) + go.mem.getInt32(sp + 12, true) * 4294967296;
    due.set(go.mem.getInt32(sp + 16, true), Date.now() + delay);
  };
  imports["runtime.clearTimeoutEvent"] = (sp) => {
    due.delete(go.mem.getInt32((sp >>> 0) + 8, true));
    clear(sp);
  };
  return function rearm() {
    const now = Date.now();
    for (const [id, at] of due) {
      if (!go._scheduledTimeouts.has(id)) {
        due.delete(id);
        continue;
      }
      clearTimeout(go._scheduledTimeouts.get(id));
      go._scheduledTimeouts.set(id, setTimeout(() => {
        // as wasm_exec.js's own callback: Go clears the id when it took the event
        go._resume();
        while (go._scheduledTimeouts.has(id)) go._resume();
      }, Math.max(0, at - now)));
    }
  };
}

export default {
  async fetch(request, env, ctx) {
    try {
      if (env.CODEMODE_DEBUG_INSTANCES === "true" && new URL(request.url).pathname === "/debug/front-instances") {
        return Response.json(await debugInstances());
      }
      return await serve(request, env, ctx);
    } catch (err) {
      // The front itself failed (its CPU or memory limit, a Go program that
      // exited): answer in the API's error shape, never the platform's page.
      console.error("front failed:", err?.message ?? String(err));
      return Response.json({ error: { code: "unavailable", message: "the Worker could not answer this request; try again" } }, { status: 503 });
    }
  },
};

/**
 * debugInstances is GET /debug/front-instances (CODEMODE_DEBUG_INSTANCES=true
 * only, for the tests' and the soak's leak checks): live is the front's Go
 * programs running in this isolate (0 or 1), started how many were ever
 * started, frontGoroutines and frontHeapBytes the running one's; then the
 * session objects' cores in this isolate with their goroutines and heap.
 */
async function debugInstances() {
  const stats = front ? front.binding.stats() : null;
  return {
    live: front ? 1 : 0,
    started,
    frontGoroutines: stats?.goroutines ?? 0,
    frontHeapBytes: stats?.heapBytes ?? 0,
    ...(await coreStats()),
  };
}
