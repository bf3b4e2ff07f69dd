// The catalog browser: ALL_TOOLS with input/output hints (cm.catalog()), the
// full schema through tools.describe on click, the API files rendered as code,
// the visible namespaces with their prompts, and the MCP servers. Everything is
// read from the core with small guest cells, so the page shows exactly what a
// program sees.
import { h, clear, fmtBytes } from "./dom.js";
import { jsonTree } from "./jsontree.js";
import { codeView, dropView } from "./editor.js";

const INTROSPECT = `const files = [];
for (const f of await API.list()) files.push({ path: f.path, size: f.size, description: f.description, text: await API.read(f.path) });
return { files, namespaces: Object.keys(namespaces), mcp: Object.keys(MCP) };`;

let views = [];

/**
 * renderCatalog loads and shows the catalog. session runs the look-up cells;
 * surfaceText is the plain exec description (its "Namespaces:" part carries
 * the prompts the model sees).
 */
export async function renderCatalog(el, session) {
  for (const v of views) dropView(v);
  views = [];
  clear(el, h("div.panel-head", null, h("h2", null, "Catalog")), h("p.muted", { role: "status" }, "Loading the catalog…"));
  let entries, info, surface;
  try {
    const cm = await session.instance();
    [entries, info, surface] = await Promise.all([
      cm.catalog(),
      session.exec({ code: INTROSPECT, language: "javascript" }, { internal: true }),
      cm.surface("plain").catch(() => null),
    ]);
  } catch (err) {
    return clear(el, h("div.panel-head", null, h("h2", null, "Catalog")), h("p.errmsg", { role: "alert" }, `The catalog could not be loaded: ${err?.message ?? err}`));
  }
  // ALL_TOOLS leaves MCP entries out (programs reach them as MCP.<server>);
  // the browser lists them under their server.
  const all = entries.filter((e) => e.source !== "mcp");
  const mcpEntries = entries.filter((e) => e.source === "mcp");
  const filter = h("input.text", { type: "search", id: "catalog-filter", placeholder: "Filter by id, name or description", "aria-label": "Filter tools" });
  const list = h("ul.catalog", { "aria-label": "ALL_TOOLS" });
  const mcpList = h("ul.catalog", { "aria-label": "MCP tools" });
  const match = (e, q) => !q || `${e.id} ${e.name} ${e.label ?? ""} ${e.description}`.toLowerCase().includes(q);
  const fill = () => {
    const q = filter.value.trim().toLowerCase();
    clear(list, all.filter((e) => match(e, q)).map((e) => entryNode(e, session)));
    clear(mcpList, mcpEntries.filter((e) => match(e, q)).map((e) => entryNode(e, session)));
  };
  filter.addEventListener("input", fill);
  fill();

  const sections = [
    h("div.panel-head", null, h("h2", null, "Catalog"), h("span.muted.small", null, `${all.length} in ALL_TOOLS · ${mcpEntries.length} MCP`),
      h("span.spacer"), h("button.btn.small", { type: "button", onclick: () => renderCatalog(el, session) }, "Reload")),
    filter, list,
  ];
  if (info.status !== "completed") {
    sections.push(h("p.errmsg", { role: "alert" }, `API files could not be read: ${info.error ?? info.status}`));
    return clear(el, sections);
  }
  const { files, namespaces, mcp } = info.value;
  const nsText = namespaceSection(surface);
  sections.push(h("h3", null, "Namespaces"),
    namespaces.length
      ? h("div", null, h("ul.chips", { "aria-label": "visible namespaces" }, namespaces.map((n) => h("li", null, h("code", null, n)))),
        nsText ? h("pre.prompttext", { "aria-label": "namespace prompts the model sees" }, nsText) : null)
      : h("p.muted.small", null, "No plugin namespace is visible to this run."));
  sections.push(h("h3", null, "MCP servers"),
    mcp.length ? [h("ul.chips", { "aria-label": "MCP servers" }, mcp.map((n) => h("li", null, h("code", null, `MCP.${n}`)))), mcpList]
      : h("p.muted.small", null, "No MCP server is connected."));
  sections.push(h("h3", null, "API files"));
  for (const f of files) {
    const host = h("div.codebox");
    const det = h("details.apifile", { "data-testid": "api-file" },
      h("summary", null, h("code", null, f.path), h("span.muted.small", null, ` ${fmtBytes(f.size)}`), f.description ? h("span.muted.small", null, ` · ${f.description}`) : null),
      host);
    let shown = false;
    det.addEventListener("toggle", () => {
      if (det.open && !shown) { shown = true; views.push(codeView(host, f.text, { language: "typescript", label: f.path })); }
    });
    sections.push(det);
  }
  clear(el, sections);
}

