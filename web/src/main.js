// The web IDE: wires the editor, the result panel and the inspector tabs to one
// Session (hostjs underneath). Everything a person does goes through the
// page's own controls; nothing here needs a framework.
import { $, h, clear, fmtMs } from "./dom.js";
import { createEditor, setDark } from "./editor.js";
import { examples } from "./examples.js";
import { createClientTools } from "./clienttools.js";
import { Session } from "./session.js";
import { renderResult, renderRunning } from "./result.js";
import { renderTrajectory, renderRuns } from "./trajectory.js";
import { renderCatalog, renderSurface } from "./catalog.js";
import { mountConfig, savedConfig } from "./config.js";
import { loadHistory, pushHistory, updateHistory, clearHistory } from "./history.js";
import { shareFragment, readFragment, MAX_CODE_BYTES } from "./share.js";
import { startTyped } from "./typed.js";

const LS = { theme: "codemode.ide.theme", server: "codemode.ide.server", cell: "codemode.ide.cell", auto: "codemode.ide.autoResume" };
const store = {
  get: (k) => { try { return localStorage.getItem(k); } catch { return null; } },
  set: (k, v) => { try { localStorage.setItem(k, v); } catch {} },
};

// ---- toasts -----------------------------------------------------------------
function toast(message, level = "info") {
  const el = h(`div.toast.toast-${level}`, { role: level === "error" ? "alert" : "status", "data-testid": "toast" },
    h("span", null, message),
    h("button.btn.icon.small", { type: "button", "aria-label": "Dismiss notification", onclick: () => el.remove() }, "×"));
  $("toasts").append(el);
  setTimeout(() => el.remove(), 6000);
}

// ---- theme ------------------------------------------------------------------
function applyTheme(theme) {
  document.documentElement.dataset.theme = theme;
  setDark(theme === "dark");
  const btn = $("theme-toggle");
  const other = theme === "dark" ? "light" : "dark";
  btn.setAttribute("aria-label", `Switch to ${other} theme`);
  btn.textContent = theme === "dark" ? "☀" : "☾";
  store.set(LS.theme, theme);
}

// ---- tabs (ARIA tabs: arrows move, Enter/Space or focus selects) ------------
const tabs = [...document.querySelectorAll('[role="tab"]')];
const onShow = {};
function selectTab(tab, focus = true) {
  for (const t of tabs) {
    const on = t === tab;
    t.setAttribute("aria-selected", String(on));
    t.tabIndex = on ? 0 : -1;
    document.getElementById(t.getAttribute("aria-controls")).hidden = !on;
  }
  if (focus) tab.focus();
  onShow[tab.id]?.();
}
for (const t of tabs) {
  t.addEventListener("click", () => selectTab(t));
  t.addEventListener("keydown", (e) => {
    const i = tabs.indexOf(t);
    const next = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: tabs.length - 1 }[e.key];
    if (next === undefined) return;
    e.preventDefault();
    selectTab(tabs[(next + tabs.length) % tabs.length]);
  });
}

// ---- session ----------------------------------------------------------------
const promptsEl = $("prompts");
let session;
const client = createClientTools({ promptsEl, toast, onCall: (rec) => session?.nested(rec) });
client.onSettle(() => { refreshTrajectory(); maybeAutoResume(); session.refreshTranscript(session.cm); });

const params = new URLSearchParams(location.search);
session = new Session({ clientTools: client.tools, serverUrl: "", config: savedConfig() });

session.addEventListener("state", (e) => {
  const pill = $("engine-status");
  const d = e.detail;
  pill.className = "pill " + ({ loading: "muted", ready: "ok", failed: "bad" }[d.state] ?? "");
  pill.textContent = d.state === "loading" ? "core: starting…" : d.state === "ready" ? `core: ready (${fmtMs(d.ms)})` : `core: failed`;
  if (d.state === "failed") { pill.title = d.error; toast(`The core could not start: ${d.error}`, "error"); }
  if (d.state === "ready") { coreReady = true; typedHelp(); }
});

