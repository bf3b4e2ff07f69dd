// Command gen writes the TypeScript declarations of the wire types from the
// Go types (./build.sh gen, or go generate ./internal/ops): the wire-type
// section of hostjs/codemode.d.ts (between its BEGIN and END lines) and
// wasm/wasip1/abi.d.ts, the wasip1 reactor's requests and answers. Its test
// fails when a committed file differs from what it would write.
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"

	"github.com/codemode-go/codemode/core"
	"github.com/codemode-go/codemode/internal/catalog"
	"github.com/codemode-go/codemode/internal/config"
	"github.com/codemode-go/codemode/internal/ops"
	"github.com/codemode-go/codemode/internal/tsgen"
	"github.com/codemode-go/codemode/internal/wasip1"
)

// The markers around the generated section of hostjs/codemode.d.ts.
const (
	begin = "// BEGIN wire types: generated from the Go types by ./build.sh gen (internal/ops/gen); do not edit.\n"
	end   = "// END wire types.\n"
)

// values are the literal unions of string types and fields, for both files.
func values(g *tsgen.Gen) {
	g.FieldValues(reflect.TypeFor[ops.ExecArgs](), "language", config.LanguageJavaScript, config.LanguageTypeScript)
	g.Values(reflect.TypeFor[core.Status](), str(core.StatusCompleted, core.StatusWaiting, core.StatusFailed)...)
	g.Values(reflect.TypeFor[catalog.Source](), str(catalog.SourceOpenClaw, catalog.SourceMCP, catalog.SourceClient)...)
	g.Values(reflect.TypeFor[catalog.Via](), str(catalog.ViaTools, catalog.ViaMCP, catalog.ViaNamespace)...)
	g.Values(reflect.TypeFor[catalog.Outcome](), str(catalog.OutcomeOK, catalog.OutcomeError, catalog.OutcomeDenied)...)
}

// common declares the core's result types, shared by both files.
func common(g *tsgen.Gen) {
	g.Enum("CodeModeErrorCode", "The spec's error codes (core.ErrorCode).", reflect.TypeFor[core.ErrorCode](),
		str(core.CodeInvalidInput, core.CodeRuntimeUnavailable, core.CodeTimeout, core.CodeOutputLimitExceeded, core.CodeSnapshotLimitExceeded, core.CodeInternalError)...)
	g.Name(reflect.TypeFor[core.Output](), "CodeModeOutput")
	g.Raw("One output item of text() or json() (core.Output).", `export type CodeModeOutput = { type: "text"; text: string } | { type: "json"; value: unknown };`)
	g.Output("CodeModeTelemetry", "A result's telemetry (catalog.Telemetry).", reflect.TypeFor[catalog.Telemetry]())
	g.Output("PendingToolCall", "A waiting run's pending call (core.PendingToolCall).", reflect.TypeFor[core.PendingToolCall]())
	full := func(status string) any {
		return core.Result{Status: core.Status(status), Value: json.RawMessage(`1`), RunID: "cm_1", Reason: "yield", Error: "e", Code: core.CodeTimeout,
			PendingToolCalls: []core.PendingToolCall{{ID: "call_1", ToolID: "x", Kind: "call"}},
			Output:           []core.Output{{Type: "text", Text: "t"}}, RestartSafe: true}
	}
	g.Union("CodeModeResult", "What exec and wait answer, by status (core.Result).", reflect.TypeFor[core.Result](), full, "status",
		str(core.StatusCompleted, core.StatusWaiting, core.StatusFailed), map[string]bool{"output": true, "pendingToolCalls": true, "code": true, "restartSafe": true})
}

