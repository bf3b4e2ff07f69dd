// Types of hostjs/codemode.js: Code Mode for JavaScript hosts.

/** tools.codeMode fields (enabled is implied). Unknown fields are refused. */
export interface CodeModeConfig {
  runtime: "quickjs-wasi";
  mode: "only" | "augment";
  languages: Array<"javascript" | "typescript">;
  timeoutMs: number;
  memoryLimitBytes: number;
  maxOutputBytes: number;
  maxSnapshotBytes: number;
  maxPendingToolCalls: number;
  snapshotTtlSeconds: number;
  [field: string]: unknown;
}

/** What a client tool's execute receives besides its input. */
export interface ClientToolContext {
  /** Aborted when the run is aborted, times out or its worker is stopped. */
  signal: AbortSignal;
  /** The exec call that made this call. */
  runId: string;
  /** Unique per nested call. */
  callId: string;
}

/** A tool the page provides: source "client", owner the app, untrusted metadata. */
export interface ClientTool {
  name: string;
  label?: string;
  description: string;
  /** JSON Schema of the input. Shown only through tools.describe. */
  parameters: Record<string, unknown>;
  /** Read-only tools are allowed in restartSafe runs. */
  readOnly?: boolean;
  /** Runs in the page; a thrown error is a catchable error in the guest. */
  execute(input: any, ctx: ClientToolContext): Promise<unknown> | unknown;
}

export interface CodeModeOptions {
  config?: Partial<CodeModeConfig>;
  /** Owner of client tools: their ids are client:<app>:<name>. */
  app?: string;
  clientTools?: ClientTool[];
  /** A Code Mode server whose tools join the catalog (GET /v1/catalog, POST /v1/tools/call). */
  serverTools?: {
    url: string;
    headers?: Record<string, string>;
    /** The fetch to reach it with (default globalThis.fetch); a Worker passes a loopback. */
    fetch?: (input: Request | string | URL, init?: RequestInit) => Promise<Response>;
  };
  /** "host" (default): the host's own WebAssembly engine; "wazero": Go's interpreter. */
  engine?: "host" | "wazero";
  /** Default: "worker" in a page, "inline" elsewhere. */
  thread?: "worker" | "inline";
  /** Where codemode.wasm, quickjs.wasm and wasm_exec.js live (default: beside codemode.js). */
  assets?: string | URL;
  /**
   * Hosts that forbid compiling bytes (workerd) hand in the imported modules; needs thread "inline" and wasm_exec.js loaded.
   * Each should be this build's file of that name: the core starts QuickJS from bytecode sealed for its QuickJS version (another version starts from source, slower).
   * tsx (build/web's tsx.wasm, the TypeScript transform) is instantiated on the first TypeScript cell; without it such a cell fails naming it.
   */
  modules?: { codemode: WebAssembly.Module; quickjs: WebAssembly.Module; tsx?: WebAssembly.Module };
  /** QuickJS interrupt checks per second of CPU on this engine: the budget that ends busy cells where the clock stands still. */
  interruptsPerSecond?: number;
  /** Loop-guard polls per second of CPU inside a long built-in on this engine: the budget that ends them where the clock stands still (a deployed Worker). Unset: the deadline does. */
  pollsPerSecond?: number;
  /**
   * Loads codemode.demo.wasm, the core with the demo packages: the spec's example Issues namespace for a serverTools server that relays plugin github's tools
   * (as codemode serve's example toolset does). For the web IDE and tests; the shipped codemode.wasm has none. Needs engine "host".
   */
  demo?: boolean;
}

// BEGIN wire types: generated from the Go types by ./build.sh gen (internal/ops/gen); do not edit.
/** Who runs: a suspended run is only visible to the scope that made it (ops.Scope). */
export interface CodeModeScope {
  agentId?: string;
  sessionId?: string;
  sessionKey?: string;
  agentRunId?: string;
}

/** exec's input (ops.ExecArgs): code, or its alias command. */
export interface ExecInput {
  code: string;
  command?: string;
  language?: "javascript" | "typescript";
  restartSafe?: boolean;
}

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