// ---- typed help ---------------------------------------------------------------
// The TypeScript language service (ts.worker.js, its own worker) starts once the
// core is ready and the person is in the editor or has a first result: on a
// 2-core machine its start-up would otherwise compete with the first run.
let typed = null, coreReady = false, wantTypes = false;
function typedHelp(want = false) {
  wantTypes ||= want;
  if (typed || !coreReady || !wantTypes) return;
  const pill = $("types-status");
  pill.textContent = "types: loading…";
  typed = startTyped({ editor, session, language, onStatus: (t) => { pill.textContent = t; } }).catch((err) => {
    pill.textContent = "types: off";
    pill.title = `The TypeScript language service could not start: ${err?.message ?? err}`;
    return null;
  });
}
session.addEventListener("runs", () => refreshRuns());
session.addEventListener("trajectory", () => refreshTrajectory());
session.addEventListener("restart", (e) => {
  client.cancelAll();
  const why = e.detail.stopped ? "The run was stopped and a new core started" : "The core was restarted after a run overran its deadline";
  toast(`${why}${e.detail.lost ? `; ${e.detail.lost} suspended run(s) were lost` : ""}.`, "warning");
});

// ---- server URL ---------------------------------------------------------------
async function probe(url) {
  try {
    const r = await fetch(new URL("healthz", url.endsWith("/") ? url : url + "/"), { cache: "no-store" });
    if (!r.ok) return null;
    return await r.json();
  } catch {
    return null;
  }
}
async function connect(url, { quiet = false } = {}) {
  const pill = $("server-status");
  url = url.trim().replace(/\/+$/, "");
  $("server-url").value = url;
  if (!url) {
    session.configure({ serverUrl: "" });
    pill.className = "pill muted";
    pill.textContent = "no server (client tools only)";
    store.set(LS.server, "");
    return;
  }
  pill.className = "pill muted";
  pill.textContent = "checking…";
  const hz = await probe(url);
  if (!hz || !hz.ok) {
    pill.className = "pill bad";
    pill.textContent = "unreachable";
    if (!quiet) toast(`No Code Mode server answers at ${url}/healthz`, "error");
  } else {
    pill.className = "pill ok";
    pill.textContent = `connected${hz.version ? " · " + hz.version : ""}`;
  }
  store.set(LS.server, url);
  session.configure({ serverUrl: url });
  warm();
}
$("server-apply").addEventListener("click", () => connect($("server-url").value));
$("server-url").addEventListener("keydown", (e) => { if (e.key === "Enter") connect($("server-url").value); });

// ---- editor -------------------------------------------------------------------
let language = "javascript";
// A shared link (#cell=...) wins over the cell this browser last had.
const shared = readFragment(location.hash);
const initial = (shared && !shared.error ? shared : null) ?? (() => {
  try { return JSON.parse(store.get(LS.cell) ?? "null"); } catch { return null; }
})() ?? { code: examples[0].code, language: examples[0].language };
const editor = createEditor($("editor-host"), {
  doc: initial.code,
  language: initial.language,
  label: "Cell code",
  onRun: () => run(),
  onChange: (code) => { store.set(LS.cell, JSON.stringify({ code, language })); dropFragment(); },
});
$("editor-host").addEventListener("focusin", () => typedHelp(true));
function setLanguage(l) {
  language = l;
  for (const r of document.querySelectorAll('input[name="language"]')) r.checked = r.value === l;
  editor.setLanguage(l);
  typed?.then((t) => t?.setLanguage(l));
  store.set(LS.cell, JSON.stringify({ code: editor.text, language }));
}
for (const r of document.querySelectorAll('input[name="language"]')) r.addEventListener("change", () => setLanguage(r.value));
setLanguage(initial.language === "typescript" ? "typescript" : "javascript");

