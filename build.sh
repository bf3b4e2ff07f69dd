#!/usr/bin/env bash
# The one entry point: ./build.sh help lists the subcommands (run, test, build, ...).
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

# stale OUT INPUTS...: true when OUT is missing or a file under INPUTS (files or
# directories) is newer than it, so a step with nothing changed is skipped.
stale() {
  local out=$1; shift
  [ -e "$out" ] || return 0
  [ -n "$(find "$@" -newer "$out" -type f -print -quit 2>/dev/null)" ]
}
# GO_INPUTS: every directory the built Go programs import from (go list -deps), and go.mod/go.sum.
GO_INPUTS=(cmd core internal edge examples wasm go.mod go.sum)

# step WHAT CMD...: says what a long step does, runs it, then how long it took.
step() {
  local what=$1 t0=$SECONDS; shift
  log "$what"
  "$@"
  log "$what: done in $((SECONDS - t0)) s"
}

# go_build_cmd: build/codemode, only when a Go input changed.
go_build_cmd() {
  mkdir -p build
  if stale build/codemode "${GO_INPUTS[@]}"; then
    step "go build build/codemode (the first build compiles every dependency: a few minutes)" go build -trimpath -o build/codemode ./cmd/codemode
  else
    log "build/codemode is up to date"
  fi
}

# deps: npm packages from package-lock.json, then quickjs.wasm checksum-checked into
# the place go:embed reads it from. Idempotent and quick when nothing changed.
deps() {
  command -v go >/dev/null || die "go is not installed (need Go >= 1.26)"
  command -v npm >/dev/null || die "npm is not installed (need Node.js >= 20)"
  if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
    step "npm ci (package-lock.json: CodeMirror, TypeScript, Playwright, wrangler, quickjs-wasi)" npm ci --no-audit --no-fund --loglevel=error
  fi
  [ -f "$QJS_SRC" ] || die "$QJS_SRC is missing: run ./build.sh deps (npm ci installs quickjs-wasi@$QJS_VERSION)"
  local got; got=$(sha256 "$QJS_SRC")
  [ "$got" = "$QJS_SHA256" ] || die "$QJS_SRC has sha256 $got, want $QJS_SHA256 (quickjs-wasi@$QJS_VERSION); run: rm -rf node_modules && ./build.sh deps"
  if [ ! -f "$QJS_DST" ] || [ "$(sha256 "$QJS_DST")" != "$QJS_SHA256" ]; then
    cp "$QJS_SRC" "$QJS_DST"
    log "placed quickjs.wasm ($QJS_VERSION) at $QJS_DST"
  fi
  go mod download
  template_image
}

# template_image: $QJS_IMAGE, core/internal/guest's QuickJS template made once from the
# placed quickjs.wasm (imagegen) and embedded, so a start loads it instead of
# building it; git-ignored like quickjs.wasm. Remade only when an input changed.
QJS_IMAGE=core/internal/guest/image/template.img
template_image() {
  stale "$QJS_IMAGE" "$QJS_DST" core/internal/guest internal/quickjs internal/engine go.sum || return 0
  step "template image -> $QJS_IMAGE" go run ./core/internal/guest/imagegen "$QJS_IMAGE"
}

build() {
  deps
  go_build_cmd
  web
  build_web
  log "cross-compile checks: GOOS=js and GOOS=wasip1"
  GOOS=js GOARCH=wasm go build -o /dev/null ./core/...
  GOOS=wasip1 GOARCH=wasm go build -o /dev/null ./core/...
  build_wasip1
}

# build_wasip1: the GOOS=wasip1 command (build/codemode.wasip1.wasm) and reactor
# (build/codemode.wasip1.reactor.wasm, -buildmode=c-shared); see wasm/wasip1/ABI.md.
build_wasip1() {
  deps
  mkdir -p build
  if ! stale build/codemode.wasip1.wasm "${GO_INPUTS[@]}" && ! stale build/codemode.wasip1.reactor.wasm "${GO_INPUTS[@]}"; then
    log "GOOS=wasip1 modules are up to date"; return
  fi
  step "GOOS=wasip1: build/codemode.wasip1.wasm" env GOOS=wasip1 GOARCH=wasm go build -trimpath -o build/codemode.wasip1.wasm ./wasm/wasip1/command
  step "GOOS=wasip1: build/codemode.wasip1.reactor.wasm" env GOOS=wasip1 GOARCH=wasm go build -trimpath -buildmode=c-shared -o build/codemode.wasip1.reactor.wasm ./wasm/wasip1/reactor
}

