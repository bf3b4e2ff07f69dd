package core

import (
	"github.com/codemode-go/codemode/internal/catalog"
	"time"

	"github.com/codemode-go/codemode/internal/jsonw"
	json "github.com/codemode-go/codemode/internal/jsonx"
)

// Status is the CodeModeResult discriminator.
type Status string

// The three statuses: the cell returned, the run suspended (hand RunID to
// Wait), or it failed (Error, and Code unless the guest threw).
const (
	StatusCompleted Status = "completed"
	StatusWaiting   Status = "waiting"
	StatusFailed    Status = "failed"
)

// ErrorCode is the spec's CodeModeErrorCode union.
type ErrorCode string

// The error codes of failed results, the spec's CodeModeErrorCode values.
const (
	CodeInvalidInput          ErrorCode = "invalid_input"
	CodeRuntimeUnavailable    ErrorCode = "runtime_unavailable"
	CodeTimeout               ErrorCode = "timeout"
	CodeOutputLimitExceeded   ErrorCode = "output_limit_exceeded"
	CodeSnapshotLimitExceeded ErrorCode = "snapshot_limit_exceeded"
	CodeInternalError         ErrorCode = "internal_error"
)

// Output is one text() or json() item.
type Output struct {
	// Type is "text" for text() and console.*, "json" for json().
	Type string `json:"type"`
	// Text is the text of a "text" item.
	Text string `json:"text,omitempty"`
	// Value is the JSON value of a "json" item.
	Value json.RawMessage `json:"value,omitempty"`
}

// MarshalJSON writes the spec's CodeModeOutput variant for the type:
// {"type":"text","text":...} with text always present (also when empty), or
// {"type":"json","value":...} with value always present (null included).
func (o Output) MarshalJSON() ([]byte, error) {
	if b, ok := o.appendJSON(nil); ok {
		return b, nil
	}
	return o.marshalReflect(json.Marshal)
}

// appendJSON writes MarshalJSON's bytes without reflection (jsonw); false
// when the value is not valid JSON, which marshalReflect then refuses.
func (o Output) appendJSON(dst []byte) ([]byte, bool) {
	dst = jsonw.String(append(dst, `{"type":`...), o.Type)
	if o.Type == "json" {
		v := o.Value
		if v == nil {
			v = json.RawMessage("null")
		}
		dst, ok := jsonw.Raw(append(dst, `,"value":`...), v)
		return append(dst, '}'), ok
	}
	return append(jsonw.String(append(dst, `,"text":`...), o.Text), '}'), true
}

// marshalReflect is MarshalJSON by reflection (marshal is json.Marshal): the
// reference appendJSON is tested against, and the error for a value that is
// not JSON.
func (o Output) marshalReflect(marshal func(any) ([]byte, error)) ([]byte, error) {
	if o.Type == "json" {
		v := o.Value
		if v == nil {
			v = json.RawMessage("null")
		}
		return marshal(struct {
			Type  string          `json:"type"`
			Value json.RawMessage `json:"value"`
		}{o.Type, v})
	}
	return marshal(struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}{o.Type, o.Text})
}

// PendingToolCall describes a nested call a waiting run still waits for.
type PendingToolCall struct {
	// ID identifies the pending call within its run.
	ID string `json:"id"`
	// ToolID is the catalog id of the tool called, when the call is a tool call.
	ToolID string `json:"toolId,omitempty"`
	// Kind is the bridge operation: "call", "mcp.call", "ns.call", "timer" and so on.
	Kind string `json:"kind"`
}

// appendJSON writes p as encoding/json does (Result.appendJSON).
func (p PendingToolCall) appendJSON(dst []byte) []byte {
	dst = jsonw.String(append(dst, `{"id":`...), p.ID)
	if p.ToolID != "" {
		dst = jsonw.String(append(dst, `,"toolId":`...), p.ToolID)
	}
	return append(jsonw.String(append(dst, `,"kind":`...), p.Kind), '}')
}

