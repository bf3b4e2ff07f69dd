// The one set-up of the hostjs benches (run.mjs, prof.mjs): codemode serve on
// a random loopback port over the staged build/bench-hostjs, and the flags
// Debian's chromium runs with, so both benches measure the same page server
// and the same browser.

import { spawn } from "node:child_process";

/** Flags for /usr/bin/chromium, headless and without background traffic. */
export const chromiumArgs = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run"];

/**
 * Starts `build/codemode serve` and resolves once it listens.
 * @returns {Promise<{base: string, server: import("node:child_process").ChildProcess}>}
 */
export async function startServe() {
  const port = 20000 + Math.floor(Math.random() * 30000);
  const base = `http://127.0.0.1:${port}`;
  const server = spawn("build/codemode", ["serve", "--config", "tests/bench/hostjs/serve.json5", "--addr", `127.0.0.1:${port}`, "--static", "build/bench-hostjs"], { stdio: ["ignore", "pipe", "ignore"] });
  await new Promise((resolve, reject) => {
    server.stdout.on("data", (d) => String(d).includes(base) && resolve());
    server.on("exit", (c) => reject(new Error("codemode serve exited " + c)));
    setTimeout(() => reject(new Error("codemode serve did not start")), 30000);
  });
  return { base, server };
}
