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
  log "cross-compile checks: GOOS=js and GOOS=wasip1"
  GOOS=js GOARCH=wasm go build -o /dev/null ./core/...
  GOOS=wasip1 GOARCH=wasm go build -o /dev/null ./core/...
  build_wasip1
}

# build_wasip1: the GOOS=wasip1 command (build/codemode.wasip1.wasm) and reactor
# (build/codemode.wasip1.reactor.wasm, -buildmode=c-shared); see wasm/wasip1/ABI.md.
build_wasip1() {
  deps
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

# bench-wasip1: module size, instantiate + first result, fresh VM, trivial exec,
# one host-tool round trip and compute vs the native engine (tests/bench/RESULTS.md).
bench_wasip1() {
  build_wasip1
  go run ./wasm/wasip1/bench "$@"
}

# run: the main job: set up, build, and serve the HTTP API (and the web IDE when
# build/web exists) on 127.0.0.1:8787 with the example toolset and server-everything
# (examples/codemode.json5). Any arguments are a codemode subcommand instead:
# ./build.sh run exec -e 'return 1'.
run() {
  deps
  mkdir -p build
  go build -trimpath -o build/codemode ./cmd/codemode
  if [ $# -eq 0 ]; then
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
  test_wasip1
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
