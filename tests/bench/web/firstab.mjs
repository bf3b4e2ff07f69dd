// The page's first result (bench-web's first figure: createCodeMode({}) + exec
// `return 6 * 7` in a new context, then a new page with the same HTTP cache)
// for two or more staged builds and quickjs-wasi's own host, in one sitting:
// each round loads every side in turn (reversed every other round), so a
// loaded machine's drift falls on every side alike. Each DIR is staged as
// build.sh bench-web stages build/bench-web (build/web plus
// tests/bench/web/page as bench/ and quickjs-wasi's dist as bench/quickjs-wasi).
//
//   node tests/bench/web/firstab.mjs ROUNDS DIR [DIR...]
//
// Prints per side the cold and warm medians with every value, and each DIR's
// ratio to the reference (served from the first DIR).
import { readFileSync } from "node:fs";
import { alternating, firstResult, median, startServe } from "./serve.mjs";

const [rounds, ...dirs] = process.argv.slice(2);
if (!(Number(rounds) > 0) || dirs.length === 0) throw new Error("usage: node tests/bench/web/firstab.mjs ROUNDS DIR [DIR...]");
const load = () => readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
const load0 = load();
const servers = [];
for (const dir of dirs) servers.push({ dir, ...(await startServe({ dir, stderr: "ignore" })) });
const sides = [{ name: "ref", url: `${servers[0].url}bench/first.html?side=ref` },
  ...servers.map((s) => ({ name: s.dir, url: `${s.url}bench/first.html?side=ours` }))];
for (const s of sides) s.cold = [], s.warm = [];

await alternating(Number(rounds), sides, servers, async (s, ctx) => {
  const cold = await ctx.newPage();
  s.cold.push(await firstResult(cold, s.url));
  await cold.close(); // as bench.mjs: the warm load is a new page and worker with the same HTTP cache
  s.warm.push(await firstResult(await ctx.newPage(), s.url));
});
const f = (xs) => `${median(xs).toFixed(0)} ms (${xs.map((x) => x.toFixed(0)).join(" ")})`;
console.log(`load ${load0} -> ${load()}; ${rounds} rounds`);
const ref = sides[0];
for (const s of sides) {
  const ratio = s === ref ? "" : `; ${(median(s.cold) / median(ref.cold)).toFixed(2)}x cold, ${(median(s.warm) / median(ref.warm)).toFixed(2)}x warm`;
  console.log(`${s.name}: cold ${f(s.cold)}, warm ${f(s.warm)}${ratio}`);
}
