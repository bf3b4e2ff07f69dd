#!/usr/bin/env bash
# Type-checks each provider shape of the model-visible surface against the
# official SDKs' own types: the real output of `codemode surface --format X`
# (made here, in this run) is written into TypeScript files that declare it
# `satisfies` the SDK's tool type and pass it to a create call, then
# `tsc --noEmit` checks them. A control file feeds the Chat Completions shape
# to the Responses API type and must fail, so the check is known to bite.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
out=build/providertypes
rm -rf "$out" && mkdir -p "$out/ok" "$out/control"
go build -o "$out/codemode" ./cmd/codemode
surface() { "$out/codemode" surface --format "$1"; }

cat > "$out/ok/anthropic.ts" <<TS
import type Anthropic from "@anthropic-ai/sdk";
export const tools = $(surface anthropic) satisfies Anthropic.Messages.Tool[];
export const params: Anthropic.Messages.MessageCreateParamsNonStreaming = { model: "m", max_tokens: 1, messages: [], tools };
TS
cat > "$out/ok/openai.ts" <<TS
import type OpenAI from "openai";
export const tools = $(surface openai) satisfies OpenAI.Chat.Completions.ChatCompletionFunctionTool[];
export const params: OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming = { model: "m", messages: [], tools };
TS
cat > "$out/ok/openai-responses.ts" <<TS
import type OpenAI from "openai";
export const tools = $(surface openai-responses) satisfies OpenAI.Responses.FunctionTool[];
export const params: OpenAI.Responses.ResponseCreateParamsNonStreaming = { model: "m", input: "hi", tools };
TS
cat > "$out/control/mismatch.ts" <<TS
import type OpenAI from "openai";
export const tools = $(surface openai) satisfies OpenAI.Responses.FunctionTool[];
TS

tsc() { node_modules/.bin/tsc --noEmit --strict --skipLibCheck --target es2022 --module nodenext --moduleResolution nodenext "$@"; }
tsc "$out"/ok/*.ts
echo "providertypes: anthropic, openai and openai-responses match the SDKs' types"
if tsc "$out/control/mismatch.ts" > "$out/control/tsc.log" 2>&1; then
  echo "providertypes: the control (Chat Completions tools as Responses tools) type-checked; the check cannot fail" >&2
  exit 1
fi
grep -q "error TS" "$out/control/tsc.log" || { cat "$out/control/tsc.log" >&2; exit 1; }
echo "providertypes: the control mismatch is refused, as it must be"
