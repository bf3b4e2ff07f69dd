// Typed help in the cell editor: completion, hover and TypeScript diagnostics
// from the same declarations a guest program reads through API
// (tools/index.d.ts for tools.*, mcp/*.d.ts for MCP.<server>.*), plus the
// cell's globals and plugin namespaces. The language service runs in its own
// worker (ts.worker.js, a separate bundle with TypeScript) that the page starts
// only after its core is ready: the first result never waits for it.
//
// The editor side is the four small bindings of @valtown/codemirror-ts's
// *Worker extensions, written against the CodeMirror already in ide.js:
// importing the package's index here would pull TypeScript itself into ide.js.
import { autocompletion } from "@codemirror/autocomplete";
import { linter, forceLinting } from "@codemirror/lint";
import { EditorView, hoverTooltip } from "@codemirror/view";
import * as Comlink from "comlink";
import { h } from "./dom.js";

/** The guest's globals besides tools/ALL_TOOLS/MCP (declared by the API files). */
const GLOBALS = `// globals.d.ts: what a cell sees besides tools.*, ALL_TOOLS and MCP.*.
/** Appends text to the run's output. */
declare function text(value: unknown): void;
/** Appends a JSON value to the run's output. */
declare function json(value: unknown): void;
/** Pauses the program: the run answers waiting (reason "yield") until wait resumes it. */
declare function yield_control(reason?: string): Promise<void>;
declare const console: { log(...args: unknown[]): void; info(...args: unknown[]): void; warn(...args: unknown[]): void; error(...args: unknown[]): void; debug(...args: unknown[]): void };
declare function setTimeout(fn: (...args: any[]) => void, ms?: number, ...args: any[]): number;
declare function clearTimeout(id?: number): void;
declare function queueMicrotask(fn: () => void): void;
declare function btoa(data: string): string;
declare function atob(data: string): string;
declare const performance: { now(): number };
/** The read-only declaration files of this run: API.list("mcp"), API.read("tools/index.d.ts"). */
declare const API: {
  list(prefix?: string): Promise<Array<{ path: string; size: number; description?: string }>>;
  read(path: string): Promise<string>;
};
/** The plugin namespaces visible to this run, by global name. */
declare const namespaces: Record<string, unknown>;
`;

// The cell that reads the declarations: API files and the namespaces' members.
const READ = `const files = {};
for (const f of await API.list()) files[f.path] = await API.read(f.path);
const ns = {};
for (const [name, o] of Object.entries(namespaces)) {
  const g = globalThis[name];
  ns[name] = g && typeof g === "object" ? Object.fromEntries(Object.keys(g).map((k) => [k, typeof g[k]])) : {};
}
return { files, ns };`;

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** namespaceDecls declares each plugin namespace with its members (their types are not published). */
export function namespaceDecls(ns) {
  let out = "// namespaces.d.ts: the plugin namespaces of this run (members only; see their prompt in the Catalog tab).\n";
  for (const [name, members] of Object.entries(ns)) {
    if (!IDENT.test(name)) continue;
    const fields = Object.entries(members).filter(([k]) => IDENT.test(k))
      .map(([k, t]) => t === "function" ? `  ${k}(...args: any[]): Promise<any>;` : `  ${k}: any;`);
    out += `declare const ${name}: {\n${fields.join("\n")}\n};\n`;
  }
  return out;
}

const pathOf = (language) => (language === "typescript" ? "/cell.ts" : "/cell.js");

/** renderHover shows the signature (as TypeScript prints it), the description and the tags. */
function renderHover(info) {
  const q = info.quickInfo;
  const sig = (q?.displayParts ?? []).map((p) => p.text).join("");
  const doc = (q?.documentation ?? []).map((p) => p.text).join("");
  const tags = (q?.tags ?? []).map((t) => `@${t.name} ${(t.text ?? []).map((p) => p.text).join("")}`);
  return { dom: h("div.cm-ts-hover", { "data-testid": "hover" },
    h("pre.cm-ts-sig", null, sig),
    doc ? h("p.cm-ts-doc", null, doc) : null,
    tags.length ? h("p.cm-ts-tags", null, tags.join("  ")) : null) };
}

/**
 * startTyped starts the language service worker and turns typed help on in
 * the cell editor: editor.typed is its compartment, session gives the
 * declarations (re-read whenever a new core starts). Returns {setLanguage}.
 * A worker that cannot start leaves the editor as it was and says why.
 */
export async function startTyped({ editor, session, language, onStatus }) {
  const raw = new Worker(new URL("ts.worker.js", location.href), { type: "module" });
  const failed = new Promise((_, reject) => raw.addEventListener("error", (e) => reject(new Error(e.message || "ts.worker.js failed to load")), { once: true }));
  const worker = Comlink.wrap(raw);
  await Promise.race([worker.initialize(), failed]);
  let path = pathOf(language);
  const refresh = async () => {
    const res = await session.exec({ code: READ, language: "javascript" }, { internal: true });
    if (res.status !== "completed") return onStatus?.(`types: ${res.error ?? res.status}`);
    const files = { "/globals.d.ts": GLOBALS, "/namespaces.d.ts": namespaceDecls(res.value.ns) };
    for (const [p, text] of Object.entries(res.value.files)) if (p.endsWith(".d.ts")) files["/api/" + p] = text;
    await worker.setFiles(files);
    forceLinting(editor.view); // re-check the cell against the new declarations
    onStatus?.("types: ready");
  };
  await refresh();
  // The worker handles messages in order, so a query always sees the text
  // synced before it.
  const extensions = () => [
    EditorView.updateListener.of((u) => { if (u.docChanged) worker.updateFile({ path, code: u.state.doc.toString() }); }),
    linter(() => worker.getLints({ path, diagnosticCodesToIgnore: [] }), { delay: 300 }),
    autocompletion({ override: [(ctx) => worker.getAutocompletion({ path, context: { pos: ctx.pos, explicit: ctx.explicit } })] }),
    hoverTooltip(async (view, pos) => {
      const info = await worker.getHover({ path, pos });
      return info ? { pos: info.start, end: info.end, create: () => renderHover(info) } : null;
    }),
  ];
  editor.view.dispatch({ effects: editor.typed.reconfigure(extensions()) });
  await worker.updateFile({ path, code: editor.text });
  session.addEventListener("state", (e) => { if (e.detail.state === "ready") refresh().catch(() => {}); });
  return {
    async setLanguage(l) {
      const next = pathOf(l);
      if (next === path) return;
      // One cell file at a time: both are scripts sharing one global scope.
      await worker.updateFile({ path, code: " " });
      path = next;
      editor.view.dispatch({ effects: editor.typed.reconfigure(extensions()) });
      await worker.updateFile({ path, code: editor.text });
    },
  };
}