/** One entry of ALL_TOOLS (catalog.Entry). */
export interface ToolCatalogEntry {
  id: string;
  name: string;
  label?: string;
  description: string;
  source: "openclaw" | "mcp" | "client";
  sourceName?: string;
  input: string;
  output?: string;
}

/** One nested tool call in the transcript, no inputs or outputs, only sizes (catalog.NestedCall). */
export interface NestedCall {
  callId: string;
  parentCallId?: string;
  toolId: string;
  via: "tools" | "mcp" | "namespace";
  inputBytes: number;
  outcome: "ok" | "error" | "denied";
  start: string;
  end: string;
  durationMs: number;
}

/** One exec or wait call of the transcript (core.TranscriptEntry). */
export interface TranscriptEntry {
  callId: string;
  tool: string;
  toolKind: string;
  language?: string;
  codeBytes?: number;
  runId?: string;
  status: "completed" | "waiting" | "failed";
  code?: CodeModeErrorCode;
  nested: NestedCall[];
}
// END wire types.

export interface CodeMode extends EventTarget {
  readonly thread: "worker" | "inline";
  /** opts.callId names the call in transcript() (the IDE's trajectory). */
  exec(input: ExecInput, opts?: { callId?: string; scope?: CodeModeScope }): Promise<CodeModeResult>;
  wait(input: { runId: string }, opts?: { callId?: string; scope?: CodeModeScope }): Promise<CodeModeResult>;
  /** Every exec/wait of this core in call order, each with the nested tool calls it made. */
  transcript(): Promise<{ entries: TranscriptEntry[] }>;
  /** Parses tools.codeMode JSON/JSON5 with the core's own parser and bounds; rejects with its message (line:col). */
  checkConfig(text: string): Promise<CodeModeConfig & { enabled: true }>;
  /** The model-visible tools in the given provider shape. */
  surface(format?: "plain" | "anthropic" | "openai" | "openai-responses", opts?: { scope?: CodeModeScope }): Promise<unknown[]>;
  catalog(): Promise<ToolCatalogEntry[]>;
  /** Discards a run of opts.scope (suspended or being resumed); pending client tools see their signal abort. */
  abort(runId: string, opts?: { scope?: CodeModeScope }): Promise<boolean>;
  /** The core's own Go runtime (goroutines, live heap bytes): for leak checks where no process is visible. */
  stats(): Promise<{ goroutines: number; heapBytes: number }>;
  /**
   * Restarts a suspended run's snapshot TTL from now, for hosts whose clock
   * stands still during CPU work (a Cloudflare Durable Object): call it at the
   * next I/O after a waiting answer. A refusal carries wait's code and message
   * for that runId (unknown, expired, another session, being resumed).
   */
  restartTTL(runId: string, opts?: { scope?: CodeModeScope }): Promise<
    { ok: true; expiresAt: number } | { ok: false; code: CodeModeErrorCode; error: string }
  >;
  /**
   * Stops the exec or wait in flight (thread "worker" only): the worker is
   * terminated at once, that call answers failed ("stopped by the host
   * (reason)"), a new core takes its place ("workerrestart") and this core's
   * suspended runs are lost. false when nothing was running.
   */
  stop(reason?: string): Promise<boolean>;
  /** Stops the core (and the worker). */
  close(): Promise<void>;
  /** "workerrestart" (detail: {reason}) after a worker was stopped and replaced. */
  addEventListener(type: "workerrestart", listener: (ev: Event & { detail: { reason: string } }) => void): void;
  /**
   * "typescriptready" (thread "worker"): the TypeScript transform (tsx.wasm) is loaded, in the
   * background once the core is idle when config.languages allows TypeScript, or by the first
   * TypeScript cell. A TypeScript cell never needs to wait for it: the first one loads it, and
   * neither its loading nor its transform counts against timeoutMs.
   */
  addEventListener(type: "typescriptready", listener: (ev: Event) => void): void;
  /** True once "typescriptready" fired. */
  readonly typescriptReady: boolean;
  addEventListener(type: string, listener: EventListenerOrEventListenerObject | null): void;
}

export declare const WORKER_GRACE_MS: number;
export declare function createCodeMode(options?: CodeModeOptions): Promise<CodeMode>;