# test_wasip1: both wasip1 modules under wazero (command with preopens, reactor,
# the wasip1 leg of the differential test over tests/hostile: ~30 s; reactor
# with a host tool, the Go example host), then the node:wasi example host.
# Measured: 30 s + 13 s (node) with the modules built and the wazero cache warm;
# 7 min wall (1 min CPU) from scratch on a 2-core box at load 28 (two 32 MB links
# and wazero compiling them). The wazero cache is in $TMPDIR/codemode-wazero-cache.
test_wasip1() {
  build_wasip1 # the shipped modules node:wasi runs below (the wazero suites build their demo variants themselves)
  log "wasip1 modules under wazero"
  go test -count=1 -timeout 15m ./wasm/wasip1/... ./internal/wasip1/... ./internal/wasmtest/...
  log "wasip1 reactor under node:wasi (wasm/wasip1/examples/host.mjs)"
  node --no-warnings wasm/wasip1/examples/host.mjs build/codemode.wasip1.reactor.wasm
  log "wasip1 command under node:wasi (a cell file through the /data preopen)"
  local out; out=$(cd wasm/wasip1/examples && node --no-warnings command.mjs ../../../build/codemode.wasip1.wasm exec -f /data/cell.js)
  case "$out" in *'"value":[2,4]'*'"text":"from a file"'*) ;; *) die "wasip1 command under node:wasi printed: $out" ;; esac
  log "wasip1 command: the shipped module refuses exampleTools, naming the demo build"
  out=$(cd wasm/wasip1/examples && node --no-warnings command.mjs ../../../build/codemode.wasip1.wasm exec --config /data/exampletools.json5 -e 'return 1' 2>&1) && die "the shipped wasip1 command accepted exampleTools: $out"
  case "$out" in *'exampleTools: this build has no example tools'*codemode_demo*) ;; *) die "wasip1 command: exampleTools answered: $out" ;; esac
}

# bench-wasip1: module size, instantiate + first result, fresh VM, trivial exec,
# one host-tool round trip and compute vs the native engine (tests/bench/RESULTS.md).
bench_wasip1() {
  build_wasip1
  go run ./wasm/wasip1/bench "$@"
}

# build_web: build/web/ for JavaScript hosts: the hostjs shim, codemode.wasm
# (GOOS=js, -trimpath, stripped), quickjs.wasm (checksum-checked by deps, then loop-guarded), the Go
# toolchain's own wasm_exec.js, and .gz/.br variants of each (.zst too for the
# .wasm files). Never committed.
# guarded_quickjs: $QJS_GUARDED, the pinned quickjs.wasm with the loop guard
# applied at build time by the rewriter wazeroengine applies at load time: what
# the host engine runs (build/web, the GOOS=js suites in Node.js).
QJS_GUARDED=build/quickjs.guarded.wasm
guarded_quickjs() {
  deps # dies unless $QJS_SRC has the pinned sha256
  mkdir -p build
  stale "$QJS_GUARDED" "$QJS_SRC" internal/engine/internal/loopguard || return 0
  step "loop guard -> $QJS_GUARDED" go run ./internal/engine/internal/loopguard/guardwasm "$QJS_SRC" "$QJS_GUARDED"
}

