//go:build js && wasm

package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"sync/atomic"
	"syscall/js"

	"github.com/codemode-go/codemode/internal/catalog"
	"github.com/codemode-go/codemode/internal/hostopts"
	"github.com/codemode-go/codemode/internal/jspromise"
	"github.com/codemode-go/codemode/internal/ops"
	"github.com/codemode-go/codemode/internal/remote"
	"github.com/codemode-go/codemode/internal/schemacheck"
)

// clientSpec is a client tool's metadata as the page registered it. It is
// untrusted: the catalog shows input "unknown" and never an output hint.
type clientSpec struct {
	Name        string          `json:"name"`
	Label       string          `json:"label"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
	ReadOnly    bool            `json:"readOnly"`
}

type clientTool struct {
	h    *host
	spec catalog.Spec
	id   string
}

func (h *host) clientTool(app string, s clientSpec) (catalog.Tool, error) {
	if app == "" {
		return nil, errors.New("createCodeMode: app is required with clientTools (client tool ids are client:<app>:<name>)")
	}
	spec := catalog.Spec{Name: s.Name, Label: s.Label, Description: s.Description, Parameters: s.Parameters,
		Source: catalog.SourceClient, Owner: app, Origin: catalog.OriginClient, ReadOnly: s.ReadOnly}
	return &clientTool{h: h, spec: spec, id: catalog.ToolID(spec)}, nil
}

func (t *clientTool) Spec() catalog.Spec { return t.spec }

// Execute asks the page to run the tool and waits on this goroutine (never in
// an import callback). Abort or the run's deadline reach the tool's signal.
func (t *clientTool) Execute(ctx context.Context, call catalog.Call) (catalog.Result, error) {
	in := string(call.Input)
	if in == "" {
		in = "{}"
	}
	p := t.h.hooks.Call("callClientTool", t.spec.Name, in, call.RunID, call.ID)
	v, err := t.h.watcher.AwaitContext(ctx, p, func() { t.h.hooks.Call("abortClientTool", call.ID) })
	if err != nil {
		if ctx.Err() != nil {
			return catalog.Result{}, fmt.Errorf("client tool %s was aborted", t.id)
		}
		return catalog.Result{}, fmt.Errorf("client tool %s failed: %s", t.id, err.Error())
	}
	text := "null"
	if v.Type() == js.TypeString {
		text = v.String()
	}
	if !json.Valid([]byte(text)) {
		return catalog.Result{}, fmt.Errorf("client tool %s returned a value that is not JSON", t.id)
	}
	return catalog.Result{Details: json.RawMessage(text)}, nil
}

// warmTool is the tool of the call-path warm-up: the shape of a client tool
// (untrusted, the parameters of warmParams), answered by a JavaScript
// promise of its input as the page's tools answer by one, without the page.
type warmTool struct {
	params  json.RawMessage
	watcher *jspromise.Watcher
}

func (w warmTool) Spec() catalog.Spec {
	return catalog.Spec{Name: "warm_up", Description: "Answers its input.", Source: catalog.SourceClient, Owner: "codemode",
		Origin: catalog.OriginClient, ReadOnly: true, Parameters: w.params}
}

// warmParams are the warm-up tool's parameters, so that the warm-up runs the
// input check the page's calls run: an object schema the check answers by
// the input's shape when every client tool's parameters are such a schema
// (schemacheck.ByShape: those calls never run the validator, and warming it
// would be V8 compiling its largest function for nothing, on the cores the
// page's first cells need), else one with a typed, required property, which
// runs the validator.
func warmParams(clientParams []json.RawMessage) json.RawMessage {
	raws := make([][]byte, len(clientParams))
	for i, p := range clientParams {
		raws[i] = p
	}
	if schemacheck.AllByShape(raws...) {
		return json.RawMessage(`{"type":"object"}`)
	}
	return json.RawMessage(`{"type":"object","properties":{"n":{"type":"number"}},"required":["n"]}`)
}

func (w warmTool) Execute(ctx context.Context, call catalog.Call) (catalog.Result, error) {
	v, err := w.watcher.AwaitContext(ctx, js.Global().Get("Promise").Call("resolve", string(call.Input)), nil)
	if err != nil {
		return catalog.Result{}, err
	}
	text := v.String()
	if !json.Valid([]byte(text)) {
		return catalog.Result{}, errors.New("warm-up: not JSON")
	}
	return catalog.Result{Details: json.RawMessage(text)}, nil
}

// warmUpCalls runs args[0] (1-1000) sequential calls of warmTool in a run
// of the page's default scope whose catalog holds that tool alone
// (hostopts.WarmUpCalls: no page tool, hook or transcript sees it). The
// worker calls it in batches while idle on a page with client tools: V8 runs
// the call path as baseline code until it has seen some hundred calls, then
// compiles its hot functions in the background, which otherwise lands in the
// page's own first calls.
func (h *host) warmUpCalls(args []js.Value) (string, error) {
	rt, err := h.runtime()
	if err != nil {
		return "", err
	}
	n := 0
	if len(args) > 0 && args[0].Type() == js.TypeNumber {
		n = args[0].Int()
	}
	var req ops.ExecRequest
	if r := ops.Decode([]byte(warmUpMessage), &req, "request body"); r != nil {
		return "", errors.New("warmUpCalls: " + r.Message)
	}
	h.warmOnce.Do(func() { h.warmParams = warmParams(h.clientParams) })
	if _, err := hostopts.WarmUpCalls(context.Background(), rt, req.Scope.Core(), warmTool{params: h.warmParams, watcher: h.watcher}, n); err != nil {
		return "", err
	}
	return "true", nil
}

// awaitCtx is await that gives up when ctx is done, after calling cancel.
func awaitCtx(ctx context.Context, p js.Value, cancel func()) (js.Value, error) {
	return jspromise.AwaitContext(ctx, p, cancel)
}

// transformTS is hostopts.Options.TransformTS over the shim's transformTS hook,
// which loads tsx.wasm on first use and answers internal/typescript.Transform's
// text.
func (h *host) transformTS(ctx context.Context, src string) ([]byte, error) {
	v, err := awaitCtx(ctx, h.hooks.Call("transformTS", src), func() {})
	if err != nil {
		return nil, err
	}
	if v.Type() != js.TypeString {
		return nil, errors.New("the transformTS hook answered no text")
	}
	return []byte(v.String()), nil
}

var fetchSeq atomic.Int64

// fetch is remote.Doer over the shim's fetch hook (the Fetch API in every host;
// net/http's own js transport refuses Node.js).
func (h *host) fetch(ctx context.Context, req remote.Request) (int, []byte, error) {
	token := strconv.FormatInt(fetchSeq.Add(1), 10)
	headers := map[string]any{}
	for k, v := range req.Headers {
		headers[k] = v
	}
	init := map[string]any{"method": req.Method, "headers": headers}
	if req.Body != nil {
		init["body"] = string(req.Body)
	}
	p := h.hooks.Call("fetch", req.URL, init, token)
	v, err := awaitCtx(ctx, p, func() { h.hooks.Call("abortFetch", token) })
	if err != nil {
		return 0, nil, err
	}
	return v.Get("status").Int(), []byte(v.Get("body").String()), nil
}
