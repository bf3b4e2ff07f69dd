// ./build.sh bench-typed: the IDE's typed help and Stop in Debian's Chromium:
// ts.worker.js as served (raw / gzip / brotli), the time from the first click
// into the editor (the core already ready) until the language service reports
// "types: ready", the page's longest main-thread task in that time (the
// service runs in its own worker, so the page stays responsive), and how long
// Stop takes to end a `while (true) {}` (click to the failed result). Prints a
// Markdown table for tests/bench/RESULTS.md; page.evaluate only reads timings.
import { chromium } from "@playwright/test";
import { statSync } from "node:fs";
import { chromiumArgs as args, median, startServe } from "./serve.mjs";

const ROUNDS = Number(process.env.BENCH_TYPED_ROUNDS ?? 3);
const { url, server } = await startServe({ stderr: "ignore" });
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args });
const typed = [], longest = [], stop = [];
try {
  for (let i = 0; i < ROUNDS; i++) {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(url);
    await page.locator("#engine-status").filter({ hasText: "core: ready" }).waitFor({ timeout: 120_000 });
    await page.evaluate(() => {
      window.__long = 0;
      new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__long = Math.max(window.__long, e.duration); }).observe({ type: "longtask" });
    });
    const t0 = Date.now();
    await page.getByRole("textbox", { name: "Cell code" }).click();
    await page.locator("#types-status").filter({ hasText: "types: ready" }).waitFor({ timeout: 120_000 });
    typed.push(Date.now() - t0);
    longest.push(Math.round(await page.evaluate(() => window.__long)));

    await page.keyboard.press("ControlOrMeta+A");
    await page.keyboard.insertText("while (true) {}");
    await page.getByRole("button", { name: "Run", exact: true }).click();
    await page.getByTestId("result-status").filter({ hasText: "running" }).waitFor();
    await page.waitForTimeout(500);
    const t1 = Date.now();
    await page.getByRole("button", { name: "Stop", exact: true }).click();
    await page.getByTestId("result-status").filter({ hasText: "failed" }).waitFor({ timeout: 30_000 });
    stop.push(Date.now() - t1);
    await page.close();
  }
} finally {
  await browser.close();
  server.kill("SIGTERM");
}

const size = (f) => statSync(`build/web/${f}`).size;
const mib = (n) => `${(n / 1048576).toFixed(2)} MiB`;
const row = (xs) => `${median(xs)} ms (${xs.join(", ")})`;
console.log(`| | median (each round) |
|---|---|
| ts.worker.js raw / gzip / brotli | ${mib(size("ts.worker.js"))} / ${mib(size("ts.worker.js.gz"))} / ${mib(size("ts.worker.js.br"))} |
| ide.js raw / gzip / brotli | ${mib(size("ide.js"))} / ${mib(size("ide.js.gz"))} / ${mib(size("ide.js.br"))} |
| editor click -> "types: ready" | ${row(typed)} |
| longest main-thread task meanwhile | ${row(longest)} |
| Stop click -> failed result | ${row(stop)} |`);
