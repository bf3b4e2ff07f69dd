// The trajectory: every exec/wait call of the session and, nested under it, the
// tool calls its program made (tool id, input, duration, outcome); expandable
// and downloadable as JSON.
import { h, clear, fmtMs, download } from "./dom.js";
import { jsonTree } from "./jsontree.js";

export function renderTrajectory(el, session) {
  const list = session.trajectory.map((r) => ({ ...r, nested: session.callsOf(r) }));
  const head = h("div.panel-head", null,
    h("h2", null, "Trajectory"),
    h("span.muted.small", null, `${list.length} call${list.length === 1 ? "" : "s"}`),
    h("span.spacer"),
    h("button.btn.small", { type: "button", disabled: list.length === 0, onclick: () => download(`trajectory-${stamp()}.json`, JSON.stringify(exportable(list), null, 2)) }, "Download JSON"));
  if (!list.length) return clear(el, head, h("p.muted", null, "Each exec and wait appears here with the tool calls its program made."));
  const items = list.slice().reverse().map((r) => h("li", null, callNode(r)));
  clear(el, head, h("ol.traj", { "aria-label": "exec and wait calls, newest first" }, items));
}

function callNode(r) {
  const det = h("details.traj-call", { "data-testid": `traj-${r.kind}` },
    h("summary", null,
      h("code.kind", null, r.kind),
      r.status ? h(`span.status.small.status-${r.status}`, null, r.status) : h("span.status.small.status-running", null, "running"),
      r.code ? h("code.errcode.small", null, r.code) : null,
      h("span.muted.small", null, fmtMs(r.durationMs)),
      h("span.muted.small", null, `${r.nested.length} nested`),
      r.runId ? h("code.muted.small", null, r.runId.slice(0, 10)) : null),
    h("div.traj-body", null,
      r.kind === "exec" ? h("p.muted.small", null, `${r.language ?? "javascript"}, ${r.codeBytes} bytes of code`) : null,
      r.error ? h("pre.errmsg.small", null, r.error) : null,
      r.nested.length
        ? h("ol.nested", { "aria-label": "nested tool calls" }, r.nested.map(nestedNode))
        : h("p.muted.small", null, "no nested tool calls")));
  det.open = r.nested.length > 0 && r.nested.length <= 8;
  return det;
}

function nestedNode(c) {
  return h("li.nested-call", { "data-testid": "nested-call" },
    h("details", null,
      h("summary", null,
        h("code", null, c.toolId),
        h(`span.outcome.outcome-${c.outcome ?? "pending"}`, null, c.outcome ?? "pending"),
        h("span.muted.small", null, fmtMs(c.durationMs)),
        c.via ? h("span.muted.small", null, c.via) : null),
      h("div.nested-body", null,
        c.input !== undefined ? jsonTree(c.input, { label: "tool input", openDepth: 1 })
          : h("p.muted.small", null, `input: ${c.inputBytes ?? 0} bytes`),
        c.error ? h("pre.errmsg.small", null, c.error) : null)));
}

function exportable(list) {
  return {
    exportedAt: new Date().toISOString(),
    calls: list.map(({ t0, nested, ...r }) => ({ ...r, nested: nested.map(({ t0: _t, done: _d, ...c }) => c) })),
  };
}

const stamp = () => new Date().toISOString().replace(/[:.]/g, "-").slice(0, 19);

/** renderRuns lists the session's suspended runs with age and TTL left. */
export function renderRuns(el, runs, { onResume, onAbort, now = Date.now() }) {
  const list = [...runs.values()];
  // The panel ticks every second (age, TTL left). Rebuilding the rows each
  // time would recreate the buttons under a person's pointer and take the
  // keyboard focus off Resume or Abort, so while the rows stay the same runs
  // in the same state only the two times change, in place.
  const key = JSON.stringify(list.map((r) => [r.runId, r.reason, r.busy, r.lost, r.pending.map((p) => p.toolId ?? p.kind)]));
  if (list.length && el.dataset.runs === key) {
    for (const r of list) {
      const row = el.querySelector(`tr[data-run="${CSS.escape(r.runId)}"]`);
      if (!row) break;
      const [age, left] = times(r, now);
      row.querySelector("td.age").textContent = age;
      row.querySelector("td.ttl").textContent = left;
    }
    return el;
  }
  el.dataset.runs = key;
  const head = h("div.panel-head", null, h("h2", null, "Suspended runs"), h("span.muted.small", null, `${list.length}`));
  if (!list.length) return clear(el, head, h("p.muted", null, "No suspended runs. A waiting result (a slow tool, yield_control, a prompt you have not answered) shows up here."));
  const rows = list.map((r) => {
    const [age, left] = times(r, now);
    return h("tr", { "data-testid": "run-row", "data-run": r.runId },
      h("td", null, h("code", null, r.runId.slice(0, 12)), r.lost ? h("span.pill.small.warn", null, "lost") : null),
      h("td", null, r.reason, h("div.muted.small", null, r.pending.map((p) => p.toolId ?? p.kind).join(", "))),
      h("td.age", null, age),
      h("td.ttl", null, left),
      h("td.actions", null, h("div", null,
        h("button.btn.small.primary", { type: "button", disabled: r.busy || r.lost, onclick: () => onResume(r.runId), "aria-label": `Resume run ${r.runId.slice(0, 12)}` }, r.busy ? "Resuming…" : "Resume"),
        h("button.btn.small", { type: "button", onclick: () => onAbort(r.runId), "aria-label": `Abort run ${r.runId.slice(0, 12)}` }, "Abort"))));
  });
  clear(el, head, h("table.runs", null,
    h("thead", null, h("tr", null, ["run", "reason", "age", "TTL left", ""].map((t) => h("th", { scope: "col" }, t)))),
    h("tbody", null, rows)));
}

/** times is a suspended run's age and TTL left, as the Runs table shows them. */
function times(r, now) {
  const age = now - r.since, left = r.ttlMs - age;
  return [fmtMs(age), left > 0 ? fmtMs(left) : "expired"];
}
