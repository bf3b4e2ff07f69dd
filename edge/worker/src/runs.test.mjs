// node --test edge/worker/src/runs.test.mjs: the keep-alive bookkeeping.
import { test } from "node:test";
import assert from "node:assert/strict";
import { RunTracker, TICK_MS } from "./runs.mjs";

function fakeClock() {
  const c = { t: 0, timers: new Map(), seq: 0 };
  c.now = () => c.t;
  c.setInterval = (fn, ms) => { c.timers.set(++c.seq, { fn, ms }); return c.seq; };
  c.clearInterval = (id) => c.timers.delete(id);
  c.tick = () => { c.t += TICK_MS; for (const { fn } of [...c.timers.values()]) fn(); };
  return c;
}

test("a waiting run holds one interval until it completes", () => {
  const c = fakeClock();
  const r = new RunTracker(c);
  r.observe({ status: "waiting", runId: "a" }, null, 900);
  r.observe({ status: "waiting", runId: "b" }, null, 900);
  assert.equal(r.size, 2);
  assert.equal(c.timers.size, 1);
  r.observe({ status: "waiting", runId: "a" }, "a", 900); // still waiting after a wait
  assert.equal(r.size, 2);
  r.observe({ status: "completed" }, "a", 900);
  r.observe({ status: "failed", code: "timeout" }, "b", 900);
  assert.equal(r.size, 0);
  assert.equal(r.alive, false);
  assert.equal(c.timers.size, 0);
});

test("runs past their snapshot TTL stop keeping the object alive", () => {
  const c = fakeClock();
  const r = new RunTracker(c);
  r.observe({ status: "waiting", runId: "a" }, null, 12);
  assert.equal(r.alive, true);
  c.tick(); c.tick(); // 10 s
  assert.equal(r.size, 1);
  c.tick(); // 15 s > 12 s
  assert.equal(r.size, 0);
  assert.equal(r.alive, false);
});

test("a completed exec leaves nothing behind", () => {
  const c = fakeClock();
  const r = new RunTracker(c);
  r.observe({ status: "completed", value: 1 }, null, 900);
  assert.equal(r.alive, false);
});

test("a touch moves a run's expiry to the core's restarted TTL", () => {
  const c = fakeClock();
  const r = new RunTracker(c);
  r.observe({ status: "waiting", runId: "a" }, null, 12); // stamped at 0: expires at 12 s
  c.tick(); // 5 s
  r.renew("a", c.now() + 12_000); // the core restarted its TTL: 17 s
  r.renew("gone", c.now() + 12_000);
  assert.equal(r.size, 1);
  c.tick(); c.tick(); // 15 s: past the first stamp, before the new one
  assert.equal(r.size, 1);
  c.tick(); // 20 s
  assert.equal(r.size, 0);
  assert.equal(r.alive, false);
});
