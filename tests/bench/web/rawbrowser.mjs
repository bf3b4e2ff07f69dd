// Debian's chromium as a person runs it: spawned without Playwright, so no
// DevTools client is attached, on an on-disk profile that outlives the
// browser. A page reports by POSTing JSON to a collector on 127.0.0.1 (its
// ?report= parameter). bench.mjs's warm figure and codecache.mjs use it: V8's
// wasm code cache is read back in this setting (RESULTS.md, code-cache).
import { spawn, execFileSync } from "node:child_process";
import http from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

// Playwright's bench flags minus what only an automation client needs.
export const rawArgs = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
  "--disable-sync", "--no-first-run", "--no-default-browser-check", "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1"];

/**
 * startCollector listens on a random 127.0.0.1 port for the pages' reports;
 * next() resolves with the next report's parsed body (rejects after ms).
 */
export async function startCollector() {
  const queue = [], waiting = [];
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      res.writeHead(204, { "Access-Control-Allow-Origin": "*" });
      res.end();
      if (req.method !== "POST") return;
      let r;
      try { r = JSON.parse(body); } catch { r = { error: `unparsable report: ${body.slice(0, 80)}` }; }
      if (waiting.length) waiting.shift()(r); else queue.push(r);
    });
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${server.address().port}/report`,
    next(ms = 120_000) {
      if (queue.length) return Promise.resolve(queue.shift());
      return new Promise((resolve, reject) => {
        const t = setTimeout(() => reject(new Error(`no page report within ${ms} ms`)), ms);
        waiting.push((r) => { clearTimeout(t); resolve(r); });
      });
    },
    close: () => server.close(),
  };
}

/** A fresh on-disk profile directory; remove() deletes it. */
export function newProfile() {
  const dir = mkdtempSync(join(tmpdir(), "codemode-profile-"));
  // Retries: a child process of a browser that just exited may still write
  // there (seen for several seconds on a busy machine). A directory that still
  // cannot be removed is left in the temp dir with a warning: it must not end
  // a bench run whose figures are already taken.
  return {
    dir,
    remove: () => {
      try {
        rmSync(dir, { recursive: true, force: true, maxRetries: 50, retryDelay: 200 });
      } catch (e) {
        console.warn(`could not remove the browser profile ${dir}: ${e.code ?? e.message}`);
      }
    },
  };
}

/**
 * launch starts chromium on profile with url; close() ends it the way a
 * window manager does (SIGTERM: a clean shutdown that flushes the caches)
 * and resolves when the process has exited. With capture, output() answers
 * what the browser printed (stdout and stderr together), e.g. V8's
 * --trace-* lines of a renderer started with --no-zygote.
 */
export function launch(profile, url, extra = [], capture = false) {
  const proc = spawn("/usr/bin/chromium", [...rawArgs, `--user-data-dir=${profile}`, ...extra, url], { stdio: capture ? ["ignore", "pipe", "pipe"] : "ignore" });
  const chunks = [];
  if (capture) for (const s of [proc.stdout, proc.stderr]) s.on("data", (d) => chunks.push(d));
  return { ...closable(proc), output: () => Buffer.concat(chunks).toString("utf8") };
}

/**
 * launchSettled is launch for a timed page: the browser first shows
 * bench/open.html of url's origin, which opens url after settleMs, so the page
 * is not timed against the browser's own start-up work.
 */
export function launchSettled(profile, url, settleMs = 2500, extra = [], capture = false) {
  const u = new URL(url);
  return launch(profile, `${u.origin}/bench/open.html?after=${settleMs}&to=${encodeURIComponent(u.pathname + u.search)}`, extra, capture);
}

function closable(proc) {
  const exited = new Promise((r) => proc.once("exit", r));
  return {
    proc,
    async close() {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill("SIGTERM");
      const t = setTimeout(() => proc.kill("SIGKILL"), 15_000);
      await exited;
      clearTimeout(t);
    },
  };
}

/** Bytes in the profile's wasm code cache ("Code Cache/wasm"), 0 when absent. */
export function wasmCacheBytes(profile) {
  try { return Number(execFileSync("du", ["-sb", join(profile, "Default", "Code Cache", "wasm")], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).split("\t")[0]); } catch { return 0; }
}

/** Removes the profile's wasm code cache (the A/B of the warm figure). */
export function dropWasmCache(profile) {
  rmSync(join(profile, "Default", "Code Cache", "wasm"), { recursive: true, force: true });
}
