// Browser end-to-end suites in Debian's Chromium (this machine never downloads a
// browser). One webServer: the real `codemode serve` (example toolset and
// server-everything over stdio) on a random high 127.0.0.1 port, serving
// build/e2e/ (build/web at /web/, the hostjs test page at /hostjs/).
import { defineConfig } from "@playwright/test";

// Chosen once in the runner; workers inherit it through the environment.
process.env.CODEMODE_E2E_PORT ||= String(20000 + Math.floor(Math.random() * 30000));
const port = Number(process.env.CODEMODE_E2E_PORT);
export const baseURL = `http://127.0.0.1:${port}`;
// The web IDE suite (tests/e2e/ide): `codemode serve` with build/web at / (as a
// person runs it), and a plain static copy of build/web on another origin.
process.env.CODEMODE_E2E_IDE_PORT ||= String(port + 1);
process.env.CODEMODE_E2E_STATIC_PORT ||= String(port + 2);
const idePort = Number(process.env.CODEMODE_E2E_IDE_PORT);
const staticPort = Number(process.env.CODEMODE_E2E_STATIC_PORT);

export default defineConfig({
  testDir: "tests/e2e",
  timeout: 60_000,
  workers: 2,
  reporter: [["list"]],
  webServer: [
    {
      command: `./build.sh e2e-serve ${port}`,
      url: `${baseURL}/healthz`,
      timeout: 300_000,
      reuseExistingServer: false,
      stdout: "ignore",
      stderr: "pipe",
    },
    // After the first entry has built everything (webServers start in order).
    {
      command: `build/codemode serve --config tests/e2e/ide/serve.json5 --addr 127.0.0.1:${idePort}`,
      url: `http://127.0.0.1:${idePort}/healthz`,
      timeout: 120_000,
      reuseExistingServer: false,
      stdout: "ignore",
      stderr: "pipe",
    },
    {
      command: `node tests/e2e/ide/static-server.mjs ${staticPort} build/web`,
      url: `http://127.0.0.1:${staticPort}/index.html`,
      timeout: 30_000,
      reuseExistingServer: false,
      stdout: "ignore",
      stderr: "pipe",
    },
  ],
  // Screenshots and traces of failures, kept as CI artifacts (git-ignored).
  outputDir: "tests/e2e/.artifacts",
  use: {
    baseURL,
    screenshot: "only-on-failure",
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: "/usr/bin/chromium",
      args: [
        "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run",
        "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1",
      ],
    },
  },
});
