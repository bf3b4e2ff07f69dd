// Browser end-to-end suites in Debian's Chromium (this machine never downloads a
// browser). One webServer: the real `codemode serve` (example toolset and
// server-everything over stdio) on a random high 127.0.0.1 port, serving
// build/e2e/ (build/web at /web/, the hostjs test page at /hostjs/).
import { defineConfig } from "@playwright/test";

// Chosen once in the runner; workers inherit it through the environment.
process.env.CODEMODE_E2E_PORT ||= String(20000 + Math.floor(Math.random() * 30000));
const port = Number(process.env.CODEMODE_E2E_PORT);
export const baseURL = `http://127.0.0.1:${port}`;

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
  ],
  use: {
    baseURL,
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
