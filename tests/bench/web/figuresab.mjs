// The warm-core page figures of bench-web (tests/bench/web/page/figures.html:
// the first TypeScript cell once the core is ready and tsx.wasm loaded, later
// ones, 10 client-tool calls per exec over 20 rounds) for two or more staged
// builds, one page load per build in turn, so that a loaded machine's drift
// falls on every side alike. Each DIR is staged as build.sh bench-web stages
// build/bench-web (build/web plus tests/bench/web/page as bench/).
//
//   node tests/bench/web/figuresab.mjs ROUNDS DIR [DIR...]
//
// Prints per DIR the medians and every value: first TS cell, later TS cells,
// client-tool rounds 1-5 (V8 still tiering up) and rounds 6-20 (the steady
// state, which bench-web's target reads).
import { readFileSync } from "node:fs";
import { alternating, median, startServe } from "./serve.mjs";

const [rounds, ...dirs] = process.argv.slice(2);
if (!(Number(rounds) > 0) || dirs.length === 0) throw new Error("usage: node tests/bench/web/figuresab.mjs ROUNDS DIR [DIR...]");
const load = () => readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
const load0 = load();
const sides = [];
for (const dir of dirs) sides.push({ dir, ...(await startServe({ dir, stderr: "ignore" })), figs: [] });
await alternating(Number(rounds), sides, sides, async (s, ctx) => {
  const page = await ctx.newPage();
  page.on("pageerror", (e) => console.error(`${s.dir}: page error:`, e.message));
  await page.goto(`${s.url}bench/figures.html?rounds=5&toolRounds=20`);
  await page.waitForFunction(() => window.figures, null, { timeout: 180_000, polling: 50 });
  s.figs.push(await page.evaluate(() => window.figures));
});
const f = (xs) => `${median(xs).toFixed(1)} (${xs.map((x) => x.toFixed(0)).join(" ")})`;
console.log(`load ${load0} -> ${load()}`);
for (const s of sides) {
  console.log(`${s.dir}:`);
  console.log(`  first TS cell   ${f(s.figs.map((x) => x.tsFirst))}`);
  console.log(`  later TS cells  ${f(s.figs.flatMap((x) => x.ts))}`);
  console.log(`  tools 1-5       ${f(s.figs.flatMap((x) => x.tools.slice(0, 5)))}`);
  console.log(`  tools 6-20      ${f(s.figs.flatMap((x) => x.tools.slice(5)))}`);
  console.log(`  trivial         ${f(s.figs.map((x) => x.trivial))}`);
}
