// The config panel: tools.codeMode limits as JSON5, checked by the core's own
// parser (config.Parse through the shim) as you type; a valid edit applies to
// the next run, an invalid one shows the core's message (with line and column)
// and the previous valid config stays in force.
import { h, clear } from "./dom.js";
import { createEditor } from "./editor.js";

const KEY = "codemode.ide.config";
const VALUE_KEY = "codemode.ide.configValue"; // the core's parse of the last valid text

/** savedConfig is the last config the core accepted, or undefined (the defaults). */
export function savedConfig() {
  try {
    const v = JSON.parse(localStorage.getItem(VALUE_KEY) ?? "null");
    return v && typeof v === "object" && !Array.isArray(v) ? v : undefined;
  } catch {
    return undefined;
  }
}

export const DEFAULT_CONFIG = `// tools.codeMode for the next run (JSON5; enabled is implied).
// Bounds are the spec's: timeoutMs 100-60000, maxOutputBytes 1024-10485760, ...
{
  timeoutMs: 10000,
  memoryLimitBytes: 67108864,
  maxOutputBytes: 65536,
  maxSnapshotBytes: 10485760,
  maxPendingToolCalls: 16,
  snapshotTtlSeconds: 900,
  languages: ["javascript", "typescript"],
}
`;

/**
 * mountConfig renders the config editor into el. check(text) returns the
 * parsed config or throws the core's error; onValid(config, text) applies it.
 */
export function mountConfig(el, { check, onValid }) {
  let saved = DEFAULT_CONFIG;
  try { saved = localStorage.getItem(KEY) ?? DEFAULT_CONFIG; } catch {}
  const status = h("div.config-status", { id: "config-status", role: "status", "aria-live": "polite", "data-testid": "config-status" });
  const host = h("div.config-editor");
  const reset = h("button.btn.small", { type: "button" }, "Reset to defaults");
  clear(el,
    h("div.panel-head", null, h("h2", null, "Config"), h("span.spacer"), reset),
    h("p.muted.small", null, "Limits of ", h("code", null, "tools.codeMode"), ", checked by the core as you type; a valid config applies to the next run."),
    host, status);
  let timer, version = 0, checking = Promise.resolve(), dirty = null;
  // pending marks the status at once on an edit, so it never says "Valid" of
  // text the core has not checked yet (the check itself is debounced).
  const pending = () => {
    ++version;
    status.className = "config-status";
    status.textContent = "checking…";
    status.removeAttribute("data-invalid");
  };
  const validate = (text) => {
    clearTimeout(timer);
    dirty = null;
    return (checking = runCheck(text));
  };
  const runCheck = async (text) => {
    pending();
    const v = version;
    try {
      const cfg = await check(text);
      if (v !== version) return;
      try { localStorage.setItem(KEY, text); localStorage.setItem(VALUE_KEY, JSON.stringify(cfg)); } catch {}
      status.className = "config-status ok";
      status.textContent = "Valid: applies to the next run.";
      onValid(cfg, text);
    } catch (err) {
      if (v !== version) return;
      status.className = "config-status bad";
      status.textContent = err?.message ?? String(err);
      status.setAttribute("data-invalid", "true");
      return;
    }
    status.removeAttribute("data-invalid");
  };
  const ed = createEditor(host, {
    doc: saved,
    language: "javascript",
    label: "Config (JSON5)",
    wrap: true,
    onRun: () => validate(ed.text),
    onChange: (text) => { pending(); dirty = text; clearTimeout(timer); timer = setTimeout(() => validate(text), 350); },
  });
  reset.addEventListener("click", () => { ed.text = DEFAULT_CONFIG; });
  return {
    validate: () => validate(ed.text),
    editor: ed,
    // settled checks an edit still waiting for its debounce now, and resolves
    // once the last check is done: a run started right after typing uses
    // what was typed (or, if invalid, the previous valid config).
    settled: () => (dirty !== null ? validate(dirty) : checking),
  };
}