function entryNode(e, session) {
  const out = h("div.describe");
  const btn = h("button.entry", { type: "button", "aria-expanded": "false", "data-testid": "catalog-entry", "data-id": e.id },
    h("span.entry-name", null, e.label ? `${e.name} — ${e.label}` : e.name),
    h(`span.src.src-${e.source}`, null, e.sourceName ? `${e.source}:${e.sourceName}` : e.source),
    h("code.entry-id", null, e.id),
    h("code.hint", null, e.input, h("span.arrow", null, " -> "), e.output ?? "?"),
    e.description ? h("span.entry-desc", null, e.description) : null);
  let loaded = false;
  btn.addEventListener("click", async () => {
    const open = btn.getAttribute("aria-expanded") !== "true";
    btn.setAttribute("aria-expanded", String(open));
    out.hidden = !open;
    if (!open || loaded) return;
    loaded = true;
    clear(out, h("p.muted.small", null, "tools.describe…"));
    // MCP tools are outside tools.*: their declaration comes from MCP.<server>.$api.
    const code = e.source === "mcp"
      ? `return await MCP[${JSON.stringify(e.sourceName)}].$api(${JSON.stringify(e.name)}, { schema: true });`
      : `return await tools.describe(${JSON.stringify(e.id)});`;
    const res = await session.exec({ code, language: "javascript" }, { internal: true });
    if (res.status !== "completed") { loaded = false; return clear(out, h("p.errmsg.small", null, res.error ?? res.status)); }
    const d = res.value;
    if (typeof d === "string") { clear(out); views.push(codeView(out, d, { label: `${e.name} declaration` })); return; }
    clear(out, d.description ? h("p.small", null, d.description) : null,
      h("h4", null, "parameters"), jsonTree(d.parameters, { label: `${e.name} parameters`, openDepth: 3 }),
      d.outputSchema !== undefined ? [h("h4", null, "outputSchema"), jsonTree(d.outputSchema, { label: `${e.name} output schema`, openDepth: 3 })] : null);
  });
  return h("li", null, btn, out);
}

// namespaceSection cuts the "Namespaces:" part out of the plain exec
// description: the exact text (description and prompt) the model is shown.
function namespaceSection(surface) {
  const tools = Array.isArray(surface) ? surface : surface?.tools ?? [];
  const exec = tools.find((t) => t.name === "exec");
  const d = exec?.description ?? "";
  const i = d.indexOf("\nNamespaces:\n");
  return i < 0 ? "" : d.slice(i + 1).trim();
}

/** renderSurface shows the model-visible tools in one of the provider shapes. */
export async function renderSurface(el, session, format = "plain", refocus = false) {
  const radios = ["plain", "anthropic", "openai", "openai-responses"].map((f) =>
    h("label", null, h("input", { type: "radio", name: "surface-format", value: f, checked: f === format, onchange: () => renderSurface(el, session, f, true) }), ` ${f}`));
  const head = [h("div.panel-head", null, h("h2", null, "Model-visible surface")),
    h("div.seg", { role: "radiogroup", "aria-label": "Surface format" }, radios)];
  clear(el, head, h("p.muted", { role: "status" }, "Loading…"));
  try {
    const cm = await session.instance();
    const s = await cm.surface(format);
    const tools = Array.isArray(s) ? s : s.tools ?? s;
    const names = (Array.isArray(tools) ? tools : []).map((t) => t.name ?? t.function?.name).filter(Boolean);
    clear(el, head,
      h("p.small", null, "The model sees ", names.length ? names.map((n, i) => [i ? ", " : "", h("code", null, n)]) : "nothing", "."),
      jsonTree(s, { label: `surface (${format})`, openDepth: 2 }));
    if (refocus) el.querySelector("input[name=surface-format]:checked")?.focus();
  } catch (err) {
    clear(el, head, h("p.errmsg", { role: "alert" }, `The surface could not be loaded: ${err?.message ?? err}`));
  }
}
