// The Worker's entry: every fetch runs the Go front (front.wasm, the edge
// handler under syumai/workers; a new Go instance per request, as syumai's
// own glue does), and the session Durable Object class is exported beside it.
// wasm modules are imported, never compiled from bytes (workerd forbids that).
import "./wasm_exec.js";
import front from "./front.wasm";
export { CodeModeSession } from "./session.mjs";

globalThis.tryCatch ??= (fn) => {
  try {
    return { result: fn() };
  } catch (error) {
    return { error };
  }
};

/** runFront starts one Go instance of the front and returns its handleRequest. */
async function runFront(env, ctx) {
  const binding = {};
  const go = new Go();
  let ready;
  const started = new Promise((resolve) => { ready = resolve; });
  const instance = new WebAssembly.Instance(front, { ...go.importObject, workers: { ready: () => ready() } });
  go.run(instance, { env, ctx, binding });
  await started;
  return binding.handleRequest;
}

export default {
  async fetch(request, env, ctx) {
    try {
      const handle = await runFront(env, ctx);
      return await handle(request);
    } catch (err) {
      // The front itself failed (its CPU or memory limit, a Go panic): answer
      // in the API's error shape, never the platform's page.
      console.error("front failed:", err?.message ?? String(err));
      return Response.json({ error: { code: "unavailable", message: "the Worker could not answer this request; try again" } }, { status: 503 });
    }
  },
};
