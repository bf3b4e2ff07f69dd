package catalog

import (
	"sync"
	"time"

	json "github.com/codemode-go/codemode/internal/jsonx"
)

// Outcome of a nested call in the trajectory.
type Outcome string

// The outcomes: the tool returned, it failed, or the call was refused before it ran.
const (
	OutcomeOK     Outcome = "ok"
	OutcomeError  Outcome = "error"
	OutcomeDenied Outcome = "denied"
)

// NestedCall is one trajectory record: enough to show, under the parent exec call,
// what ran and how it ended, without the input or output themselves.
type NestedCall struct {
	// CallID identifies the nested call.
	CallID string `json:"callId"`
	// ParentCallID is the exec/wait call it ran under.
	ParentCallID string `json:"parentCallId,omitempty"`
	// ToolID is the catalog id called (bounded: guessed ids are guest input).
	ToolID string `json:"toolId"`
	// Via is how the guest called.
	Via Via `json:"via"`
	// InputBytes is the input's size; the input itself is not recorded.
	InputBytes int `json:"inputBytes"`
	// Outcome is ok, error or denied.
	Outcome Outcome `json:"outcome"`
	// Start is when the call began.
	Start time.Time `json:"start"`
	// End is when it ended.
	End time.Time `json:"end"`
	// DurationMs is End - Start in milliseconds.
	DurationMs float64 `json:"durationMs"`
}

// Trajectory records every nested call of a catalog, safe for concurrent use.
type Trajectory struct {
	mu    sync.Mutex
	calls []NestedCall
}

func (t *Trajectory) add(c NestedCall) {
	t.mu.Lock()
	t.calls = append(t.calls, c)
	t.mu.Unlock()
}

// Calls returns a copy of the records in completion order.
func (t *Trajectory) Calls() []NestedCall {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]NestedCall(nil), t.calls...)
}

// MarshalJSON exports the trajectory as {"calls":[...]}.
func (t *Trajectory) MarshalJSON() ([]byte, error) {
	calls := t.Calls()
	if calls == nil {
		calls = []NestedCall{}
	}
	return json.Marshal(struct {
		Calls []NestedCall `json:"calls"`
	}{calls})
}

// Trajectory is the catalog's nested-call record.
func (c *Catalog) Trajectory() *Trajectory { return &c.traj }
