// Reads what the bench tools need of a .wasm file: each function's body size,
// the number of imported functions (a function index counts them first) and,
// for an unstripped Go build, the function names of its name section (Go
// writes "path_to_pkg.Func", '/' and '-' as '_'). wasmsize.mjs, lazycompile.mjs
// and tierup.mjs share it, and with figcpu.mjs and tsxstorm.mjs its reading
// of V8's compile trace.

/**
 * readModule parses the sections of a WebAssembly binary.
 * @param {Uint8Array} b the module's bytes
 * @returns {{imports: number, bodies: number[], names: Map<number, string>, data: number}}
 *   bodies[i] is the body size of function imports+i; names maps a function
 *   index to its name (empty for a stripped build); data is the data section's size.
 */
export function readModule(b) {
  let p = 8;
  const u = () => { let r = 0, sh = 0, x; do { x = b[p++]; r += (x & 0x7f) * 2 ** sh; sh += 7; } while (x & 0x80); return r; };
  const text = (l) => Buffer.from(b.buffer, b.byteOffset + p, l).toString("utf8");
  let imports = 0, data = 0;
  const bodies = [], names = new Map();
  while (p < b.length) {
    const id = b[p++], len = u(), end = p + len;
    if (id === 0) {
      const nl = u(), nm = text(nl); p += nl;
      if (nm === "name") {
        while (p < end) {
          const sid = b[p++], sl = u(), se = p + sl;
          if (sid === 1) for (let i = 0, c = u(); i < c; i++) { const idx = u(), l = u(); names.set(idx, text(l)); p += l; }
          p = se;
        }
      }
    } else if (id === 2) {
      for (let i = 0, c = u(); i < c; i++) {
        for (let s = 0; s < 2; s++) { const l = u(); p += l; } // module and field name (not `p += u()`: that adds to p as read before u() advanced it)
        const k = b[p++];
        if (k === 0) { u(); imports++; } else if (k === 1) { p++; const fl = b[p++]; u(); if (fl & 1) u(); } else if (k === 2) { const fl = b[p++]; u(); if (fl & 1) u(); } else p += 2;
      }
    } else if (id === 10) {
      for (let i = 0, c = u(); i < c; i++) { const l = u(); bodies.push(l); p += l; }
    } else if (id === 11) data += len;
    p = end;
  }
  return { imports, bodies, names, data };
}

/** goPackage is the package part of a Go function's name in the name section, this repository's prefix dropped. */
export const goPackage = (name) => (name ?? "?").replace(/^go:/, "").replace(/^github\.com_codemode_go_codemode_/, "").replace(/\..*$/, "");

/**
 * compileJobs reads V8's --trace-wasm-compilation-times lines in a browser's
 * output: one entry per compiled function, with the trace's own module token
 * (the text before '#'), the function index, the tier ("Liftoff" or
 * "TurboFan"), the job's wall time in ms, its body size and machine code in
 * bytes (code 0 when not printed).
 * @returns {{module: string, index: number, tier: string, ms: number, body: number, code: number}[]}
 */
export function compileJobs(output) {
  const jobs = [];
  for (const line of output.split("\n")) {
    const m = /^Compiled function (\S+)#(\d+) using (Liftoff|TurboFan), took (\d+) (μs|ms).*bodysize (\d+)(?: codesize (\d+))?/.exec(line);
    if (m) jobs.push({ module: m[1], index: Number(m[2]), tier: m[3], ms: Number(m[4]) / (m[5] === "ms" ? 1 : 1000), body: Number(m[6]), code: Number(m[7] ?? 0) });
  }
  return jobs;
}

/**
 * turbofanJobs is compileJobs' TurboFan jobs, each named by module: the one of
 * mods (name -> readModule result) whose function at that index has that body
 * size, else "other" (the trace's token does not say which file a module is).
 * @returns {{mod: string, index: number, body: number, ms: number, code: number}[]}
 */
export function turbofanJobs(output, mods) {
  return compileJobs(output).filter((j) => j.tier === "TurboFan").map(({ index, body, ms, code }) => ({
    mod: Object.keys(mods).find((k) => mods[k].bodies[index - mods[k].imports] === body) ?? "other",
    index, body, ms, code,
  }));
}
