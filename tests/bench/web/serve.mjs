// The pieces the web benches share: Chromium's flags (Debian's chromium,
// offline but for 127.0.0.1) and a real `codemode serve` with the IDE suite's
// config on a random 127.0.0.1 port.
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
  if (r.value !== 42) throw new Error(`${url} answered ${JSON.stringify(r.value)}`);
  return r.ms;
}
