#!/usr/bin/env node
// Runs a GOOS=js test binary in Node.js with the host WebAssembly engine wired
// (like Go's own lib/wasm/go_js_wasm_exec, plus hostengine.js and the compiled
// quickjs.wasm). Used as: go test -exec "node hostjs/go_js_wasm_exec.mjs".
import fs from "node:fs";
import path from "node:path";
import os from "node:os";
import crypto from "node:crypto";
import { createRequire } from "node:module";
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { installHostEngine } from "./hostengine.js";

if (process.argv.length < 3) {
  console.error("usage: go_js_wasm_exec.mjs [wasm binary] [arguments]");
  process.exit(1);
}
const here = path.dirname(fileURLToPath(import.meta.url));
const goroot = process.env.GOROOT || execFileSync("go", ["env", "GOROOT"], { encoding: "utf8" }).trim();
globalThis.require = createRequire(import.meta.url);
globalThis.fs = fs;
globalThis.path = path;
globalThis.crypto ??= crypto.webcrypto;
createRequire(import.meta.url)(path.join(goroot, "lib", "wasm", "wasm_exec.js"));

const qjsPath = process.env.CODEMODE_QUICKJS_WASM || path.join(here, "..", "node_modules", "quickjs-wasi", "quickjs.wasm");
const quickjsModule = new WebAssembly.Module(fs.readFileSync(qjsPath));

const go = new globalThis.Go();
go.argv = process.argv.slice(2);
go.env = Object.assign({ TMPDIR: os.tmpdir(), CODEMODE_HOST_ENGINE: "1" }, process.env);
go.exit = process.exit;
const host = installHostEngine(go, { quickjsModule });
const { instance } = await WebAssembly.instantiate(fs.readFileSync(process.argv[2]), go.importObject);
host.bind(instance);
process.on("exit", (code) => {
  if (code === 0 && !go.exited) {
    // deadlock: make Go print the error and stack traces
    go._pendingEvent = { id: 0 };
    go._resume();
  }
});
await go.run(instance);
