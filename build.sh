#!/usr/bin/env bash
# The one entry point: ./build.sh deps | build | run | test | bench | bench-http | fuzz
# Every subcommand installs what it needs first, so each works on a fresh clone.
set -euo pipefail
cd "$(dirname "$0")"

QJS_VERSION=3.7.0
QJS_SHA256=c0bd8f296e18cf074969f6401b9ecb72609a1323818ec2b9bf7a8f8d740d1363
QJS_SRC=node_modules/quickjs-wasi/quickjs.wasm
QJS_DST=internal/quickjs/wasmbin/blob/quickjs.wasm

log() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }
die() { printf 'build.sh: %s\n' "$*" >&2; exit 1; }

sha256() { sha256sum "$1" | cut -d' ' -f1; }

# deps: npm packages from package-lock.json, then quickjs.wasm checksum-checked into
# the place go:embed reads it from. Idempotent and quick when nothing changed.
deps() {
  command -v go >/dev/null || die "go is not installed (need Go >= 1.26)"
  command -v npm >/dev/null || die "npm is not installed (need Node.js >= 20)"
  if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
    log "npm ci"
    npm ci --no-audit --no-fund --loglevel=error
  fi
  [ -f "$QJS_SRC" ] || die "$QJS_SRC is missing: run ./build.sh deps (npm ci installs quickjs-wasi@$QJS_VERSION)"
  local got; got=$(sha256 "$QJS_SRC")
  [ "$got" = "$QJS_SHA256" ] || die "$QJS_SRC has sha256 $got, want $QJS_SHA256 (quickjs-wasi@$QJS_VERSION); run: rm -rf node_modules && ./build.sh deps"
  if [ ! -f "$QJS_DST" ] || [ "$(sha256 "$QJS_DST")" != "$QJS_SHA256" ]; then
    cp "$QJS_SRC" "$QJS_DST"
    log "placed quickjs.wasm ($QJS_VERSION) at $QJS_DST"
  fi
  go mod download
}

build() {
  deps
  log "go build"
  mkdir -p build
  go build -o build/codemode ./cmd/codemode
  web
  build_web
  log "cross-compile checks: GOOS=js and GOOS=wasip1"
  GOOS=js GOARCH=wasm go build -o /dev/null ./core/...
  GOOS=wasip1 GOARCH=wasm go build -o /dev/null ./core/...
}

# build_web: build/web/ for JavaScript hosts: the hostjs shim, codemode.wasm
# (GOOS=js, -trimpath, stripped), quickjs.wasm (checksum-checked again), the Go
# toolchain's own wasm_exec.js, and .gz/.br variants of each. Never committed.
build_web() {
  deps
  local out=build/web
  mkdir -p "$out"
  log "build/web: codemode.wasm (GOOS=js)"
  GOOS=js GOARCH=wasm go build -trimpath -ldflags="-s -w" -o "$out/codemode.wasm" ./wasm/codemode
  local got; got=$(sha256 "$QJS_SRC")
  [ "$got" = "$QJS_SHA256" ] || die "$QJS_SRC has sha256 $got, want $QJS_SHA256"
  cp "$QJS_SRC" "$out/quickjs.wasm"
  cp "$(go env GOROOT)/lib/wasm/wasm_exec.js" "$out/wasm_exec.js"
  cp hostjs/codemode.js hostjs/codemode.d.ts hostjs/core.js hostjs/hostengine.js hostjs/codemode.worker.js "$out/"
  echo '{"type": "module"}' > "$out/package.json"
  node -e '
    const fs = require("fs"), zlib = require("zlib"), dir = process.argv[1];
    for (const f of fs.readdirSync(dir)) {
      if (/\.(gz|br)$/.test(f) || f === "package.json") continue;
      const b = fs.readFileSync(dir + "/" + f);
      fs.writeFileSync(dir + "/" + f + ".gz", zlib.gzipSync(b, { level: 9 }));
      fs.writeFileSync(dir + "/" + f + ".br", zlib.brotliCompressSync(b, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 9 } }));
    }' "$out"
}

# run: the main job: set up, build, and serve the HTTP API (and the web IDE when
# build/web exists) on 127.0.0.1:8787 with the example toolset and server-everything
# (examples/codemode.json5). Any arguments are a codemode subcommand instead:
# ./build.sh run exec -e 'return 1'.
# web: the IDE (web/) bundled with esbuild's Go API into build/web (ide.js with
# CodeMirror 6, ide.css, index.html); the hostjs shim's files sit beside them.
# build_web (after it in build) writes the .gz/.br variants; stale ones of an
# earlier build are removed here so a server never sends an old bundle.
web() {
  log "web IDE -> build/web"
  go run ./web/build -out build/web
  rm -f build/web/ide.js.gz build/web/ide.js.br build/web/ide.css.gz build/web/ide.css.br build/web/index.html.gz build/web/index.html.br
}

# run: the main job. Today: a cell against the example toolset; pass exec flags through.

