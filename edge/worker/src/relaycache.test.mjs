// node --test edge/worker/src/relaycache.test.mjs: the session object's catalog cache.
import { test } from "node:test";
import assert from "node:assert/strict";
import { CatalogCache, TTL_MS } from "./relaycache.mjs";

const BASE = "https://codemode-front.internal";

/** A relay that counts its requests and answers from answers[path]. */
function fakeFront(answers) {
  const f = { calls: [] };
  f.fetch = async (req) => {
    f.calls.push(`${req.method} ${new URL(req.url).pathname} ${req.headers.get("authorization") ?? ""}`);
    const a = answers[new URL(req.url).pathname];
    return typeof a === "function" ? a() : new Response(JSON.stringify(a.body), { status: a.status ?? 200, headers: { "content-type": "application/json" } });
  };
  return f;
}

const get = (auth = "Bearer a") => new Request(`${BASE}/v1/catalog`, { headers: { authorization: auth } });
const call = () => new Request(`${BASE}/v1/tools/call`, { method: "POST", body: "{}", headers: { authorization: "Bearer a" } });

test("the catalog is relayed once per TTL and per token, and tools/call always", async () => {
  let t = 0;
  const c = new CatalogCache(() => t);
  const front = fakeFront({ "/v1/catalog": { body: { entries: [{ id: "x" }] } }, "/v1/tools/call": { body: { details: 1 } } });
  const fetch = c.wrap(front.fetch);
  for (let i = 0; i < 3; i++) {
    const r = await fetch(get());
    assert.equal(r.status, 200);
    assert.deepEqual(await r.json(), { entries: [{ id: "x" }] });
    assert.equal(r.headers.get("content-type"), "application/json");
  }
  await fetch(get("Bearer other"));
  await fetch(call());
  await fetch(call());
  assert.deepEqual(front.calls, ["GET /v1/catalog Bearer a", "GET /v1/catalog Bearer other", "POST /v1/tools/call Bearer a", "POST /v1/tools/call Bearer a"]);
  t += TTL_MS - 1;
  await fetch(get());
  assert.equal(front.calls.length, 4, "inside the TTL: still cached");
  t += 1;
  await fetch(get());
  assert.equal(front.calls.length, 5, "at the TTL: relayed anew");
});

test("an unknown_tool answer of tools/call drops the cache", async () => {
  const c = new CatalogCache(() => 0);
  const front = fakeFront({ "/v1/catalog": { body: { entries: [] } }, "/v1/tools/call": { body: { error: { code: "unknown_tool", message: "gone" } } } });
  const fetch = c.wrap(front.fetch);
  await fetch(get());
  assert.equal(c.size, 1);
  const r = await fetch(call());
  assert.deepEqual(await r.json(), { error: { code: "unknown_tool", message: "gone" } }, "the answer still reaches the core");
  assert.equal(c.size, 0);
  await fetch(get());
  assert.equal(front.calls.filter((s) => s.startsWith("GET")).length, 2);
});

test("errors are relayed, never cached; concurrent first loads share one relay", async () => {
  const c = new CatalogCache(() => 0);
  let status = 503;
  const front = fakeFront({ "/v1/catalog": () => new Response(`{"error":{"code":"unavailable"}}`, { status }) });
  const fetch = c.wrap(front.fetch);
  assert.equal((await fetch(get())).status, 503);
  assert.equal(c.size, 0);
  status = 200;
  const all = await Promise.all([fetch(get()), fetch(get()), fetch(get())]);
  assert.deepEqual(all.map((r) => r.status), [200, 200, 200]);
  assert.equal(front.calls.length, 2);

  const failing = new CatalogCache(() => 0);
  const broken = failing.wrap(async () => { throw new Error("network"); });
  await assert.rejects(broken(get()), /network/);
  assert.equal(failing.size, 0, "a failed relay is not kept");
});
