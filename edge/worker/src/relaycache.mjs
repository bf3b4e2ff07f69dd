// CatalogCache keeps the front's catalog in a session object, so an exec
// does not relay GET /v1/catalog to the front every time (each relay is a
// request of its own through ctx.exports, with its CPU).
//
// What invalidates it, and why:
// - the object's life: a deploy or a config change starts new objects (and
//   new isolates), which start with no cache;
// - a TTL (TTL_MS, 60 s): the Go tools are fixed per deploy, but a remote MCP
//   server may change its tools, or come back after it was left out of a
//   catalog because it did not answer; 60 s bounds how long a session sees
//   such a stale list, at one relay per minute instead of one per exec;
// - a relayed tools/call answered `unknown_tool`: the catalog named a tool
//   the front no longer has, so the next exec fetches it anew.
// Only a 200 catalog is kept; errors are relayed, never cached. Entries are
// keyed by the Authorization the relay carries (the object belongs to one
// principal, who may hold several tokens), and concurrent first loads share
// one relay.

/** How long a cached catalog is used. */
export const TTL_MS = 60_000;

export class CatalogCache {
  /** @type {Map<string, {at: number, answer: Promise<{status: number, headers: [string, string][], body: string}>}>} */
  #entries = new Map();
  #now;

  /** now: () => ms since epoch (injected for tests). */
  constructor(now = () => Date.now()) {
    this.#now = now;
  }

  /** How many catalogs are cached. */
  get size() {
    return this.#entries.size;
  }

  /** Drop every cached catalog. */
  clear() {
    this.#entries.clear();
  }

  /**
   * wrap returns a fetch that answers GET .../v1/catalog from the cache and
   * relays everything else through fetch, watching tools/call answers for
   * unknown_tool.
   */
  wrap(fetch) {
    return async (request) => {
      const path = new URL(request.url).pathname;
      if (request.method === "GET" && path.endsWith("/v1/catalog")) return this.#catalog(request, fetch);
      const response = await fetch(request);
      if (request.method === "POST" && path.endsWith("/v1/tools/call")) await this.#watch(response);
      return response;
    };
  }

  async #catalog(request, fetch) {
    const key = request.headers.get("authorization") ?? "";
    let e = this.#entries.get(key);
    if (!e || this.#now() - e.at >= TTL_MS) {
      const answer = fetch(request).then(async (r) => ({ status: r.status, headers: [...r.headers], body: await r.text() }));
      e = { at: this.#now(), answer };
      this.#entries.set(key, e);
      const mine = e;
      const forget = () => { if (this.#entries.get(key) === mine) this.#entries.delete(key); };
      answer.then((a) => { if (a.status !== 200) forget(); }, forget);
    }
    const a = await e.answer;
    return new Response(a.body, { status: a.status, headers: a.headers });
  }

  async #watch(response) {
    if (response.status !== 200) return;
    try {
      const body = await response.clone().json();
      if (body?.error?.code === "unknown_tool") this.clear();
    } catch {
      // not JSON: the core reports it; nothing to learn here
    }
  }
}
