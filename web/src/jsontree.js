// A collapsible JSON tree built from <details>/<summary>, so it opens and closes
// with the keyboard and screen readers announce it without extra ARIA.
import { h } from "./dom.js";

const MAX_CHILDREN = 500; // beyond this a node shows "… N more" (a page must stay fast)

/**
 * jsonTree renders value. Objects and arrays up to openDepth levels start open.
 * label names the root for assistive technology ("value", "schema", ...).
 */
export function jsonTree(value, { label = "value", openDepth = 2 } = {}) {
  return h("div.jt", { role: "group", "aria-label": label }, node(value, null, 0, openDepth));
}

function node(value, key, depth, openDepth) {
  const k = key === null ? null : h("span.jt-key", null, typeof key === "number" ? `${key}` : JSON.stringify(key), ": ");
  if (value === null || typeof value !== "object") return h("div.jt-leaf", null, k, scalar(value));
  const isArr = Array.isArray(value);
  const entries = isArr ? value.map((v, i) => [i, v]) : Object.entries(value);
  const [open, close] = isArr ? ["[", "]"] : ["{", "}"];
  if (entries.length === 0) return h("div.jt-leaf", null, k, h("span.jt-punct", null, open + close));
  const summary = h("summary", null, k,
    h("span.jt-punct", null, open),
    h("span.jt-count", null, isArr ? ` ${entries.length} item${entries.length === 1 ? "" : "s"} ` : ` ${entries.length} key${entries.length === 1 ? "" : "s"} `),
    h("span.jt-punct.jt-closed", null, close));
  const det = h("details.jt-node", null, summary);
  if (depth < openDepth) det.open = true;
  // Children render when first opened: a 10k-element value costs nothing until looked at.
  let filled = false;
  const fill = () => {
    if (filled) return;
    filled = true;
    const body = h("div.jt-children");
    for (const [ck, cv] of entries.slice(0, MAX_CHILDREN)) body.append(node(cv, ck, depth + 1, openDepth));
    if (entries.length > MAX_CHILDREN) body.append(h("div.jt-more", null, `… ${entries.length - MAX_CHILDREN} more`));
    det.append(body, h("div.jt-punct", null, close));
  };
  if (det.open) fill();
  det.addEventListener("toggle", fill);
  return det;
}

function scalar(v) {
  if (typeof v === "string") return h("span.jt-str", null, JSON.stringify(v));
  if (typeof v === "number") return h("span.jt-num", null, String(v));
  if (typeof v === "boolean") return h("span.jt-bool", null, String(v));
  return h("span.jt-null", null, "null");
}