// hostjs is the wire-type section of hostjs/codemode.d.ts.
func hostjs() string {
	g := tsgen.New()
	values(g)
	g.Input("CodeModeScope", "Who runs: a suspended run is only visible to the scope that made it (ops.Scope).", reflect.TypeFor[ops.Scope]())
	g.Input("ExecInput", "exec's input (ops.ExecArgs): code, or its alias command.", reflect.TypeFor[ops.ExecArgs](), "code")
	common(g)
	g.Output("ToolCatalogEntry", "One entry of ALL_TOOLS (catalog.Entry).", reflect.TypeFor[catalog.Entry]())
	g.Output("NestedCall", "One nested tool call in the transcript, no inputs or outputs, only sizes (catalog.NestedCall).", reflect.TypeFor[catalog.NestedCall]())
	g.Output("TranscriptEntry", "One exec or wait call of the transcript (core.TranscriptEntry).", reflect.TypeFor[core.TranscriptEntry]())
	return g.String()
}

// abi is wasm/wasip1/abi.d.ts.
func abi() string {
	g := tsgen.New()
	g.Raw("", `// The JSON of the wasip1 reactor's exports (ABI.md): each export takes its
// request and answers {ok: answer} or {error: ErrorAnswer}. Generated from
// the Go types by ./build.sh gen (internal/ops/gen); do not edit.`)
	values(g)
	common(g)
	g.Output("ErrorAnswer", "An export's refusal (wasip1.Error).", reflect.TypeFor[wasip1.Error]())
	g.Input("ToolDecl", "A tool the host declares and executes itself (wasip1.ToolDecl).", reflect.TypeFor[wasip1.ToolDecl](), "name")
	g.Input("CreateRequest", "create_runtime's request; its answer is {runtime: number}.", reflect.TypeFor[wasip1.CreateRequest]())
	g.Input("ExecRequest", "exec's request; its answer is a RunAnswer.", reflect.TypeFor[wasip1.ExecRequest](), "runtime", "code")
	g.Input("RunRequest", "wait's and abort's request; wait answers a RunAnswer, abort {aborted: boolean}.", reflect.TypeFor[wasip1.RunRequest](), "runtime", "runId")
	g.Input("SettleRequest", "settle's request: exactly one of result or error; its answer is {settled: true}.", reflect.TypeFor[wasip1.SettleRequest](), "runtime", "id")
	g.Input("SurfaceRequest", "surface's request; its answer is the model-visible tools in that format.", reflect.TypeFor[wasip1.SurfaceRequest](), "runtime")
	g.Input("RuntimeRequest", "catalog's and close_runtime's request; close_runtime answers {closed: true}.", reflect.TypeFor[wasip1.RuntimeRequest](), "runtime")
	g.Output("HostCall", "A guest call of a host tool, to run and settle (wasip1.HostCall).", reflect.TypeFor[wasip1.HostCall]())
	g.Output("RunAnswer", "exec's and wait's answer (wasip1.RunAnswer).", reflect.TypeFor[wasip1.RunAnswer]())
	return g.String()
}

func str[T ~string](vs ...T) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = string(v)
	}
	return out
}

// files are the generated files by path from the repository root, whole.
func files(root string) (map[string][]byte, error) {
	dts := filepath.Join(root, "hostjs", "codemode.d.ts")
	b, err := os.ReadFile(dts)
	if err != nil {
		return nil, err
	}
	i, j := bytes.Index(b, []byte(begin)), bytes.Index(b, []byte(end))
	if i < 0 || j < i {
		return nil, fmt.Errorf("hostjs/codemode.d.ts has no %q ... %q section", strings.TrimSpace(begin), strings.TrimSpace(end))
	}
	section := append(append(append([]byte{}, b[:i+len(begin)]...), hostjs()...), b[j:]...)
	return map[string][]byte{
		"hostjs/codemode.d.ts": section,
		"wasm/wasip1/abi.d.ts": []byte(abi()),
	}, nil
}

func main() {
	root := "."
	if len(os.Args) > 1 {
		root = os.Args[1]
	}
	fs, err := files(root)
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
	for path, b := range fs {
		if err := os.WriteFile(filepath.Join(root, path), b, 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "gen:", err)
			os.Exit(1)
		}
	}
}