build_web() {
  # The host engine runs what the shim compiles, so it gets the module with the
  # loop guard applied (the same rewriter wazeroengine applies at load time):
  # a long built-in then polls the core and stops at the run's deadline.
  guarded_quickjs
  local out=build/web
  mkdir -p "$out"
  # codemode.wasm: the core as a page runs it (codemode_hostjs: no wazero,
  # no esbuild, no MCP SDK, no embedded quickjs.wasm); tsx.wasm: the
  # TypeScript transform, loaded on the first TypeScript cell;
  # codemode.wazero.wasm: the whole core, loaded only for engine "wazero".
  # Each is rebuilt only when a Go input changed (stale).
  if stale "$out/codemode.wasm" "${GO_INPUTS[@]}"; then
    step "build/web: codemode.wasm (GOOS=js, the page's core)" env GOOS=js GOARCH=wasm go build -tags codemode_hostjs -trimpath -ldflags="-s -w" -o "$out/codemode.wasm" ./wasm/codemode
  else
    log "build/web/codemode.wasm is up to date"
  fi
  # codemode.demo.wasm: codemode.wasm with the demo packages (codemode_demo:
  # the Issues namespace), for the web IDE (options.demo) and the Worker's
  # dev and test builds; the shipped codemode.wasm links none.
  if stale "$out/codemode.demo.wasm" "${GO_INPUTS[@]}"; then
    step "build/web: codemode.demo.wasm (GOOS=js, the page's core with the demos, for the IDE)" env GOOS=js GOARCH=wasm go build -tags codemode_hostjs,codemode_demo -trimpath -ldflags="-s -w" -o "$out/codemode.demo.wasm" ./wasm/codemode
  fi
  if stale "$out/tsx.wasm" "${GO_INPUTS[@]}"; then
    step "build/web: tsx.wasm (GOOS=js, the TypeScript transform)" env GOOS=js GOARCH=wasm go build -trimpath -ldflags="-s -w" -o "$out/tsx.wasm" ./wasm/tsx
  fi
  if stale "$out/codemode.wazero.wasm" "${GO_INPUTS[@]}"; then
    step "build/web: codemode.wazero.wasm (GOOS=js, the whole core for engine wazero)" env GOOS=js GOARCH=wasm go build -trimpath -ldflags="-s -w" -o "$out/codemode.wazero.wasm" ./wasm/codemode
  fi
  # -p keeps the sources' times, so unchanged files are not compressed again.
  cp -p "$QJS_GUARDED" "$out/quickjs.wasm"
  cp -p "$(go env GOROOT)/lib/wasm/wasm_exec.js" "$out/wasm_exec.js"
  # core.js and hostengine.js stay modules of their own for Node.js and the
  # benchmarks; a page loads codemode.js and codemode.worker.js as bundles
  # with them inside, and every asset by its versioned name, NAME?v=HASH,
  # which codemode serve answers as immutable (hostjs/build says why).
  cp -p hostjs/codemode.d.ts hostjs/core.js hostjs/hostengine.js "$out/"
  step "build/web: codemode.js and codemode.worker.js bundled, assets.js" go run ./hostjs/build -src hostjs -out "$out"
  [ -f "$out/package.json" ] || echo '{"type": "module"}' > "$out/package.json"
  step "build/web: .gz and .br of the files changed since their last compression" node -e '
    const fs = require("fs"), zlib = require("zlib"), dir = process.argv[1];
    const newer = (a, b) => !fs.existsSync(b) || fs.statSync(a).mtimeMs > fs.statSync(b).mtimeMs;
    for (const f of fs.readdirSync(dir)) {
      if (/\.(gz|br|zst)$/.test(f) || f === "package.json") continue;
      const p = dir + "/" + f;
      if (!newer(p, p + ".gz") && !newer(p, p + ".br")) continue;
      const b = fs.readFileSync(p);
      process.stderr.write(`    ${f} (${(b.length / 1048576).toFixed(1)} MiB)\n`);
      fs.writeFileSync(dir + "/" + f + ".gz", zlib.gzipSync(b, { level: 9 }));
      fs.writeFileSync(dir + "/" + f + ".br", zlib.brotliCompressSync(b, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 9 } }));
    }' "$out"
  zstd_wasm "$out"
}