// Result is the CodeModeResult union as one struct: the fields present depend on
// Status, exactly as the spec's three variants.
type Result struct {
	// Status selects the variant: completed, waiting or failed.
	Status Status `json:"status"`
	// Value is the cell's return value after the output adapter (completed only).
	Value json.RawMessage `json:"value,omitempty"`
	// RunID names the suspended run to hand to Wait (waiting only).
	RunID string `json:"runId,omitempty"`
	// Reason says why the run suspended, e.g. pending tool calls or yield_control (waiting only).
	Reason string `json:"reason,omitempty"`
	// PendingToolCalls are the nested calls still outstanding (waiting only).
	PendingToolCalls []PendingToolCall `json:"pendingToolCalls,omitempty"`
	// Error is the failure message shown to the model (failed only).
	Error string `json:"error,omitempty"`
	// Code is the spec's error code; empty for a guest error such as a thrown exception (failed only).
	Code ErrorCode `json:"code,omitempty"`
	// Output are the text() / json() / console.* items in order, bounded by maxOutputBytes.
	Output []Output `json:"output,omitempty"`
	// Telemetry is reported on every result: catalog size and per-source counts,
	// cumulative search/describe/call counts of the run, the model-visible tools.
	Telemetry catalog.Telemetry `json:"telemetry"`
	// RestartSafe marks a waiting result of a restartSafe run: safe to repeat
	// (restart recovery may rebuild the turn instead of restoring the snapshot).
	RestartSafe bool `json:"restartSafe,omitempty"`
	// RetryAfter is set on a failed result of an exec or wait the runtime
	// refused at capacity (Options.MaxRunningCells): try again after it.
	// HTTP hosts answer it as 429 with Retry-After; it is not part of the
	// result's JSON, whose code is runtime_unavailable.
	RetryAfter time.Duration `json:"-"`
}

// MarshalJSON writes exactly the spec's variant for the status, in the spec's
// field order; `value` is always present on completed results (null included).
func (r Result) MarshalJSON() ([]byte, error) {
	if b, ok := r.appendJSON(nil); ok {
		return b, nil
	}
	return r.marshalReflect(json.Marshal)
}

// appendJSON writes MarshalJSON's bytes without reflection (jsonw): a page's
// first result would otherwise build encoding/json's encoders for Result,
// Output and Telemetry on its way (see the jsonw package). False when a raw
// value is not valid JSON; marshalReflect then answers encoding/json's error.
func (r Result) appendJSON(dst []byte) ([]byte, bool) {
	ok := true
	dst = jsonw.String(append(dst, `{"status":`...), string(r.Status))
	switch r.Status {
	case StatusCompleted:
		v := r.Value
		if v == nil {
			v = json.RawMessage("null")
		}
		dst, ok = jsonw.Raw(append(dst, `,"value":`...), v)
	case StatusWaiting:
		dst = jsonw.String(append(dst, `,"runId":`...), r.RunID)
		dst = jsonw.String(append(dst, `,"reason":`...), r.Reason)
		if len(r.PendingToolCalls) > 0 {
			dst = append(dst, `,"pendingToolCalls":[`...)
			for i, p := range r.PendingToolCalls {
				if i > 0 {
					dst = append(dst, ',')
				}
				dst = p.appendJSON(dst)
			}
			dst = append(dst, ']')
		}
	default:
		dst = jsonw.String(append(dst, `,"error":`...), r.Error)
		if r.Code != "" {
			dst = jsonw.String(append(dst, `,"code":`...), string(r.Code))
		}
	}
	if len(r.Output) > 0 {
		dst = append(dst, `,"output":[`...)
		for i, o := range r.Output {
			if i > 0 {
				dst = append(dst, ',')
			}
			var okO bool
			dst, okO = o.appendJSON(dst)
			ok = ok && okO
		}
		dst = append(dst, ']')
	}
	dst = r.Telemetry.AppendJSON(append(dst, `,"telemetry":`...))
	if r.Status == StatusWaiting && r.RestartSafe {
		dst = append(dst, `,"restartSafe":true`...)
	}
	return append(dst, '}'), ok
}

// marshalReflect is MarshalJSON by reflection (marshal is json.Marshal): the
// reference appendJSON is tested against, and the error for a raw value that
// is not JSON.
func (r Result) marshalReflect(marshal func(any) ([]byte, error)) ([]byte, error) {
	switch r.Status {
	case StatusCompleted:
		v := r.Value
		if v == nil {
			v = json.RawMessage("null")
		}
		return marshal(struct {
			Status    Status            `json:"status"`
			Value     json.RawMessage   `json:"value"`
			Output    []Output          `json:"output,omitempty"`
			Telemetry catalog.Telemetry `json:"telemetry"`
		}{r.Status, v, r.Output, r.Telemetry})
	case StatusWaiting:
		return marshal(struct {
			Status           Status            `json:"status"`
			RunID            string            `json:"runId"`
			Reason           string            `json:"reason"`
			PendingToolCalls []PendingToolCall `json:"pendingToolCalls,omitempty"`
			Output           []Output          `json:"output,omitempty"`
			Telemetry        catalog.Telemetry `json:"telemetry"`
			RestartSafe      bool              `json:"restartSafe,omitempty"`
		}{r.Status, r.RunID, r.Reason, r.PendingToolCalls, r.Output, r.Telemetry, r.RestartSafe})
	default:
		return marshal(struct {
			Status    Status            `json:"status"`
			Error     string            `json:"error"`
			Code      ErrorCode         `json:"code,omitempty"`
			Output    []Output          `json:"output,omitempty"`
			Telemetry catalog.Telemetry `json:"telemetry"`
		}{r.Status, r.Error, r.Code, r.Output, r.Telemetry})
	}
}
