// ./build.sh bench-pollrate: how often the loop guard of build/web's
// quickjs.wasm polls the core per CPU second inside each long built-in on V8
// (hostjs inline mode in Node.js), which sizes the Worker's poll budget
// (edge/worker WorkerdPollsPerSecond): where the clock stands still during
// CPU work a run may poll timeoutMs worth of them.
//
// Method: a core with pollsPerSecond 250 and timeoutMs 60000 gets a budget of
// 15,000 polls; the CPU time a long-built-in loop takes to spend it gives the
// rate. The cells are internal/longbuiltins' (go run .../casesjson).
import { execFileSync } from "node:child_process";
import { pathToFileURL } from "node:url";

// CODEMODE_WEB: another build/web (default: this tree's).
const web = process.env.CODEMODE_WEB ? pathToFileURL(process.env.CODEMODE_WEB + "/").href : new URL("../../../build/web/", import.meta.url).href;
const { createCodeMode } = await import(new URL("codemode.js", web).href);

const cases = JSON.parse(execFileSync("go", ["run", "./internal/longbuiltins/casesjson"], { encoding: "utf8" }));
const budget = 15000;
const cm = await createCodeMode({ config: { timeoutMs: 60000 }, pollsPerSecond: 250, thread: "inline" });
const rows = [];
for (const c of cases) {
  if (!/for \(;;\)/.test(c.Code)) continue; // a single call polls too few times to time
  const cpu0 = process.cpuUsage(), t0 = performance.now();
  const r = await cm.exec({ code: c.Code });
  const cpu = process.cpuUsage(cpu0), wall = performance.now() - t0;
  const cpuS = (cpu.user + cpu.system) / 1e6;
  // Only a run the budget ended spent all 15,000 polls; one that ended
  // otherwise (out of memory first) gives no rate.
  const spent = r.status === "failed" && r.code === "timeout";
  rows.push({ name: c.Name, status: r.code ? `${r.status}/${r.code}` : `${r.status} (${r.error ?? r.value})`, cpuS, rate: spent ? Math.round(budget / cpuS) : NaN, wallMs: Math.round(wall) });
}
await cm.close();
console.log("| long built-in | result | CPU s for 15,000 polls (or to its end) | polls per CPU second |");
console.log("|---|---|---|---|");
for (const r of rows) console.log(`| ${r.name} | ${r.status} | ${r.cpuS.toFixed(2)} | ${Number.isNaN(r.rate) ? "- (ended before the budget)" : r.rate.toLocaleString("en")} |`);
const rates = rows.map((r) => r.rate).filter((r) => !Number.isNaN(r)).sort((a, b) => a - b);
console.log(`\nmin ${rates[0].toLocaleString("en")}, median ${rates[rates.length >> 1].toLocaleString("en")}, max ${rates[rates.length - 1].toLocaleString("en")} polls per CPU second (Node ${process.version}, load ${(await import("node:fs")).readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ")})`);
process.exit(0);
