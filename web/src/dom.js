// Tiny DOM helpers: the IDE is plain ES modules without a framework, so these
// keep element construction readable and always go through textContent (model
// and tool output is untrusted text, never HTML).

/**
 * h("button.btn.primary", {type: "button", onclick}, "Run") builds an element.
 * Attributes starting with "on" become listeners; "class" and "dataset" merge;
 * children may be strings, nodes, arrays or null.
 */
export function h(tag, attrs, ...children) {
  const [name, ...classes] = tag.split(".");
  const el = document.createElement(name || "div");
  if (classes.length) el.className = classes.join(" ");
  if (attrs) {
    for (const [k, v] of Object.entries(attrs)) {
      if (v === undefined || v === null || v === false) continue;
      if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
      else if (k === "class") el.className = (el.className ? el.className + " " : "") + v;
      else if (k === "dataset") Object.assign(el.dataset, v);
      else if (k === "text") el.textContent = v;
      else if (v === true) el.setAttribute(k, "");
      else el.setAttribute(k, String(v));
    }
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

/** $ finds one element by id and fails loudly when the page lacks it. */
export function $(id) {
  const el = document.getElementById(id);
  if (!el) throw new Error(`the page has no #${id}`);
  return el;
}

/** clear empties a container and appends the given children. */
export function clear(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

/** fmtMs renders a duration for people: 0.4 ms, 12 ms, 3.2 s, 4 min. */
export function fmtMs(ms) {
  if (ms === undefined || ms === null || Number.isNaN(ms)) return "–";
  if (ms < 1) return `${ms.toFixed(2)} ms`;
  if (ms < 100) return `${ms.toFixed(1)} ms`;
  if (ms < 10_000) return `${Math.round(ms)} ms`;
  if (ms < 120_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.round(ms / 60_000)} min`;
}

/** fmtBytes renders a size: 512 B, 1.5 KiB, 3.2 MiB. */
export function fmtBytes(n) {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / 1024 / 1024).toFixed(1)} MiB`;
}

/** download saves text as a file through a temporary link. */
export function download(name, text, type = "application/json") {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = h("a", { href: url, download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
