// openCore starts a session object's Code Mode core: hostjs in inline mode,
// the same createCodeMode API a page uses, over the Go core (codemode.wasm)
// and QuickJS (quickjs.wasm) as imported modules, run by workerd's own V8.
//
// Its tools: the JavaScript tools of tools.mjs (client tools, executed here),
// and the Worker's Go tools (the example toolset, remote MCP servers) relayed
// to the Go front's /v1/catalog and /v1/tools/call. The relay goes through
// ctx.exports (a loopback to this Worker's own fetch handler, no network and no
// same-zone fetch), carrying the caller's own Authorization, so the front
// authenticates and scopes a relayed call exactly like a direct one.
import { createCodeMode } from "./codemode.js";
import codemodeWasm from "./codemode.wasm";
import quickjsWasm from "./quickjs.wasm";
import { app, clientTools } from "./tools.mjs";

/** The origin the relay URLs use; ctx.exports never resolves it. */
export const RELAY_ORIGIN = "https://codemode-front.internal";

export async function openCore({ env, exports, config, auth, interruptsPerSecond, pollsPerSecond }) {
  const relayFetch = (input, init = {}) => {
    const req = new Request(input, init);
    const headers = new Headers(req.headers);
    if (auth.value) headers.set("authorization", auth.value);
    return exports.default.fetch(new Request(req, { headers }));
  };
  return createCodeMode({
    config,
    app,
    clientTools: clientTools.map((t) => ({
      ...t,
      execute: (input, ctx) => t.execute(input, { ...ctx, env }),
    })),
    serverTools: { url: RELAY_ORIGIN, fetch: relayFetch },
    engine: "host",
    thread: "inline",
    modules: { codemode: codemodeWasm, quickjs: quickjsWasm },
    interruptsPerSecond,
    pollsPerSecond,
  });
}
