#!/usr/bin/env bash
# The one entry point: ./build.sh deps | build | run | test | bench | fuzz
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
  if [ $# -eq 0 ]; then
    set -- exec --wait -e 'const [t] = await tools.search("list shipments"); const s = await tools.callValue(t.id, {}); text(`${s.length} shipments`); return s.filter((x) => !x.paid && x.tons > 10);'
  fi
  go run ./cmd/codemode "$@"
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
  build >&2
  rm -rf build/e2e && mkdir -p build/e2e
  cp -r build/web build/e2e/web
  cp -r tests/e2e/hostjs/fixture build/e2e/hostjs
  exec build/codemode serve --config tests/e2e/hostjs/serve.json5 --addr "127.0.0.1:$port" --static build/e2e
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

# bench_web: the IDE's page load to first result (cold and warm) and its download
# raw/gzip/brotli in Chromium; writes its section of tests/bench/RESULTS.md.
bench_web() {
  build
  log "bench-web: page load to first result, bundle sizes (Debian chromium)"
  node tests/bench/web/bench.mjs
}

bench() {
  deps
  log "benchmarks (ours vs the quickjs-wasi reference on Node.js, same run)"
  go run ./tests/bench "$@"
}

# fuzz: run every fuzz target briefly (FUZZTIME=30s ./build.sh fuzz for longer).
fuzz() {
  deps
  local t="${FUZZTIME:-10s}"
  go list -f '{{.ImportPath}} {{.Dir}}' ./... | while read -r pkg dir; do
    for f in $(grep -ho '^func Fuzz[A-Za-z0-9_]*' "$dir"/*_test.go 2>/dev/null | sed 's/func //'); do
      log "fuzz $pkg $f ($t)"
      go test -run '^$' -fuzz "^$f\$" -fuzztime "$t" "$pkg"
    done
  done
}

cmd="${1:-help}"; shift || true
case "$cmd" in
  deps) deps ;;
  build) build ;;
  web) deps; web ;;
  bench-web) bench_web ;;
  run) run "$@" ;;
  test) test_ ;;
  bench) bench "$@" ;;
  fuzz) fuzz ;;
  test-hostjs-go) test_hostjs_go ;;
  build-web) deps; build_web ;;
  e2e-serve) e2e_serve "$@" ;;
  test-hostjs) test_hostjs ;;
  *) echo "usage: ./build.sh deps|build|run [codemode args]|test|bench|fuzz" >&2; exit 2 ;;
esac
