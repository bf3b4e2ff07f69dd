// The dedicated Web Worker that runs the Go core for a page (codemode.js starts
// it). A busy cell blocks only this thread; the page stops it by terminating the
// worker. Client tools run in the page; server tools are fetched from here.
import { startCore, fetchHooks } from "./core.js";

let api = null;
const tools = new Map(); // callId -> {resolve, reject}
const post = (m) => self.postMessage(m);
const errorOf = (e) => ({ name: (e && e.name) || "Error", message: e && e.message !== undefined ? String(e.message) : String(e) });

const hooks = {
  ...fetchHooks(),
  callClientTool(name, input, runId, callId) {
    return new Promise((resolve, reject) => {
      tools.set(callId, { resolve, reject });
      post({ type: "callTool", name, input, runId, callId });
    });
  },
  abortClientTool(callId) {
    post({ type: "abortTool", callId });
  },
};

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
  try {
    let value;
    if (m.type === "init") {
      const started = await startCore({ assets: m.assets, options: m.options, hooks });
      api = started.api;
      value = started.info;
    } else {
      // The page's watchdog counts from here: a fresh worker's start-up and a
      // queue of earlier messages never eat into the cell's timeoutMs.
      if (m.method === "exec" || m.method === "wait") post({ type: "started", id: m.id });
      value = await api[m.method](...m.args);
    }
    post({ type: "reply", id: m.id, ok: true, value });
  } catch (e) {
    post({ type: "reply", id: m.id, ok: false, error: errorOf(e) });
  }
};
