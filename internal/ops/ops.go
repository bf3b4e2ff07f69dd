// Package ops is the one table of Code Mode's operations (exec, wait,
// surface, catalog, tools/call, the MCP resource and prompt reads, abort,
// restartTTL) with their wire types, their strict decoding, the failed-result
// shape and every text a caller reads about them. Every host is a thin
// adapter over it: the HTTP API (edge) reads a body and writes an Answer
// with its status line, the GOOS=js core (wasm/codemode, used by hostjs in a
// page and by the Worker's session objects) hands it op and JSON, the wasip1
// reactor decodes its own envelope and calls the typed operations. So an
// operation accepts, refuses and answers alike on every host.
package ops

//go:generate go run ./gen ../..

import (
	"context"
	"encoding/hex"
	"sync"
	"time"

	"github.com/codemode-go/codemode/core"
	"github.com/codemode-go/codemode/internal/catalog"
	"github.com/codemode-go/codemode/internal/config"
	"github.com/codemode-go/codemode/internal/cryptorand"
	json "github.com/codemode-go/codemode/internal/jsonx"
	"github.com/codemode-go/codemode/internal/relay"
	"github.com/codemode-go/codemode/internal/surface"
)

// Operations are the model-facing operations every front serves the same
// way (the HTTP API, the MCP server, the GOOS=js core).
type Operations interface {
	// Exec runs a cell; failures are results, never errors.
	Exec(ctx context.Context, call core.CallInfo, in core.ExecInput) core.Result
	// Wait resumes a waiting run.
	Wait(ctx context.Context, call core.CallInfo, in core.WaitInput) core.Result
	// Surface is the model-visible tool surface of a scope.
	Surface(ctx context.Context, scope core.Scope, disableTools bool) (surface.Surface, error)
	// Config is the Code Mode configuration (limits, languages) the front
	// reports and applies.
	Config() config.Config
}

// Runtime is everything the table asks of a core. *core.Runtime is the one
// in-process implementation; a host whose cells run somewhere else implements
// it by forwarding (the Cloudflare Worker's front).
type Runtime interface {
	Operations
	// Catalog is a scope's catalog for a remote core.
	Catalog(ctx context.Context, scope core.Scope) (relay.Catalog, error)
	// CallTool runs one catalog tool for a remote core's guest; a
	// *relay.ToolError is the tool's failure, answered like a success.
	CallTool(ctx context.Context, call core.CallInfo, id string, input json.RawMessage) (catalog.Result, *relay.ToolError)
	// ReadMCP reads a resource or renders a prompt of an MCP server for a
	// remote core's guest; a *relay.ToolError is the read's failure.
	ReadMCP(ctx context.Context, call core.CallInfo, rd relay.MCPRead) (json.RawMessage, *relay.ToolError)
}

// RunControl is what abort and restartTTL need besides Runtime: cores that
// hold their runs in this process have it (*core.Runtime); a forwarding
// runtime does not, and the table answers that those operations are not
// served there.
type RunControl interface {
	// Abort discards a run of scope (suspended or being resumed).
	Abort(scope core.Scope, runID string) bool
	// RestartTTL restarts a suspended run's snapshot TTL from now; a
	// *core.RunError is the refusal (wait's code and message).
	RestartTTL(call core.CallInfo, runID string) (time.Time, error)
}

var (
	_ Runtime    = (*core.Runtime)(nil)
	_ RunControl = (*core.Runtime)(nil)
)

// Call is what a host knows about a request besides its message.
type Call struct {
	// Principal is the authenticated caller ("" without auth).
	Principal string
	// CallID names an exec or wait in hooks and the transcript; "" makes a
	// fresh one.
	CallID string
}

func (c Call) info(scope *Scope, kind string) core.CallInfo {
	id := c.CallID
	if id == "" {
		id = NewCallID(kind)
	}
	return core.CallInfo{Scope: scope.Core(), Principal: c.Principal, CallID: id}
}

// NewCallID names one host-borne call (kind_<16 hex digits>) for hooks and
// the transcript.
func NewCallID(kind string) string {
	var b [8]byte
	cryptorand.Read(b[:])
	return kind + "_" + hex.EncodeToString(b[:])
}

