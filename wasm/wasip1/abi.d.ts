// The JSON of the wasip1 reactor's exports (ABI.md): each export takes its
// request and answers {ok: answer} or {error: ErrorAnswer}. Generated from
// the Go types by ./build.sh gen (internal/ops/gen); do not edit.

/** The spec's error codes (core.ErrorCode). */
export type CodeModeErrorCode =
  | "invalid_input"
  | "runtime_unavailable"
  | "timeout"
  | "output_limit_exceeded"
  | "snapshot_limit_exceeded"
  | "internal_error";

/** One output item of text() or json() (core.Output). */
export type CodeModeOutput = { type: "text"; text: string } | { type: "json"; value: unknown };

/** A result's telemetry (catalog.Telemetry). */
export interface CodeModeTelemetry {
  catalogSize: number;
  catalogBySource: { openclaw: number; mcp: number; client: number };
  searchCount: number;
  describeCount: number;
  callCount: number;
  modelVisibleTools: string[];
}

/** A waiting run's pending call (core.PendingToolCall). */
export interface PendingToolCall {
  id: string;
  toolId?: string;
  kind: string;
}

/** What exec and wait answer, by status (core.Result). */
export type CodeModeResult =
  | { status: "completed"; value: unknown; output?: CodeModeOutput[]; telemetry: CodeModeTelemetry }
  | { status: "waiting"; runId: string; reason: string; pendingToolCalls?: PendingToolCall[]; output?: CodeModeOutput[]; telemetry: CodeModeTelemetry; restartSafe?: boolean }
  | { status: "failed"; error: string; code?: CodeModeErrorCode; output?: CodeModeOutput[]; telemetry: CodeModeTelemetry };

/** An export's refusal (wasip1.Error). */
export interface ErrorAnswer {
  code: CodeModeErrorCode;
  message: string;
}

/** A tool the host declares and executes itself (wasip1.ToolDecl). */
export interface ToolDecl {
  name: string;
  description?: string;
  parameters?: unknown;
  outputSchema?: unknown;
  trusted?: boolean;
  sideEffects?: boolean;
  readOnly?: boolean;
}

/** create_runtime's request; its answer is {runtime: number}. */
export interface CreateRequest {
  config?: unknown;
  tools?: ToolDecl[];
  exampleTools?: boolean;
}

/** exec's request; its answer is a RunAnswer. */
export interface ExecRequest {
  runtime: number;
  code: string;
  command?: string;
  language?: "javascript" | "typescript";
  restartSafe?: boolean;
}

/** wait's and abort's request; wait answers a RunAnswer, abort {aborted: boolean}. */
export interface RunRequest {
  runtime: number;
  runId: string;
}

/** settle's request: exactly one of result or error; its answer is {settled: true}. */
export interface SettleRequest {
  runtime: number;
  id: string;
  result?: { content?: unknown[]; details?: unknown; isError?: boolean };
  error?: string;
}

/** surface's request; its answer is the model-visible tools in that format. */
export interface SurfaceRequest {
  runtime: number;
  format?: string;
}

/** catalog's and close_runtime's request; close_runtime answers {closed: true}. */
export interface RuntimeRequest {
  runtime: number;
}

/** A guest call of a host tool, to run and settle (wasip1.HostCall). */
export interface HostCall {
  id: string;
  runId: string;
  tool: string;
  toolId: string;
  input: unknown;
}

/** exec's and wait's answer (wasip1.RunAnswer). */
export interface RunAnswer {
  result: CodeModeResult;
  hostCalls: HostCall[];
}
