// The pieces the web benches share: Chromium's flags (Debian's chromium,
// offline but for 127.0.0.1) and a real `codemode serve` with the IDE suite's
// config on a random 127.0.0.1 port.
import { chromium } from "@playwright/test";
import { spawn } from "node:child_process";

export const chromiumArgs = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
  "--disable-sync", "--no-first-run", "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1"];

export const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };

/**
 * startServe starts build/codemode serve (static files from dir, else the
 * config's); resolves {url, server} once it serves.
 */
export async function startServe({ stderr = "inherit", dir } = {}) {
  const port = 20000 + Math.floor(Math.random() * 30000);
  const args = ["serve", "--config", "tests/e2e/ide/serve.json5", "--addr", `127.0.0.1:${port}`, ...(dir ? ["--static", dir] : [])];
  const server = spawn("build/codemode", args, { stdio: ["ignore", "pipe", stderr] });
  await new Promise((resolve, reject) => {
    server.stdout.on("data", (b) => { if (String(b).includes("serving on")) resolve(); });
    server.on("exit", (c) => reject(new Error(`codemode serve exited with ${c}`)));
  });
  return { url: `http://127.0.0.1:${port}/`, server };
}

/** Navigation start to window.firstResult of bench/first.html on page, in ms (bench.mjs, firstab.mjs). */
export async function firstResult(page, url) {
  await page.goto(url);
  await page.waitForFunction(() => window.firstResult, null, { timeout: 120_000, polling: 20 });
  const r = await page.evaluate(() => window.firstResult);
  if (r.value !== 42) throw new Error(`${url} answered ${JSON.stringify(r.error ?? r.value)}`);
  return r.ms;
}

/**
 * alternating calls visit(side, ctx) for every side in a new browser context
 * of one Chromium, rounds times, the sides' order reversed every other round,
 * so that a loaded machine's drift falls on every side alike (figuresab.mjs,
 * firstab.mjs); then closes the browser and stops the servers ({server}).
 */
export async function alternating(rounds, sides, servers, visit) {
  const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: chromiumArgs });
  try {
    for (let i = 0; i < rounds; i++) {
      for (const s of i % 2 ? [...sides].reverse() : sides) {
        const ctx = await browser.newContext();
        try { await visit(s, ctx); } finally { await ctx.close(); }
      }
    }
  } finally {
    await browser.close();
    for (const s of servers) s.server.kill("SIGTERM");
  }
}
