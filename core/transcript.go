package core

import (
	"sync"

	"github.com/codemode-go/codemode/internal/catalog"
	json "github.com/codemode-go/codemode/internal/jsonx"
)

// Transcript records the model's Code Mode control calls (exec and wait) and,
// under each, the nested tool calls its guest code made, so support bundles show
// what happened. It holds no tool inputs or outputs, only sizes and outcomes.
// Safe for concurrent use; share one per agent session.
type Transcript struct {
	mu      sync.Mutex
	entries []TranscriptEntry
}

// TranscriptEntry is one exec or wait call.
type TranscriptEntry struct {
	// CallID is the model's exec/wait call id.
	CallID string `json:"callId"`
	Tool   string `json:"tool"` // "exec", "wait", "tools/call" (Runtime.CallTool) or "direct" (Runtime.CallDirect)
	// ToolKind is "code_mode_exec" for Code Mode calls.
	ToolKind string `json:"toolKind"`
	// Language is the cell language of an exec.
	Language string `json:"language,omitempty"`
	// CodeBytes is the size of the exec's code (the code itself is not recorded).
	CodeBytes int `json:"codeBytes,omitempty"`
	// RunID is the run the call made or resumed.
	RunID string `json:"runId,omitempty"`
	// Status is the call's result status.
	Status Status `json:"status"`
	// Code is the error code of a failed call.
	Code ErrorCode `json:"code,omitempty"`
	// Nested are the tool calls the cell made during this call.
	Nested []catalog.NestedCall `json:"nested"`
}

// Entries returns a copy of the entries in call order.
func (t *Transcript) Entries() []TranscriptEntry {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := make([]TranscriptEntry, len(t.entries))
	for i, e := range t.entries {
		e.Nested = append([]catalog.NestedCall{}, e.Nested...)
		out[i] = e
	}
	return out
}

// MarshalJSON exports {"entries": [...]}.
func (t *Transcript) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Entries []TranscriptEntry `json:"entries"`
	}{t.Entries()})
}

// UnmarshalJSON reads what MarshalJSON wrote, so a persisted transcript can be
// loaded and replayed with its control calls and nested calls intact.
func (t *Transcript) UnmarshalJSON(b []byte) error {
	var v struct {
		Entries []TranscriptEntry `json:"entries"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	t.mu.Lock()
	t.entries = v.Entries
	t.mu.Unlock()
	return nil
}

func (t *Transcript) add(e TranscriptEntry) {
	if t == nil {
		return
	}
	if e.Nested == nil {
		e.Nested = []catalog.NestedCall{}
	}
	t.mu.Lock()
	t.entries = append(t.entries, e)
	t.mu.Unlock()
}

// nest files nested calls under the control call that made them. A call that
// finished while its run was suspended lands under its original exec or wait.
func (t *Transcript) nest(calls []catalog.NestedCall) {
	if t == nil || len(calls) == 0 {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, c := range calls {
		for i := len(t.entries) - 1; i >= 0; i-- {
			if t.entries[i].CallID == c.ParentCallID {
				t.entries[i].Nested = append(t.entries[i].Nested, c)
				break
			}
		}
	}
}

// recordRefusal files an exec or wait refused before any run was involved
// (bad input, module access, hook deny, TypeScript diagnostics, unknown runId).
func (rt *Runtime) recordRefusal(call CallInfo, tool, lang string, codeBytes int, res Result) {
	rt.opts.Transcript.add(TranscriptEntry{CallID: call.CallID, Tool: tool, ToolKind: catalog.ToolKindCodeModeExec, Language: lang,
		CodeBytes: codeBytes, Status: res.Status, Code: res.Code})
}

// record files a finished exec/wait and the nested calls completed since the
// last record of this run.
func (r *run) record(tool, lang string, codeBytes int, res Result) {
	t := r.rt.opts.Transcript
	if t == nil {
		return
	}
	t.add(TranscriptEntry{CallID: r.parentCallID, Tool: tool, ToolKind: catalog.ToolKindCodeModeExec, Language: lang,
		CodeBytes: codeBytes, RunID: r.id, Status: res.Status, Code: res.Code})
	calls := r.cat.Trajectory().Calls()
	t.nest(calls[r.recorded:])
	r.recorded = len(calls)
}
