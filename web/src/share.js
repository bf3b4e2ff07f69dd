// Share: the cell (code and language) travels in the URL fragment, which a
// browser never sends to a server: #cell=<base64url of {"code","language"}>.
// Opening such a link restores the cell; nothing is stored anywhere else.

const KEY = "cell=";
/** MAX_CODE_BYTES bounds a shared cell: links stay within what browsers and chat tools carry. */
export const MAX_CODE_BYTES = 64 * 1024;

/** shareFragment encodes a cell as the fragment "#cell=..." (without the page's URL). */
export function shareFragment({ code, language }) {
  const bytes = new TextEncoder().encode(JSON.stringify({ code, language }));
  let bin = "";
  for (const b of bytes) bin += String.fromCharCode(b);
  return "#" + KEY + btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/**
 * readFragment decodes a "#cell=..." fragment: {code, language} for a cell,
 * null when the fragment is not a shared cell, {error} when it is one that
 * cannot be read (cut short when copied, edited by hand).
 */
export function readFragment(hash) {
  if (!hash.startsWith("#" + KEY)) return null;
  try {
    const b64 = hash.slice(1 + KEY.length).replace(/-/g, "+").replace(/_/g, "/");
    const bin = atob(b64 + "=".repeat((4 - (b64.length % 4)) % 4));
    const cell = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(Uint8Array.from(bin, (c) => c.charCodeAt(0))));
    if (typeof cell?.code !== "string") throw new Error("no code");
    const language = cell.language === "typescript" ? "typescript" : "javascript";
    return { code: cell.code, language };
  } catch {
    return { error: "The shared link's cell could not be read (was the link cut short?); the editor keeps your last cell." };
  }
}