# zstd_wasm writes DIR/*.wasm.zst for the .wasm files changed since their last
# compression, with Debian's zstd: level 19 (smaller than brotli -9 for
# codemode.wasm) and a window of 8 MiB (wlog 23), the most Chromium's zstd
# decoder accepts (RFC 8878's limit for HTTP). codemode serve prefers .zst: a
# browser decodes it several times faster than brotli, which on a warm load
# it does again from its HTTP cache (edge/static.go). Without zstd installed
# the build says so and removes stale .zst files: pages then get brotli.
zstd_wasm() {
  local dir=$1 f todo=()
  for f in "$dir"/*.wasm; do
    if [ "$f" -nt "$f.zst" ]; then todo+=("$f"); fi
  done
  [ ${#todo[@]} -gt 0 ] || return 0
  if ! command -v zstd >/dev/null; then
    log "build/web: no zstd command (apt-get install zstd): .wasm files get no .zst variant, pages decode brotli (slower on a warm load)"
    for f in "${todo[@]}"; do rm -f "$f.zst"; done
    return 0
  fi
  step "build/web: .zst of the .wasm files changed since their last compression (${#todo[@]})" \
    bash -c 'for f; do zstd -q -f -19 --zstd=wlog=23 "$f" -o "$f.zst" || exit 1; done' _ "${todo[@]}"
}

# web: the IDE (web/) bundled with esbuild's Go API into build/web (ide.js with
# CodeMirror 6, ide.css, index.html); the hostjs shim's files sit beside them.
# build_web (after it in build) writes the .gz/.br variants; stale ones of an
# earlier build are removed here so a server never sends an old bundle.
web() {
  deps
  if ! stale build/web/ide.js web package-lock.json; then log "build/web: the IDE bundle is up to date"; return; fi
  step "web IDE (ide.js, ts.worker.js, ide.css, index.html) -> build/web" go run ./web/build -out build/web
  rm -f build/web/ts.worker.js.gz build/web/ts.worker.js.br
  rm -f build/web/ide.js.gz build/web/ide.js.br build/web/ide.css.gz build/web/ide.css.br build/web/index.html.gz build/web/index.html.br
}

# run: the main job: set up, build, and serve the HTTP API (and the web IDE when
# build/web exists) on 127.0.0.1:8787 with the example toolset and server-everything
# (examples/codemode.json5). Any arguments are a codemode subcommand instead:
# ./build.sh run exec -e 'return 1'.
run() {
  deps
  go_build_cmd
  if [ $# -eq 0 ]; then
    web # the web IDE (ide.js, ide.css, index.html) ...
    build_web # ... and the hostjs files beside it, served at /
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

# soak: the load-and-fault soak (issue 15) against real codemode serve processes on
# 127.0.0.1: faulty tools, disconnects, TTL expiry, two principals, the 64-run limit,
# then 10,000 trivial execs with the server's RSS and goroutines (its opt-in
# --metrics-addr) sampled. Bounded (-max-time 5m);
# scale with flags, e.g. ./build.sh soak -execs 2000 -cycles 8. Not in the test command.
soak() {
  deps
  mkdir -p build
  go build -trimpath -o build/codemode ./cmd/codemode
  go run ./tests/bench/httpload -soak -bin build/codemode "$@"
}

# soak-worker: the same soak driver against the built Worker on local workerd (two
# wrangler dev runs: TTL 2 s for the mixed load and flatness, 600 s for the 64-run
# limit in one Durable Object), scaled to a few minutes (6 sessions x 10 cycles, 600
# trivial execs, timeoutMs 2000); workerd's RSS from /proc. Not in the test command.
soak_worker() {
  worker --demo
  go run ./tests/bench/httpload -soak -worker -root "$PWD" "$@"
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
  test_providertypes
  test_hostjs
  test_mcp
  test_hostile_js
  test_ide
  test_worker
  test_gomodule
  test_buildsh
  fuzz_brief
}

# test_mcp: Code Mode as an MCP server (codemode mcp over stdio, serve's /mcp over
# Streamable HTTP) against the official MCP TypeScript SDK's client (tests/mcp, ~10 s).
test_mcp() {
  deps
  log "go build (build/codemode for the MCP client suite)"
  mkdir -p build
  go build -o build/codemode ./cmd/codemode
  log "node --test tests/mcp (the MCP TypeScript SDK client, stdio and Streamable HTTP)"
  node --test tests/mcp/
}

# test_providertypes: the surface's anthropic, openai and openai-responses shapes,
# made by codemode surface in this run, type-checked with tsc against the
# official SDKs' types (tests/providertypes/check.sh, ~30 s).
test_providertypes() {
  deps
  log "provider tool shapes vs the OpenAI and Anthropic SDK types (tsc)"
  tests/providertypes/check.sh
}

# test_ide: the web IDE's Playwright suite (tests/e2e/ide) in Debian's chromium,
# against `codemode serve` with the IDE at / and a static copy on another origin
# (playwright.config.ts starts both; its first webServer builds everything).
test_ide() {
  deps
  log "Playwright: tests/e2e/ide (the web IDE, Debian chromium)"
  npx playwright test tests/e2e/ide
}

# test-gomodule: a fresh module that requires this one through a replace onto a
# clean copy (no node_modules, no embedded quickjs.wasm) builds, gets the
# documented error, follows it (npm i quickjs-wasi@3.7.0 + the path) and runs a
# cell (tests/gomodule/check.sh, ~20-60 s).
test_gomodule() {
  log "go get users: tests/gomodule/check.sh"
  tests/gomodule/check.sh
}

# test-buildsh: this script's own checks (tests/buildsh): help, an unknown
# subcommand, and after a build a no-change rebuild that skips every step.
test_buildsh() {
  build_web; web; go_build_cmd
  log "tests/buildsh: help, unknown subcommands, the no-change rebuild"
  BUILDSH_NOCHANGE=1 go test -count=1 ./tests/buildsh/
}

# test_hostjs_go: the core's suites under GOOS=js in Node.js on the host's own
# WebAssembly engine (internal/engine/jsengine through hostjs/go_js_wasm_exec.mjs).
# test_hostile_js: the hostile battery (tests/hostile) under GOOS=js on the host's
# own WebAssembly engine in Node.js, the same table as the native run.
test_hostile_js() {
  guarded_quickjs
  log "hostile battery under GOOS=js (host engine in Node.js, loop-guarded quickjs.wasm)"
  CODEMODE_QUICKJS_WASM="$PWD/$QJS_GUARDED" GOOS=js GOARCH=wasm go test -count=1 -timeout 10m -exec "node $PWD/hostjs/go_js_wasm_exec.mjs" ./tests/hostile/
}

test_hostjs_go() {
  guarded_quickjs
  log "GOOS=js suites on the host engine in Node.js (loop-guarded quickjs.wasm)"
  # Skipped: the long built-ins on both wazero engines (wazero's interpreter
  # under GOOS=js would take minutes per case; the host engine runs the same
  # cases in tests/hostile), wazero's Close, and the two tests that need other
  # goroutines to run while a guest is inside a long built-in: the host
  # engine's poll does not yield (see jsengine exportHostPoll).
  CODEMODE_QUICKJS_WASM="$PWD/$QJS_GUARDED" GOOS=js GOARCH=wasm go test -count=1 -timeout 15m -exec "node $PWD/hostjs/go_js_wasm_exec.mjs" \
    -skip 'TestLongBuiltinsEndAsTimeoutOnBothEngines|TestCloseLeavesAHostEngineOpen|TestCancellingTheContextStopsALongBuiltin|TestOtherGoroutinesRunWhileAGuestIsInsideABuiltin' \
    ./core/ ./internal/engine/jsengine/ ./internal/quickjs/ ./internal/jspromise/
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
  # web-unguarded: the same files with the pinned quickjs.wasm as quickjs-wasi
  # ships it, without the loop guard, so a spec can prove the worker's watchdog
  # still bounds a host that hands in such a module.
  cp -r build/web build/e2e/web-unguarded
  # Every precompressed copy goes with the guarded module, whatever encodings
  # the build writes (the server would answer one of them instead of the file).
  rm -f build/e2e/web-unguarded/quickjs.wasm.*
  cp "$QJS_SRC" build/e2e/web-unguarded/quickjs.wasm
  cp -r tests/e2e/hostjs/fixture build/e2e/hostjs
  exec build/codemode serve --config tests/e2e/hostjs/serve.json5 --addr "127.0.0.1:$port" --static build/e2e 2> build/e2e/serve.log
}

# test_hostjs: the hostjs suites: GOOS=js core suites in Node, node --test for
# the inline mode, Playwright specs in Chromium (tests/e2e/hostjs).
test_hostjs() {
  test_hostjs_go
  build
  log "node --test hostjs (inline mode)"
  # --test-force-exit: a closed inline core leaves its Go program parked on the event loop.
  node --test --test-force-exit hostjs/
  log "Playwright: tests/e2e/hostjs (Debian chromium)"
  npx playwright test tests/e2e/hostjs
}

# bench_web: the page figures of issue 23 in Debian's Chromium beside their
# targets (first result vs quickjs-wasi's own host, cold and warm; the IDE's
# bytes until its first result; the first TypeScript cell; 10 client-tool
# calls), from build/bench-web = build/web + the bench pages + quickjs-wasi's
# host; writes its section of tests/bench/RESULTS.md. BENCH_WEB_ROUNDS=N.
bench_web() {
  build
  log "bench-web: staging build/bench-web"
  rm -rf build/bench-web && cp -r build/web build/bench-web
  cp -r tests/bench/web/page build/bench-web/bench
  mkdir -p build/bench-web/bench/quickjs-wasi
  cp node_modules/quickjs-wasi/dist/*.js "$QJS_SRC" build/bench-web/bench/quickjs-wasi/
  log "bench-web: page figures (Debian chromium)"
  node tests/bench/web/bench.mjs
}

# bench_hostjs: ours vs quickjs-wasi's own host in Debian's Chromium (one page,
# one run); figures for tests/bench/RESULTS.md. Extra args go to run.mjs (--out FILE,
# --rounds N: timed rounds per side, default 6; --ours plain: ours on the
# unguarded quickjs.wasm, the A/B of the loop guard).
# bench-pollrate: the loop guard's polls per CPU second inside each long
# built-in on V8 (hostjs inline mode in Node.js), which sizes the Worker's poll
# budget (edge/worker WorkerdPollsPerSecond). Takes ~1-3 min.
bench_pollrate() {
  build
  node tests/bench/hostjs/pollrate.mjs
}

# bench-typed: the IDE's typed help and Stop in Chromium: ts.worker.js size,
# editor click to "types: ready", the longest main-thread task meanwhile, and
# Stop's click-to-result time (tests/bench/web/typed.mjs; BENCH_TYPED_ROUNDS).
bench_typed() {
  build
  log "bench-typed: the language service worker and Stop (Debian chromium)"
  node tests/bench/web/typed.mjs
}

bench_hostjs() {
  build
  log "bench-hostjs: staging build/bench-hostjs"
  rm -rf build/bench-hostjs && mkdir -p build/bench-hostjs/quickjs-wasi
  cp -r build/web build/bench-hostjs/web
  cp -r tests/bench/hostjs/page build/bench-hostjs/page
  cp tests/bench/workloads.json build/bench-hostjs/
  cp node_modules/quickjs-wasi/dist/*.js "$QJS_SRC" build/bench-hostjs/quickjs-wasi/
  GOOS=js GOARCH=wasm go build -trimpath -ldflags="-s -w" -o build/bench-hostjs/driver.wasm ./tests/bench/hostjs/driver
  node tests/bench/hostjs/run.mjs "$@"
}

bench() {
  deps
  log "benchmarks (ours vs the quickjs-wasi reference on Node.js, same run)"
  go run ./tests/bench "$@"
}

# bench-baseline [REV]: the end-to-end workloads (tests/bench/baseline, public
# core.Runtime API only) against REV (default b2c6de6, the core before the host
# wave) in one session: a temporary detached worktree of REV (never committed to,
# removed afterwards) builds the same driver, both run in ROUNDS (default 3)
# alternating rounds, and the new/old table prints (issue 8: "no workload worse").
# SCALE=0.2 for a smoke run. Takes ~2-4 min.
bench_baseline() {
  deps
  local rev=${1:-b2c6de6} rounds=${ROUNDS:-3} scale=${SCALE:-1}
  local tmp; tmp=$(mktemp -d /tmp/codemode-baseline.XXXXXX)
  log "bench-baseline: worktree of $rev in $tmp/old"
  git worktree add --detach "$tmp/old" "$rev" >/dev/null
  (cd "$tmp/old" && ./build.sh deps >/dev/null) || { git worktree remove --force "$tmp/old"; die "deps failed in the $rev worktree"; }
  mkdir -p "$tmp/old/zz_baseline" && cp tests/bench/baseline/main.go "$tmp/old/zz_baseline/"
  (cd "$tmp/old" && go build -o "$tmp/bin-old" ./zz_baseline) || { git worktree remove --force "$tmp/old"; die "the driver does not build against $rev"; }
  git worktree remove --force "$tmp/old"
  go build -o "$tmp/bin-new" ./tests/bench/baseline
  local olds="" news="" i
  for i in $(seq 1 "$rounds"); do
    log "round $i/$rounds: $rev, then this tree"
    "$tmp/bin-old" -cells tests/bench/e2e.json -scale "$scale" -out "$tmp/old$i.json"
    "$tmp/bin-new" -cells tests/bench/e2e.json -scale "$scale" -out "$tmp/new$i.json"
    olds="$olds${olds:+,}$tmp/old$i.json"; news="$news${news:+,}$tmp/new$i.json"
  done
  "$tmp/bin-new" -compare "$olds" "$news"
  rm -rf "$tmp"
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

# fuzz_brief: a quick pass, 1s per target, last in the test command (issue 15:
# "CI runs it briefly"). Most of its time is each package's instrumented build,
# shared with the build cache. A finding fails the command and names the
# target; go test saved the input under testdata/fuzz: fix the bug and commit
# that file, so it becomes a regression test that go test replays every run.
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
      fuzz_one "$pkg" "$dir" "$f" "$t"
    done
  done
}

# fuzz_one PKG DIR TARGET TIME: one go test -fuzz run. A finding always comes
# with "Failing input written to testdata/fuzz/..." and fails the command. Go
# 1.26's fuzz coordinator also fails a run with a bare "context deadline
# exceeded" when -fuzztime ends while a worker is mid-call on a busy machine
# (go.dev/issue/75804, fixed in Go 1.27): no input, nothing to reproduce. That
# one run is repeated; a second bare deadline is reported and passed over, any
# other failure fails.
fuzz_one() {
  local pkg="$1" dir="$2" f="$3" t="$4" out try rc
  out=$(mktemp)
  for try in 1 2; do
    log "fuzz $pkg $f ($t)"
    rc=0
    go test -run '^$' -fuzz "^$f\$" -fuzztime "$t" "$pkg" 2>&1 | tee "$out" || rc=$?
    [ "$rc" = 0 ] && { rm -f "$out"; return 0; }
    if grep -q 'Failing input written to' "$out" || ! grep -q '^    context deadline exceeded$' "$out"; then
      rm -f "$out"
      die "fuzz $f in $pkg failed (a found input is under $dir/testdata/fuzz/$f)"
    fi
    log "fuzz $f: Go's fuzz coordinator stopped on its own deadline without an input (go.dev/issue/75804)"
  done
  rm -f "$out"
  log "fuzz $f: the coordinator's deadline race twice in a row; no input was found, going on"
}

# --- Cloudflare Worker (edge/worker): the Go front + the session Durable Object ---
WORKER_OUT=build/worker
WORKER_CONFIG=edge/worker/wrangler.jsonc
# Local workerd (wrangler 4.86.0, the last on Node 20) knows dates up to this one.
WORKER_LOCAL_DATE=2026-05-03

# worker [--demo]: build/worker/ = index.mjs + session.mjs + ... (edge/worker/src), front.wasm
# (the Go front, codemode_relayonly), codemode.js + codemode.wasm + quickjs.wasm
# (hostjs inline mode, from ./build.sh build), wasm_exec.js (syumai's, which
# passes the runtime context {env, binding} to Go). Without --demo it is the
# shipped Worker (no demo package: exampleTools is refused); --demo (worker-dev,
# test-worker, bench-worker) builds the front with codemode_demo and puts
# codemode.demo.wasm in as codemode.wasm: the example toolset and Issues.
worker() {
  local tags=codemode_relayonly core=codemode.wasm
  case "${1:-}" in
    --demo) tags=codemode_relayonly,codemode_demo core=codemode.demo.wasm ;;
    "") ;;
    *) die "worker: unknown argument $1 (usage: ./build.sh worker [--demo])" ;;
  esac
  deps
  # build/web again when any source of it is newer than its codemode.wasm.
  if [ ! -f build/web/codemode.wasm ] || [ -n "$(find hostjs wasm core internal go.mod -newer build/web/codemode.wasm -type f -print -quit)" ]; then
    build_web
  fi
  for f in codemode.js "$core" quickjs.wasm tsx.wasm; do
    [ -f "build/web/$f" ] || die "build/web/$f is missing: ./build.sh build must write it (hostjs)"
  done
  log "worker: Go front (GOOS=js, $tags)"
  mkdir -p "$WORKER_OUT"
  GOOS=js GOARCH=wasm go build -tags "$tags" -trimpath -ldflags=-s -o "$WORKER_OUT/front.wasm" ./edge/worker/front
  local gen; gen=$(mktemp -d)
  go run github.com/syumai/workers/cmd/workers-assets-gen -mode=go -o "$gen" >/dev/null
  cp "$gen/wasm_exec.js" "$WORKER_OUT/wasm_exec.js"; rm -rf "$gen"
  for f in edge/worker/src/*.mjs; do
    case "$f" in *.test.mjs) ;; *) cp "$f" "$WORKER_OUT/" ;; esac
  done
  for f in build/web/*.js build/web/quickjs.wasm build/web/codemode.wasm build/web/tsx.wasm; do
    case "$(basename "$f")" in wasm_exec.js|worker.js|*.worker.js) continue ;; esac
    cp "$f" "$WORKER_OUT/"
  done
  cp "build/web/$core" "$WORKER_OUT/codemode.wasm"
  local raw gz
  raw=$(cat "$WORKER_OUT"/*.mjs "$WORKER_OUT"/*.js "$WORKER_OUT"/*.wasm | wc -c)
  gz=$(cat "$WORKER_OUT"/*.mjs "$WORKER_OUT"/*.js "$WORKER_OUT"/*.wasm | gzip -9 | wc -c)
  log "worker: $WORKER_OUT is $((raw / 1048576)) MiB raw, $((gz / 1048576)) MiB gzip (limit 64 MiB raw)"
  [ "$raw" -le $((64 * 1048576)) ] || die "the Worker bundle ($raw bytes) exceeds Cloudflare's 64 MiB limit"
}

# _wrangler_dev PORT INSPECTOR_PORT [extra wrangler args]: local workerd, offline and quiet.
_wrangler_dev() {
  local port=$1 insp=$2; shift 2
  WRANGLER_SEND_METRICS=false WRANGLER_SEND_ERROR_REPORTS=false CLOUDFLARE_CF_FETCH_ENABLED=false \
  WRANGLER_HIDE_BANNER=true WRANGLER_LOG_PATH="$PWD/build/wrangler-logs" \
    exec node_modules/.bin/wrangler dev --local -c "$WORKER_CONFIG" --ip 127.0.0.1 --port "$port" \
      --inspector-port "$insp" --show-interactive-dev-session=false --log-level log \
      --compatibility-date "$WORKER_LOCAL_DATE" --persist-to build/worker-state "$@"
}

# worker-dev [--port N]: build, then serve the Worker on 127.0.0.1 in the foreground.
# Without CODEMODE_TOKENS in the environment it runs without auth (local only);
# CODEMODE_CONFIG in the environment replaces wrangler.jsonc's config document.
worker_dev() {
  local port=8787
  while [ $# -gt 0 ]; do
    case "$1" in
      --port) port=$2; shift 2 ;;
      *) die "worker-dev: unknown argument $1 (usage: ./build.sh worker-dev [--port N])" ;;
    esac
  done
  worker --demo
  local vars=()
  if [ -n "${CODEMODE_TOKENS:-}" ]; then vars+=(--var "CODEMODE_TOKENS:$CODEMODE_TOKENS"); else vars+=(--var CODEMODE_INSECURE_NO_AUTH:true); fi
  [ -z "${CODEMODE_CONFIG:-}" ] || vars+=(--var "CODEMODE_CONFIG:$CODEMODE_CONFIG")
  log "worker-dev: http://127.0.0.1:$port (Ctrl-C stops it)"
  _wrangler_dev "$port" $((port + 1)) "${vars[@]}"
}

# test-worker: the HTTP conformance suite and the Worker's own tests against local
# workerd, which the tests start and stop (tests/httpapi, tests/worker).
test_worker() {
  worker --demo
  log "test-worker: node tests of the Worker's JavaScript"
  # --test-force-exit: a closed inline core leaves its Go program parked on the event loop.
  node --test --test-force-exit edge/worker/src/*.test.mjs
  log "test-worker: tests against local workerd"
  WORKER_TEST=1 go test -count=1 -timeout 15m ./tests/worker/...
}

# bench-worker: bundle size, cold start, warm exec, CPU per request, memory with 64 runs.
bench_worker() {
  worker --demo
  WORKER_BENCH=1 go test -count=1 -timeout 20m -run '^$' -bench . -benchtime 1x ./tests/worker/...
}

# gen: the TypeScript declarations of the wire types from the Go types (the
# wire-type section of hostjs/codemode.d.ts, wasm/wasip1/abi.d.ts);
# internal/ops/gen's test fails when a committed one is stale.
gen() {
  log "gen: wire types -> hostjs/codemode.d.ts, wasm/wasip1/abi.d.ts; kit.js, prelude.js -> QuickJS bytecode; the template image"
  go generate ./internal/ops ./internal/quickjs ./core/internal/guest
  rm -f "$QJS_IMAGE"
  template_image
}

# HELP: one line per user subcommand (tests/buildsh checks that every function
# is listed here or in INTERNAL).
HELP='run              set up, build, serve the API and the web IDE on http://127.0.0.1:8787/ (args: a codemode subcommand instead)
test             set up + every test (go vet, go test -race, wasip1, hostjs, hostile, IDE, Worker, gomodule, brief fuzz)
deps             npm ci and the checksum-checked quickjs.wasm (quick when nothing changed)
gen              the wire types'"'"' TypeScript declarations (codemode.d.ts, abi.d.ts); kit.js and prelude.js as QuickJS bytecode; the template image
build            build/codemode, build/web (IDE + hostjs), the cross-compile checks and the wasip1 modules
web              only the web IDE bundle (ide.js, ts.worker.js, ide.css, index.html) into build/web
build-web        build/web for JavaScript hosts: codemode.wasm (GOOS=js), quickjs.wasm, the shim, .gz/.br/.zst
build-wasip1     the GOOS=wasip1 command and reactor modules in build/
test-ide         the web IDE Playwright suite (tests/e2e/ide, Debian chromium)
test-hostjs      the hostjs suites: GOOS=js core suites in Node, node --test, Playwright (tests/e2e/hostjs)
test-hostile-js  the hostile battery under GOOS=js on the host engine in Node.js
test-wasip1      the wasip1 modules under wazero and node:wasi
test-worker      the Worker: its node tests and the conformance suite against local workerd
test-gomodule    a fresh module using this one as the README says (tests/gomodule/check.sh)
test-providertypes  the surface'"'"'s provider shapes type-checked against the OpenAI and Anthropic SDKs (tsc)
test-mcp         Code Mode as an MCP server against the official MCP TypeScript SDK client (stdio, /mcp)
test-buildsh     this script: help, unknown subcommands, a no-change rebuild that skips its steps
worker           build the Cloudflare Worker bundle into build/worker (--demo: with the example toolset)
worker-dev       build, then serve the Worker on local workerd (--port N)
fuzz             every fuzz target for FUZZTIME (default 10s) each
fuzz-brief       every fuzz target for 1s (the last step of test)
bench            ours vs the quickjs-wasi reference on Node.js
bench-http       load run against a real codemode serve (flags pass through)
bench-web        the IDE: page load to first result, bundle sizes (Chromium)
bench-typed      the IDE'"'"'s language service (size, time to ready, main-thread tasks) and Stop
bench-hostjs     hostjs vs quickjs-wasi'"'"'s own host in Chromium
bench-pollrate   loop-guard polls per CPU second on V8
bench-baseline   end-to-end workloads against an older revision ([REV], ROUNDS, SCALE)
bench-limits     overshoot past timeoutMs per long built-in, cost of the loop guard
bench-wasip1     the wasip1 modules: size, start, exec, tool round trip
bench-worker     the Worker: bundle size, cold start, warm exec, CPU, memory
soak             load-and-fault soak against codemode serve (not in test)
soak-worker      the same soak against the Worker on local workerd (not in test)
help             this list (also -h, --help)'
# INTERNAL: helpers other steps call; callable, never listed.
INTERNAL=' log die sha256 stale step go_build_cmd guarded_quickjs template_image test_hostjs_go e2e_serve fuzz_targets fuzz_one zstd_wasm '

help() {
  echo "usage: ./build.sh SUBCOMMAND [ARGS]"
  echo
  printf '%s\n' "$HELP" | sed 's/^/  /'
}

# Dispatch: every subcommand is the function of the same name ('-' becomes '_'; test is
# test_ because `test` is a shell builtin). Adding a subcommand = adding a function
# and its HELP line.
cmd="${1:-help}"; shift || true
case "$cmd" in help|-h|--help) help; exit 0 ;; esac
fn="${cmd//-/_}"; [ "$fn" = test ] && fn=test_
case "$fn" in log|die|sha256|stale|step) fn="" ;; esac
if [[ "$fn" =~ ^[a-z][a-z0-9_]*$ ]] && declare -F "$fn" >/dev/null; then
  "$fn" "$@"
else
  printf 'build.sh: unknown subcommand "%s"; ./build.sh help lists them\n' "$cmd" >&2; exit 2
fi
