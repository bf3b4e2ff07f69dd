// Tools a Workers developer writes in JavaScript. Every entry of clientTools
// joins the catalog of each session's core as `client:worker:<name>` (untrusted
// metadata: the guest finds it with tools.search and reads its schema with
// tools.describe). execute runs inside the session's Durable Object, so it may
// use fetch, the object's env bindings (KV, D1, R2, service bindings ...) and
// anything else a Worker can do; what it returns (any JSON value) is the tool's
// result, and what it throws becomes a catchable error in the cell.
//
// To add a tool: append an object here and run ./build.sh worker. The
// object's shape is hostjs's ClientTool (hostjs/codemode.d.ts):
//   { name, label?, description, parameters (JSON Schema object), readOnly?,
//     execute(input, { signal, runId, callId, env }) => Promise<unknown> }
// `signal` aborts when the run is aborted; `env` is the Durable Object's env.

/** The app name that owns these tools: their ids are client:worker:<name>. */
export const app = "worker";

/** @type {Array<import("../../../hostjs/codemode.js").ClientTool>} */
export const clientTools = [
  {
    name: "worker_time",
    label: "Worker clock",
    description: "The Durable Object's current time as an ISO 8601 string (it moves only between I/O in a deployed Worker).",
    parameters: { type: "object", properties: {}, additionalProperties: false },
    readOnly: true,
    async execute() {
      return { now: new Date().toISOString() };
    },
  },
  {
    name: "worker_wait",
    label: "Wait in the Worker",
    description: "Resolve after `ms` milliseconds of wall time (a slow JavaScript tool: long waits make exec answer waiting).",
    parameters: {
      type: "object",
      properties: { ms: { type: "integer", minimum: 0, maximum: 60000 } },
      required: ["ms"],
      additionalProperties: false,
    },
    readOnly: true,
    async execute({ ms }, { signal }) {
      await new Promise((resolve, reject) => {
        const t = setTimeout(resolve, ms);
        signal?.addEventListener("abort", () => { clearTimeout(t); reject(new Error("worker_wait was aborted")); });
      });
      return { waitedMs: ms };
    },
  },
];
