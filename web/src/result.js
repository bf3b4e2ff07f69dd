// The result panel: one CodeModeResult as a person reads it: status, value as
// a JSON tree, text/json output in call order, error code and message, pending
// calls of a waiting run with Resume, and the telemetry.
import { h, clear, fmtMs } from "./dom.js";
import { jsonTree } from "./jsontree.js";

const STATUS_LABEL = { completed: "completed", waiting: "waiting", failed: "failed", running: "running" };

/** renderResult fills el with res; onResume(runId) backs the Resume button. */
export function renderResult(el, res, { durationMs, onResume, onAbort, autoResume, clientPending }) {
  const parts = [];
  parts.push(h("div.res-head", null,
    h(`span.status.status-${res.status}`, { "data-testid": "result-status" }, STATUS_LABEL[res.status] ?? res.status),
    res.code ? h("code.errcode", { "data-testid": "result-code" }, res.code) : null,
    durationMs !== undefined ? h("span.muted.small", null, fmtMs(durationMs)) : null,
    res.restartSafe ? h("span.pill.small", null, "restart-safe") : null));

  if (res.status === "failed") {
    parts.push(h("pre.errmsg", { "data-testid": "result-error", role: "alert" }, res.error ?? ""));
  }
  if (res.status === "waiting") {
    const pend = res.pendingToolCalls ?? [];
    parts.push(h("div.waiting", { "data-testid": "waiting" },
      h("p", null, res.reason === "yield"
        ? "The program yielded control (yield_control). Resume continues it."
        : `The run is suspended: ${pend.length} nested call${pend.length === 1 ? "" : "s"} did not settle before the deadline.`),
      pend.length ? h("ul.pending", { "aria-label": "Pending tool calls" }, pend.map((p) =>
        h("li", null, h("code", null, p.toolId ?? p.kind), " ", h("span.muted.small", null, `${p.kind} · ${p.id}`),
          clientPending?.(p.id) ? h("span.pill.small.warn", null, "waiting for you") : null))) : null,
      h("div.row", null,
        h("button.btn.primary", { type: "button", onclick: () => onResume(res.runId), "data-testid": "resume" }, "Resume"),
        h("button.btn", { type: "button", onclick: () => onAbort(res.runId) }, "Abort run"),
        h("span.muted.small", null, "run ", h("code", null, res.runId)),
        autoResume ? h("span.muted.small", null, "· auto-resume is on") : null)));
  }
  if (res.status === "completed") {
    parts.push(h("div.res-block", null, h("h3", null, "Value"),
      h("div", { "data-testid": "result-value" }, jsonTree(res.value, { label: "returned value", openDepth: 4 }))));
  }
  const out = res.output ?? [];
  if (out.length) {
    parts.push(h("div.res-block", null, h("h3", null, `Output (${out.length})`),
      h("ol.output", { "data-testid": "result-output" }, out.map((o) =>
        o.type === "text"
          ? h("li.out-text", null, h("pre", null, o.text))
          : h("li.out-json", null, jsonTree(o.value, { label: "json output", openDepth: 1 }))))));
  }
  if (res.telemetry) parts.push(telemetry(res.telemetry));
  clear(el, parts);
}

function telemetry(t) {
  const by = t.catalogBySource ?? {};
  return h("details.res-block.telemetry", null,
    h("summary", null, "Telemetry ",
      h("span.muted.small", null, `catalog ${t.catalogSize} · ${t.searchCount} search · ${t.describeCount} describe · ${t.callCount} call`)),
    h("dl.kv", { "data-testid": "telemetry" },
      h("dt", null, "catalog"), h("dd", null, `${t.catalogSize} (openclaw ${by.openclaw ?? 0}, mcp ${by.mcp ?? 0}, client ${by.client ?? 0})`),
      h("dt", null, "searches"), h("dd", null, String(t.searchCount)),
      h("dt", null, "describes"), h("dd", null, String(t.describeCount)),
      h("dt", null, "calls"), h("dd", null, String(t.callCount)),
      h("dt", null, "model sees"), h("dd", null, (t.modelVisibleTools ?? []).join(", "))));
}

/** renderRunning shows a run in progress. */
export function renderRunning(el, what) {
  clear(el, h("div.res-head", null, h("span.status.status-running", { "data-testid": "result-status" }, "running"),
    h("span.muted.small", null, what)));
}
