package catalog

import (
	"sync"
	"time"

	json "github.com/goccy/go-json"
)

// Outcome of a nested call in the trajectory.
type Outcome string

const (
	OutcomeOK     Outcome = "ok"
	OutcomeError  Outcome = "error"
	OutcomeDenied Outcome = "denied"
)

// NestedCall is one trajectory record: enough to show, under the parent exec call,
// what ran and how it ended, without the input or output themselves.
type NestedCall struct {
	CallID       string    `json:"callId"`
	ParentCallID string    `json:"parentCallId,omitempty"`
	ToolID       string    `json:"toolId"`
	Via          Via       `json:"via"`
	InputBytes   int       `json:"inputBytes"`
	Outcome      Outcome   `json:"outcome"`
	Start        time.Time `json:"start"`
	End          time.Time `json:"end"`
	DurationMs   float64   `json:"durationMs"`
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