// ---- share ----------------------------------------------------------------------
// Share puts the cell into the URL fragment (never sent to a server) and copies
// the link; an edit afterwards drops the fragment so a reload keeps the edit.
function dropFragment() {
  if (location.hash.startsWith("#cell=")) history.replaceState(null, "", location.pathname + location.search);
}
$("share").addEventListener("click", async () => {
  const code = editor.text;
  if (new TextEncoder().encode(code).length > MAX_CODE_BYTES) return toast(`The cell is over ${MAX_CODE_BYTES / 1024} KiB: too long to share as a link.`, "warning");
  history.replaceState(null, "", location.pathname + location.search + shareFragment({ code, language }));
  let copied = false;
  try { await navigator.clipboard.writeText(location.href); copied = true; } catch {}
  toast(copied ? "Link copied: it carries the cell in its #fragment, which is never sent to a server." :
    "The link in the address bar now carries the cell (in its #fragment, never sent to a server).");
});
if (shared?.error) toast(shared.error, "warning");

function load(cell) {
  editor.text = cell.code;
  setLanguage(cell.language ?? "javascript");
  editor.focus();
}

clear($("examples"), examples.map((ex) => h("li", null,
  h("button.item", { type: "button", onclick: () => load(ex), "data-example": ex.id },
    h("span.item-title", null, ex.title), h("span.item-note", null, ex.note)))));

function renderHistory(list = loadHistory()) {
  clear($("history"), list.length ? list.map((e) => h("li", null,
    h("button.item", { type: "button", onclick: () => load(e), "data-testid": "history-item" },
      h("span.item-title", null, firstLine(e.code)),
      h("span.item-note", null, `${e.language === "typescript" ? "TS" : "JS"} · ${e.status ?? "…"} · ${new Date(e.at).toLocaleTimeString()}`)))) :
    h("li.muted.small", null, "Cells you run appear here."));
}
const firstLine = (code) => code.split("\n").find((l) => l.trim() && !l.trim().startsWith("//"))?.trim().slice(0, 60) ?? "(empty)";
$("history-clear").addEventListener("click", () => renderHistory(clearHistory()));
renderHistory();

// ---- running ------------------------------------------------------------------
const autoEl = $("auto-resume");
autoEl.checked = store.get(LS.auto) !== "false";
autoEl.addEventListener("change", () => { store.set(LS.auto, String(autoEl.checked)); maybeAutoResume(); });

let fg = null; // the foreground run: {runId, res, t0, busy}
function setBusy(busy, label) {
  $("run").disabled = busy;
  $("run-status").className = "pill " + (busy ? "run" : fg?.res ? statusClass(fg.res.status) : "");
  $("run-status").textContent = busy ? label : fg?.res ? fg.res.status : "idle";
  $("abort").disabled = busy || !(fg?.runId);
  $("stop").disabled = !busy;
}
const statusClass = (s) => ({ completed: "ok", waiting: "warn", failed: "bad" }[s] ?? "");

async function run() {
  if (fg?.busy) return;
  const code = editor.text;
  if (!code.trim()) return toast("The cell is empty.", "warning");
  renderHistory(pushHistory({ code, language }));
  fg = { t0: performance.now(), busy: true };
  renderRunning($("result"), `exec (${language})`);
  $("result-meta").textContent = "";
  setBusy(true, "running…");
  session.reserve(); // Stop works from here, while the config is still being checked
  await configPanel.settled();
  const res = await session.exec({ code, language });
  show(res);
}

async function resume(runId) {
  if (!fg || fg.runId !== runId) fg = { runId, t0: performance.now() };
  if (fg.busy && fg.waiting) return;
  fg.busy = true;
  fg.waiting = true;
  fg.t0 = performance.now();
  renderRunning($("result"), `wait ${runId.slice(0, 12)}`);
  setBusy(true, "resuming…");
  const res = await session.wait(runId);
  fg.waiting = false;
  show(res);
}

