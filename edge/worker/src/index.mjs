// The Worker's entry: every fetch runs the Go front (front.wasm, the edge
// handler under syumai/workers; a new Go instance per request, as syumai's
// own glue does), and the session Durable Object class is exported beside it.
// wasm modules are imported, never compiled from bytes (workerd forbids that).
import "./wasm_exec.js";
import front from "./front.wasm";
import { coreStats } from "./session.mjs";
export { CodeModeSession } from "./session.mjs";

globalThis.tryCatch ??= (fn) => {
  try {
    return { result: fn() };
  } catch (error) {
    return { error };
  }
};

// live counts front instances whose Go program has not exited yet: the
// leak checks of the tests and the soak (GET /debug/front-instances, only
// with the var CODEMODE_DEBUG_INSTANCES=true) read it, beside the session
// objects' cores in this isolate and their goroutines and heap.
let live = 0;

/** runFront starts one Go instance of the front and returns its binding (handleRequest, end). */
async function runFront(env, ctx) {
  const binding = {};
  const go = new Go();
  let ready;
  const started = new Promise((resolve) => { ready = resolve; });
  const instance = new WebAssembly.Instance(front, { ...go.importObject, workers: { ready: () => ready() } });
  live++;
  go.run(instance, { env, ctx, binding }).finally(() => { live--; });
  await started;
  return binding;
}

export default {
  async fetch(request, env, ctx) {
    try {
      if (env.CODEMODE_DEBUG_INSTANCES === "true" && new URL(request.url).pathname === "/debug/front-instances") {
        return Response.json({ live, ...(await coreStats()) });
      }
      const front = await runFront(env, ctx);
      const response = await front.handleRequest(request);
      // A body-less answer (a 204 preflight) is never read, so the front's
      // workers.Done never fires: end its Go program here.
      if (response.body === null) front.end();
      return response;
    } catch (err) {
      // The front itself failed (its CPU or memory limit, a Go panic): answer
      // in the API's error shape, never the platform's page.
      console.error("front failed:", err?.message ?? String(err));
      return Response.json({ error: { code: "unavailable", message: "the Worker could not answer this request; try again" } }, { status: 503 });
    }
  },
};