run() {
  deps
  mkdir -p build
  go build -trimpath -o build/codemode ./cmd/codemode
  if [ $# -eq 0 ]; then
    build_web # the web IDE and the hostjs files served at /
    set -- serve --config examples/codemode.json5 --addr 127.0.0.1:8787
  fi
  exec build/codemode "$@"
}

# bench-http: the load run against a real codemode serve on 127.0.0.1 (50 sessions x
# 20 exec/wait cycles); prints throughput, latency percentiles, peak RSS and the
# no-loss checks. Pass flags through, e.g. ./build.sh bench-http -sessions 10.
bench_http() {
  deps
  mkdir -p build
  go build -trimpath -o build/codemode ./cmd/codemode
  go run ./tests/bench/httpload -bin build/codemode "$@"
}

test_() {
  deps
  log "go vet"
  go vet ./...
  log "go test"
  go test -race -count=1 -timeout 20m ./...
  log "cross-compile checks: GOOS=js and GOOS=wasip1"
  GOOS=js GOARCH=wasm go build -o /dev/null ./core/...
  GOOS=wasip1 GOARCH=wasm go build -o /dev/null ./core/...
  fuzz_brief
  test_hostjs
}

# test_hostjs_go: the core's suites under GOOS=js in Node.js on the host's own
# WebAssembly engine (core/engine/jsengine through hostjs/go_js_wasm_exec.mjs).
test_hostjs_go() {
  deps
  log "GOOS=js suites on the host engine in Node.js"
  GOOS=js GOARCH=wasm go test -count=1 -timeout 10m -exec "node $PWD/hostjs/go_js_wasm_exec.mjs" \
    ./core/ ./core/engine/jsengine/ ./internal/quickjs/
}

# e2e_serve PORT: the server of the Playwright suites (playwright.config.ts):
# build/e2e/web = build/web, build/e2e/hostjs = the hostjs test page, served by
# the real codemode serve with the example toolset and server-everything.
e2e_serve() {
  local port="${1:?usage: ./build.sh e2e-serve PORT}"
  mkdir -p build
  build > build/e2e-build.log 2>&1 || { cat build/e2e-build.log >&2; die "build failed"; }
  rm -rf build/e2e && mkdir -p build/e2e
  cp -r build/web build/e2e/web
  cp -r tests/e2e/hostjs/fixture build/e2e/hostjs
  exec build/codemode serve --config tests/e2e/hostjs/serve.json5 --addr "127.0.0.1:$port" --static build/e2e 2> build/e2e/serve.log
}

# test_hostjs: the hostjs suites: GOOS=js core suites in Node, node --test for
# the inline mode, Playwright specs in Chromium (tests/e2e/hostjs).
test_hostjs() {
  test_hostjs_go
  build
  log "node --test hostjs (inline mode)"
  node --test hostjs/
  log "Playwright: tests/e2e/hostjs (Debian chromium)"
  npx playwright test tests/e2e/hostjs
}

# bench_hostjs: ours vs quickjs-wasi's own host in Debian's Chromium (one page,
# one run); figures for tests/bench/RESULTS.md. Extra args go to run.mjs (--out FILE).
bench_hostjs() {
  build
  log "bench-hostjs: staging build/bench-hostjs"
  rm -rf build/bench-hostjs && mkdir -p build/bench-hostjs/quickjs-wasi
  cp -r build/web build/bench-hostjs/web
  cp -r tests/bench/hostjs/page build/bench-hostjs/page
  cp tests/bench/workloads.json build/bench-hostjs/
  cp node_modules/quickjs-wasi/dist/*.js build/bench-hostjs/quickjs-wasi/
  GOOS=js GOARCH=wasm go build -trimpath -ldflags="-s -w" -o build/bench-hostjs/driver.wasm ./tests/bench/hostjs/driver
  node tests/bench/hostjs/run.mjs "$@"
}

bench() {
  deps
  log "benchmarks (ours vs the quickjs-wasi reference on Node.js, same run)"
  go run ./tests/bench "$@"
}

# bench-limits: overshoot past timeoutMs of every long built-in on both wazero
# engines, and what the loop guard costs against no guard and wazero's
# WithCloseOnContextDone (tests/bench/RESULTS.md, "Limits"). Takes ~2-4 min.
bench_limits() {
  deps
  log "time limit: overshoot per long built-in, cost of stopping guests from outside"
  go run ./tests/benchlimits "$@"
}

# fuzz: run every fuzz target for a fixed short time each (FUZZTIME=30s ./build.sh fuzz
# for longer). Every go test run already replays the committed corpora
# (testdata/fuzz/FuzzX in each package) and the f.Add seeds; a finding is written
# there by go test and stays as a regression case once committed.
fuzz() {
  deps
  fuzz_targets "${FUZZTIME:-10s}"
}

# fuzz_brief: the test command's pass, 1s per target (most of its time is the
# instrumented build of each package, shared with the build cache).
fuzz_brief() {
  log "brief fuzz pass (${FUZZTIME:-1s} per target)"
  fuzz_targets "${FUZZTIME:-1s}"
}

# fuzz_targets TIME: every Fuzz function of every package, one go test -fuzz each
# (go test accepts only one fuzz target per run).
fuzz_targets() {
  local t="$1" pkg dir f
  go list -f '{{.ImportPath}} {{.Dir}}' ./... | while read -r pkg dir; do
    for f in $(grep -ho '^func Fuzz[A-Za-z0-9_]*' "$dir"/*_test.go 2>/dev/null | sed 's/func //'); do
      log "fuzz $pkg $f ($t)"
      go test -run '^$' -fuzz "^$f\$" -fuzztime "$t" "$pkg" || die "fuzz $f in $pkg found a failing input (see $dir/testdata/fuzz/$f)"
    done
  done
}

# Dispatch: every subcommand is the function of the same name ('-' becomes '_'; test is
# test_ because `test` is a shell builtin). Adding a subcommand = adding a function.
cmd="${1:-help}"; shift || true
fn="${cmd//-/_}"; [ "$fn" = test ] && fn=test_
case "$fn" in help|log|die|sha256|"") fn="" ;; esac
if [ -n "$fn" ] && declare -F "$fn" >/dev/null; then
  "$fn" "$@"
else
  subs=$(declare -F | awk '{print $3}' | grep -vE '^(log|die|sha256)$|^_' | sed 's/^test_$/test/; s/_/-/g' | tr '\n' '|')
  echo "usage: ./build.sh ${subs%|}" >&2; exit 2
fi