// Answer is an operation's outcome, for a host to encode: a value, or a
// refusal.
type Answer struct {
	// Value is the answer's JSON value when Refusal is nil.
	Value any
	// Refusal is the refused request, or nil.
	Refusal *Refusal
	// Result is exec's and wait's CodeModeResult (also Value), so a host can
	// log its status and code and answer at_capacity with its own means.
	Result *core.Result
}

func refused(r *Refusal) Answer { return Answer{Refusal: r} }

// Op is one operation over a message.
type Op func(ctx context.Context, rt Runtime, c Call, msg []byte) Answer

// Table is every operation by name. The HTTP API serves all but abort and
// restartTTL at /v1/<name> (catalog as GET with the scope in the query);
// Dispatch serves all of them. It is built on first use, not by package
// init: a map literal of operations would link every operation (and what
// only it calls) into every binary that imports ops, and build it at each
// start, while a page's core serves a few by Decoded and never reads Table.
func Table() map[string]Op {
	table.once.Do(func() {
		table.m = map[string]Op{
			"exec":               Decoded(Exec),
			"wait":               Decoded(Wait),
			"surface":            Decoded(SurfaceOf),
			"catalog":            Decoded(CatalogFor),
			"tools/call":         Decoded(ToolsCall),
			"mcp/resources/read": Decoded(MCPResource),
			"mcp/prompts/get":    Decoded(MCPPrompt),
			"abort":              Decoded(Abort),
			"restartTTL":         Decoded(RestartTTL),
		}
	})
	return table.m
}

var table struct {
	once sync.Once
	m    map[string]Op
}

// Decoded makes a typed operation an Op: the message is strictly decoded
// into R first. A host that serves only some operations builds its entries
// with it (ops.Decoded(ops.Exec)) rather than reading Table, so its binary
// links only the operations it serves (the page's codemode.wasm serves no
// relay routes).
func Decoded[R any](f func(context.Context, Runtime, Call, R) Answer) Op {
	return func(ctx context.Context, rt Runtime, c Call, msg []byte) Answer {
		var req R
		if r := Decode(msg, &req, "request body"); r != nil {
			return refused(r)
		}
		return f(ctx, rt, c, req)
	}
}

// Encode is an answer as (status, JSON bytes) for byte-oriented hosts: 200
// and the value, the refusal's status and {error: {code, message}}, or 429
// at_capacity for a result the runtime refused at capacity.
func (a Answer) Encode() (int, []byte) {
	status, v := statusOK, a.Value
	switch {
	case a.Refusal != nil:
		status, v = a.Refusal.Status, a.Refusal.Body()
	case a.Result != nil && a.Result.RetryAfter > 0:
		status, v = statusTooMany, (&Refusal{Code: CodeAtCapacity, Message: a.Result.Error}).Body()
	}
	b, err := MarshalValue(v)
	if err != nil {
		return statusInternal, encodeFailure()
	}
	return status, b
}

// MarshalValue is json.Marshal(v). A CodeModeResult is written by its own
// MarshalJSON alone: its bytes are already what json.Marshal would make of
// them (compact, escaped), and a page's first result then never builds
// encoding/json's encoders (see the jsonw package).
func MarshalValue(v any) ([]byte, error) {
	if r, ok := v.(core.Result); ok {
		if b, err := r.MarshalJSON(); err == nil {
			return b, nil
		}
	}
	return json.Marshal(v)
}

// encodeFailure is made on the rare failure, not at package init: in a page
// every start pays for its init work (V8 compiles what it first calls).
func encodeFailure() []byte {
	b, _ := json.Marshal((&Refusal{Code: CodeInternal, Message: "the server could not encode its answer"}).Body())
	return b
}

// Dispatch answers one operation by name for byte-oriented hosts: the
// status and the JSON answer (Answer.Encode). An unknown name is a 404
// not_found naming the operations; a panic below is a 500 internal_error
// without detail.
func Dispatch(ctx context.Context, rt Runtime, name string, c Call, msg []byte) (status int, out []byte) {
	defer func() {
		if p := recover(); p != nil {
			status, out = refused(&Refusal{statusInternal, CodeInternal, "code mode failed while answering " + Quote(name)}).Encode()
		}
	}()
	op, ok := Table()[name]
	if !ok {
		return refused(&Refusal{statusNotFound, CodeNotFound, "no operation " + Quote(name) + "; the operations are " + Names()}).Encode()
	}
	return op(ctx, rt, c, msg).Encode()
}
