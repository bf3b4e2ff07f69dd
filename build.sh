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
  log "cross-compile checks: GOOS=js and GOOS=wasip1"
  GOOS=js GOARCH=wasm go build -o /dev/null ./core/...
  GOOS=wasip1 GOARCH=wasm go build -o /dev/null ./core/...
  build_wasip1
}

# build_wasip1: the GOOS=wasip1 command (build/codemode.wasip1.wasm) and reactor
# (build/codemode.wasip1.reactor.wasm, -buildmode=c-shared); see wasm/wasip1/ABI.md.
build_wasip1() {
  log "GOOS=wasip1: build/codemode.wasip1.wasm and build/codemode.wasip1.reactor.wasm"
  mkdir -p build
  GOOS=wasip1 GOARCH=wasm go build -trimpath -o build/codemode.wasip1.wasm ./wasm/wasip1/command
  GOOS=wasip1 GOARCH=wasm go build -trimpath -buildmode=c-shared -o build/codemode.wasip1.reactor.wasm ./wasm/wasip1/reactor
}

# test_wasip1: both wasip1 modules under wazero (command with preopens, reactor
# with a host tool, the Go example host), then the node:wasi example host.
# About 30 s with a warm wazero cache, 2-3 min cold (compiling 32 MB of Go).
test_wasip1() {
  deps
  log "wasip1 modules under wazero"
  go test -count=1 -timeout 15m ./wasm/wasip1/...
  log "wasip1 reactor under node:wasi (wasm/wasip1/examples/host.mjs)"
  node --no-warnings wasm/wasip1/examples/host.mjs build/codemode.wasip1.reactor.wasm
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
  test_wasip1
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
  run) run "$@" ;;
  test) test_ ;;
  bench) bench "$@" ;;
  fuzz) fuzz ;;
  build-wasip1) deps; build_wasip1 ;;
  test-wasip1) test_wasip1 ;;
  bench-wasip1) deps; build_wasip1; go run ./wasm/wasip1/bench "$@" ;;
  *) echo "usage: ./build.sh deps|build|run [codemode args]|test|bench|fuzz|build-wasip1|test-wasip1|bench-wasip1" >&2; exit 2 ;;
esac
