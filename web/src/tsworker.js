// The TypeScript language service of the IDE, in its own Web Worker and its
// own bundle (ts.worker.js, built by web/build with typescript pinned in
// package.json): the page loads it only after its core is ready, so it never
// delays the first result, and a slow check never blocks the page.
//
// It knows the cell (cell.ts or cell.js: a script, the body of an async
// function) and the declarations a guest program reads through API
// (tools/index.d.ts, mcp/*.d.ts) plus the IDE's globals.d.ts, all set by the
// page. Completion, hover and diagnostics come from @valtown/codemirror-ts.
import ts from "typescript";
import { createSystem, createVirtualTypeScriptEnvironment } from "@typescript/vfs";
import * as Comlink from "comlink";
import { createWorker } from "@valtown/codemirror-ts/worker";
import libs from "tslibs"; // web/build: {"/lib.es5.d.ts": "...", ...} for lib es2023

const options = {
  target: ts.ScriptTarget.ES2022,
  lib: ["es2023"],
  allowJs: true,
  checkJs: false,
  strict: true,
  noEmit: true,
  types: [],
  moduleDetection: ts.ModuleDetectionKind.Legacy, // the cell is a script: globals are shared
};

let env;
const base = createWorker(async () => {
  const fsMap = new Map(Object.entries(libs));
  env = createVirtualTypeScriptEnvironment(createSystem(fsMap), [], ts, options);
  return env;
});

// A cell is the body of an async function: top-level return and await are
// fine there, so TypeScript's complaints about them are not shown.
export const IGNORED_CODES = [1108, 1375, 1378, 1431, 1432];

Comlink.expose({
  ...base,
  /** setFiles makes path -> text the declarations besides the cell (other paths keep theirs). */
  setFiles(files) {
    if (!env) return;
    for (const [path, text] of Object.entries(files)) {
      if (env.getSourceFile(path)) env.updateFile(path, text || " ");
      else env.createFile(path, text || " ");
    }
  },
  getLints({ path }) {
    return base.getLints({ path, diagnosticCodesToIgnore: IGNORED_CODES });
  },
});
