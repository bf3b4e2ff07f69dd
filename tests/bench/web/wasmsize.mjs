// node tests/bench/web/wasmsize.mjs [-tags TAGS] [-n N] [-by module|package] PKG
// What each Go module (or package) adds to a GOOS=js binary: builds PKG
// unstripped into a temporary file, reads the function bodies of its code
// section and their names from its name section (wasmfile.mjs; Go writes "path_to_pkg.Func",
// '/' and '-' as '_'), and sums body bytes per module of `go list -deps`.
// Data (type descriptors, pclntab, strings) is reported as one figure: only
// build variants attribute it (tests/bench/RESULTS.md has both).
// -funcs PKG lists the largest function bodies of one package instead (the
// linker keeps only what is reachable, so these say which edge pulls it in).
import { execFileSync } from "node:child_process";
import { readFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliCompressSync, constants } from "node:zlib";
import { readModule } from "./wasmfile.mjs";

const argv = process.argv.slice(2);
const opt = (k, d) => (argv.includes(k) ? argv.splice(argv.indexOf(k), 2)[1] : d);
const tags = opt("-tags", ""), n = Number(opt("-n", 30)), by = opt("-by", "module"), funcs = opt("-funcs", "");
const pkg = argv[0] ?? "./wasm/codemode";
const env = { ...process.env, GOOS: "js", GOARCH: "wasm" };
const tmp = mkdtempSync(join(tmpdir(), "wasmsize-"));
const out = join(tmp, "x.wasm"), stripped = join(tmp, "s.wasm");
const t = tags ? ["-tags", tags] : [];
execFileSync("go", ["build", ...t, "-trimpath", "-o", out, pkg], { env, stdio: "inherit" });
execFileSync("go", ["build", ...t, "-trimpath", "-ldflags=-s -w", "-o", stripped, pkg], { env, stdio: "inherit" });
const deps = execFileSync("go", ["list", ...t, "-deps", "-f", "{{.ImportPath}} {{with .Module}}{{.Path}}{{end}}", pkg], { env, encoding: "utf8" })
  .trim().split("\n").map((l) => l.split(" "));
const b = readFileSync(out);
const s = readFileSync(stripped);
rmSync(tmp, { recursive: true });

const { imports, bodies, names, data } = readModule(b);
const self = "github.com/codemode-go/codemode";
const prefixes = deps.map(([ip, mod]) => [ip.replace(/[/-]/g, "_") + ".", ip, mod || "std"]).sort((x, y) => y[0].length - x[0].length);
const sums = new Map();
bodies.forEach((size, i) => {
  const name = (names.get(i + imports) || "?").replace(/^go:/, "");
  const hit = prefixes.find(([m]) => name.startsWith(m));
  if (funcs) { if (hit && hit[1] === funcs) sums.set(name, size); return; }
  const key = !hit ? "(runtime glue)" : by === "package" || hit[2] === self ? hit[1] : hit[2];
  sums.set(key, (sums.get(key) || 0) + size);
});
const code = bodies.reduce((a, x) => a + x, 0);
const MiB = (x) => (x / 1048576).toFixed(2) + " MiB";
const br = brotliCompressSync(s, { params: { [constants.BROTLI_PARAM_QUALITY]: 9 } }).length;
console.log(`${pkg}${tags ? ` -tags ${tags}` : ""}: stripped ${MiB(s.length)} raw, ${MiB(br)} brotli; code ${MiB(code)}, data ${MiB(data)}`);
console.log(`| ${funcs ? `function of ${funcs}` : by} | code bytes | share |\n|---|---:|---:|`);
for (const [k, v] of [...sums].sort((x, y) => y[1] - x[1]).slice(0, n)) console.log(`| ${k} | ${v} | ${((100 * v) / code).toFixed(1)}% |`);
