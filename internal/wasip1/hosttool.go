package wasip1

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/codemode-go/codemode/internal/catalog"
	"github.com/codemode-go/codemode/internal/hostopts"
)

// ToolDecl is a tool the host declares in create_runtime and executes itself.
type ToolDecl struct {
	// Name is the tool name (the catalog id is <source>:host:<name>).
	Name string `json:"name"`
	// Description is shown to the model through search/describe.
	Description string `json:"description"`
	// Parameters is the tool's input JSON Schema; inputs are checked against it.
	Parameters json.RawMessage `json:"parameters,omitempty"`
	// OutputSchema is the declared result schema; only a trusted tool's is used.
	OutputSchema json.RawMessage `json:"outputSchema,omitempty"`
	// Trusted tools count as the host's own (source openclaw: output hints and
	// contracts); untrusted ones as client tools, whose schema claims are ignored.
	Trusted bool `json:"trusted,omitempty"`
	// SideEffects marks a tool a restartSafe run must refuse.
	SideEffects bool `json:"sideEffects,omitempty"`
	// ReadOnly is the host's word that the tool is free of side effects:
	// restartSafe runs call only such tools (they fail closed).
	ReadOnly bool `json:"readOnly,omitempty"`
}

// HostCall is a guest call of a host tool that the host has to execute and
// answer through settle.
type HostCall struct {
	// ID names the call in settle.
	ID string `json:"id"`
	// RunID is the waiting run that made it.
	RunID string `json:"runId"`
	// Tool is the host tool's declared name.
	Tool string `json:"tool"`
	// ToolID is its catalog id.
	ToolID string `json:"toolId"`
	// Input is the tool input, checked against the declared parameters.
	Input json.RawMessage `json:"input"`
}

// hostCalls is a runtime's table of unsettled host calls.
type hostCalls struct {
	mu      sync.Mutex
	seq     int
	pending map[string]*hostCall
}

type hostCall struct {
	HostCall
	parent  string // the exec/wait call id that started it (maps to the run)
	release func()
	answer  chan answer
	ctx     context.Context
}

type answer struct {
	res catalog.Result
	err error
}

// hostTool is a catalog.Tool whose Execute waits for the host: it registers a
// host call, marks itself with hostopts.WaitOutside (the run then suspends at once
// rather than block a runtime that the host only re-enters through exports),
// and returns what settle hands it.
type hostTool struct {
	decl  ToolDecl
	calls *hostCalls
}

func (t hostTool) Spec() catalog.Spec {
	s := catalog.Spec{Name: t.decl.Name, Description: t.decl.Description, Parameters: t.decl.Parameters,
		Owner: "host", SideEffects: t.decl.SideEffects, ReadOnly: t.decl.ReadOnly}
	if t.decl.Trusted {
		s.Source, s.Origin, s.OutputSchema = catalog.SourceOpenClaw, catalog.OriginExternalPlugin, t.decl.OutputSchema
	} else {
		s.Source, s.Origin = catalog.SourceClient, catalog.OriginClient
	}
	return s
}

func (t hostTool) Execute(ctx context.Context, call catalog.Call) (catalog.Result, error) {
	c := &hostCall{parent: call.ParentID, answer: make(chan answer, 1), ctx: ctx}
	c.Tool, c.ToolID, c.Input = t.decl.Name, catalog.ToolID(t.Spec()), call.Input
	if len(c.Input) == 0 {
		c.Input = json.RawMessage("{}")
	}
	// Listed before marked: once the run suspends, the host sees the call.
	t.calls.mu.Lock()
	t.calls.seq++
	c.ID = "hc_" + strconv.Itoa(t.calls.seq)
	t.calls.pending[c.ID] = c
	c.release = hostopts.WaitOutside(ctx)
	t.calls.mu.Unlock()
	defer c.release()
	defer func() {
		t.calls.mu.Lock()
		delete(t.calls.pending, c.ID)
		t.calls.mu.Unlock()
	}()
	select {
	case a := <-c.answer:
		return a.res, a.err
	case <-ctx.Done():
		return catalog.Result{}, ctx.Err()
	}
}

// settle hands the host's answer to the waiting call. It releases the call's
// outside mark before returning, so the next wait pumps instead of suspending.
func (h *hostCalls) settle(id string, a answer) error {
	h.mu.Lock()
	c, ok := h.pending[id]
	if ok {
		delete(h.pending, id)
	}
	h.mu.Unlock()
	if !ok || c.ctx.Err() != nil {
		return errors.New("unknown host call " + strconv.Quote(id) + " (never issued, already settled, or its run ended)")
	}
	c.release()
	c.answer <- a
	return nil
}

// drop forgets the open calls started by the given exec/wait call ids.
func (h *hostCalls) drop(parents map[string]bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for id, c := range h.pending {
		if parents[c.parent] {
			delete(h.pending, id)
		}
	}
}

// forRun lists the unsettled calls started by any of the given exec/wait call
// ids, in issue order.
func (h *hostCalls) forRun(runID string, parents map[string]string) []HostCall {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := []HostCall{}
	for _, c := range h.pending {
		if parents[c.parent] == runID && c.ctx.Err() == nil {
			hc := c.HostCall
			hc.RunID = runID
			out = append(out, hc)
		}
	}
	sortCalls(out)
	return out
}

func sortCalls(c []HostCall) {
	n := func(id string) int { v, _ := strconv.Atoi(strings.TrimPrefix(id, "hc_")); return v }
	slices.SortFunc(c, func(a, b HostCall) int { return n(a.ID) - n(b.ID) })
}
