#!/usr/bin/env bash
# tests/gomodule/check.sh: what a `go get` user meets, proved on a fresh module.
#
# 1. A clean copy of this repository (its tracked files only: no node_modules, no
#    embedded quickjs.wasm, no build outputs), as a module proxy would serve it.
# 2. A fresh module in a temp dir that runs the README's go mod commands (a replace
#    directive: the module is not published) and
#    builds user/main.go (one core.TypedFunc tool, one cell; its `ignore` build
#    tag keeps it out of this repository's own ./... and is dropped in the copy).
# 3. Run without a binary: it must fail with the documented error, which names the
#    npm command and the path.
# 4. Follow that error word for word: run the npm command it names in the module's
#    directory and pass the path it names.
# 5. Run again: the cell must find and call the tool.
# Takes ~20-60 s (the build shares the Go build cache; npm uses its cache).
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
say() { printf '\033[1m==> gomodule: %s\033[0m\n' "$*" >&2; }
die() { printf 'tests/gomodule/check.sh: %s\n' "$*" >&2; exit 1; }

say "clean copy of the repository (tracked files only) in $tmp/codemode"
mkdir -p "$tmp/codemode"
(cd "$repo" && git ls-files -z --cached | while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done |
  tar --null -T - -cf -) | tar -C "$tmp/codemode" -xf -
[ ! -e "$tmp/codemode/node_modules" ] || die "the clean copy has node_modules"
[ ! -e "$tmp/codemode/internal/quickjs/wasmbin/blob/quickjs.wasm" ] || die "the clean copy embeds quickjs.wasm"
[ ! -e "$tmp/codemode/core/internal/guest/image/template.img" ] || die "the clean copy embeds the template image"

say "fresh module requiring github.com/codemode-go/codemode"
mkdir -p "$tmp/user"
sed '1{/^\/\/go:build ignore$/d}' "$repo/tests/gomodule/user/main.go" > "$tmp/user/main.go"
cp "$repo/go.sum" "$tmp/user/go.sum" # the same dependency versions, so nothing new is fetched
cd "$tmp/user"
go mod init example.com/user 2>/dev/null
# The README's go mod commands (continuation lines joined), one per line.
readme_cmds=$(sed -n '/^### From another module/,/^### /p' "$repo/README.md" |
  awk '/\\$/ { sub(/ *\\$/, " "); buf = buf $0; next } { print buf $0; buf = "" }' | grep -E '^go mod ' | sed 's/  */ /g')
grep -q -- '-replace github.com/codemode-go/codemode=../codemode' <<<"$readme_cmds" || die "README.md's go mod commands changed: $readme_cmds"
while IFS= read -r c; do say "README: $c"; eval "$c"; done <<<"$readme_cmds"
grep -q '^replace github.com/codemode-go/codemode' go.mod || die "the README's commands left no replace in go.mod"
go build -o user .

say "run without quickjs.wasm: the documented error"
if ./user >out.txt 2>err.txt; then die "ran without quickjs.wasm: $(cat out.txt)"; fi
cat err.txt >&2
npmcmd=$(grep -o 'npm i quickjs-wasi@[0-9][0-9.]*' err.txt | head -1) || die "the error names no npm command"
wasm=$(grep -o 'node_modules/[A-Za-z0-9._/-]*quickjs\.wasm' err.txt | head -1) || die "the error names no path"
grep -q 'QuickJSWasmPath' err.txt || die "the error does not name Options.QuickJSWasmPath"

say "follow it: $npmcmd, then pass $wasm"
$npmcmd --no-audit --no-fund --prefer-offline --loglevel=error >&2
[ -f "$wasm" ] || die "$npmcmd did not write $wasm"
got=$(./user "$wasm") || die "the cell failed after following the error"
[ "$got" = '{"greeting":"hello, gopher"}' ] || die "cell returned $got"
say "ok: $got"