function show(res) {
  fg.res = res;
  fg.busy = false;
  fg.runId = res.status === "waiting" ? res.runId : null;
  const ms = performance.now() - fg.t0;
  renderResult($("result"), res, {
    durationMs: ms,
    onResume: resume,
    onAbort: abortRun,
    autoResume: autoEl.checked,
    clientPending: client.pending,
  });
  $("result-meta").textContent = new Date().toLocaleTimeString();
  setBusy(false);
  typedHelp(true);
  if (res.status !== "waiting") renderHistory(updateHistory(res.status));
  maybeAutoResume();
}

// maybeAutoResume continues a waiting foreground run without a click: at once
// when something outside the page is pending (a server tool, a yield), and
// once the person answers when only the page's own prompts are pending.
function maybeAutoResume() {
  if (!autoEl.checked || !fg || fg.busy || !fg.runId || fg.res?.status !== "waiting") return;
  const pending = fg.res.pendingToolCalls ?? [];
  const mine = pending.filter((p) => client.pending(p.id));
  if (mine.length && mine.length === pending.length) return; // onSettle calls again
  resume(fg.runId);
}

function abortRun(runId) {
  session.abort(runId);
  if (fg?.runId === runId) {
    fg.runId = null;
    clear($("result"), h("div.res-head", null, h("span.status.status-failed", { "data-testid": "result-status" }, "aborted")),
      h("p.muted", null, "The run was aborted; its snapshot is gone."));
    setBusy(false);
  }
}
$("run").addEventListener("click", () => run());
// The skip link lands in the editor itself (its host div is not focusable).
document.querySelector(".skip").addEventListener("click", (e) => { e.preventDefault(); editor.focus(); });
$("abort").addEventListener("click", () => fg?.runId && abortRun(fg.runId));
// Stop ends the cell in flight: hostjs terminates the core's worker and a new
// core takes its place; the run's own result says it was stopped.
$("stop").addEventListener("click", async () => {
  if (!fg?.busy) return;
  $("stop").disabled = true;
  if (!(await session.stop())) toast("Nothing was running to stop.", "info");
});
window.addEventListener("keydown", (e) => {
  if (e.key === "Enter" && (e.ctrlKey || e.metaKey) && !e.defaultPrevented && !e.target.closest?.(".cm-editor")) { e.preventDefault(); run(); }
});

// ---- inspector panels -----------------------------------------------------------
function refreshTrajectory() { renderTrajectory($("panel-trajectory"), session); }
function refreshRuns() {
  $("runs-count").textContent = String(session.runs.size);
  if (!$("panel-runs").hidden) renderRuns($("panel-runs"), session.runs, { onResume: resume, onAbort: abortRun });
}
setInterval(() => { if (!$("panel-runs").hidden && session.runs.size) refreshRuns(); }, 1000);
onShow["tab-runs"] = refreshRuns;
onShow["tab-catalog"] = () => renderCatalog($("panel-catalog"), session);
onShow["tab-surface"] = () => renderSurface($("panel-surface"), session);
refreshTrajectory();

const configPanel = mountConfig($("panel-config"), {
  check: async (text) => (await session.instance()).checkConfig(text),
  onValid: (cfg) => session.configure({ config: cfg }),
});

// ---- start ------------------------------------------------------------------------
let warmTimer;
function warm() { clearTimeout(warmTimer); warmTimer = setTimeout(() => session.instance().catch(() => {}), 50); }

applyTheme(store.get(LS.theme) ?? (matchMedia?.("(prefers-color-scheme: light)").matches ? "light" : "dark"));
$("theme-toggle").addEventListener("click", () => applyTheme(document.documentElement.dataset.theme === "dark" ? "light" : "dark"));

(async () => {
  // Same origin first (codemode serve puts the IDE at /), then ?server=, then the saved URL.
  const fromQuery = params.get("server");
  const saved = store.get(LS.server);
  let url = fromQuery ?? null;
  if (url === null && location.protocol.startsWith("http") && (await probe(location.origin))?.ok) url = location.origin;
  if (url === null) url = saved ?? "";
  await connect(url, { quiet: true });
  warm();
})();
