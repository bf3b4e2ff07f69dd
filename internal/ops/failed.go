package ops

import (
	"strconv"

	"github.com/codemode-go/codemode/core"
	"github.com/codemode-go/codemode/internal/catalog"
	"github.com/codemode-go/codemode/internal/config"
	"github.com/codemode-go/codemode/internal/jsonw"
)

// Failed is a failed CodeModeResult for a failure no core saw (a session
// object whose core could not start, a lost Durable Object): the spec's
// shape with empty telemetry, so every host answers it alike.
func Failed(code core.ErrorCode, msg string) core.Result {
	return core.Result{Status: core.StatusFailed, Code: code, Error: msg, Telemetry: catalog.Telemetry{ModelVisibleTools: []string{}}}
}

// Unavailable is runtime_unavailable with why ("code mode runtime
// unavailable: " + why).
func Unavailable(why string) core.Result {
	return Failed(core.CodeRuntimeUnavailable, "code mode runtime unavailable: "+why)
}

// UnknownRun is wait's answer for a runId the core does not hold: what a
// host answers without asking a core that holds no runs yet.
func UnknownRun() core.Result { return Failed(core.CodeInvalidInput, core.MsgRunUnavailable) }

// Failure kinds a host's glue reports in place of a result when no core
// answered (the Worker's session object, src/session.mjs, answers
// {"failure": kind}); FailureResult is the result its Go side returns, so no
// result shape or core text is written in JavaScript.
const (
	// FailureUnknownRun: the object holds no core, hence no runs (new, or
	// evicted): wait's answer for an unknown runId.
	FailureUnknownRun = "unknown_run"
	// FailureCoreDown: the object's core could not start.
	FailureCoreDown = "core_unavailable"
	// FailureGlue: the glue around the core failed while answering.
	FailureGlue = "internal"
)

// FailureResult is the result for a failure kind (an unknown kind is the
// glue's failure too).
func FailureResult(kind string) core.Result {
	switch kind {
	case FailureUnknownRun:
		return UnknownRun()
	case FailureCoreDown:
		return Unavailable("the session's core could not start")
	}
	return Failed(core.CodeInternalError, "code mode could not complete this request in the session object.")
}

// ShimFailures are the failed results hostjs's page shim answers for an
// exec or wait in flight when it terminates the worker running the core
// (and with it this Go program): it cannot ask Go then, so the core hands
// them over with its init answer, and the shim only fills in the stop's
// reason ("{reason}") and the last telemetry.
type ShimFailures struct {
	// Timeout: the cell ran past timeoutMs plus the shim's grace.
	Timeout core.Result `json:"timeout"`
	// Stopped: the host called stop(reason); no code, the host chose it.
	Stopped core.Result `json:"stopped"`
	// Restarted: the worker died under the call.
	Restarted core.Result `json:"restarted"`
}

// ShimFailuresFor are the shim's failures for a core with timeoutMs.
func ShimFailuresFor(timeoutMs int) ShimFailures {
	return ShimFailures{
		Timeout:   Failed(core.CodeTimeout, "code mode cell exceeded timeoutMs ("+strconv.Itoa(timeoutMs)+" ms); the worker running it was stopped."),
		Stopped:   Failed("", "code mode cell was stopped by the host ({reason}); the worker running it was terminated and a new core started."),
		Restarted: Failed(core.CodeRuntimeUnavailable, "code mode worker was restarted while this call ran; the run is lost."),
	}
}

// CoreInfo is the GOOS=js core's answer to init: what the page's shim needs
// before the first cell (the limits it enforces, the failures it answers).
// Its members are in the order encoding/json wrote the map it replaces.
type CoreInfo struct {
	// Failures are the shim's failed results (ShimFailures).
	Failures ShimFailures `json:"failures"`
	// Languages are the languages exec accepts.
	Languages []string `json:"languages"`
	// TimeoutMs is the cell's time limit.
	TimeoutMs int `json:"timeoutMs"`
}

// CoreInfoFor is the init answer of a core with cfg.
func CoreInfoFor(cfg config.Config) CoreInfo {
	return CoreInfo{Failures: ShimFailuresFor(cfg.TimeoutMs), Languages: cfg.Languages, TimeoutMs: cfg.TimeoutMs}
}

// JSON is json.Marshal(c), written without reflection (jsonw): it is the
// first JSON a page's core writes, before its first result.
func (c CoreInfo) JSON() []byte {
	b := append(make([]byte, 0, 1024), `{"failures":{"timeout":`...)
	b = appendResult(b, c.Failures.Timeout)
	b = appendResult(append(b, `,"stopped":`...), c.Failures.Stopped)
	b = appendResult(append(b, `,"restarted":`...), c.Failures.Restarted)
	b = jsonw.Strings(append(b, `},"languages":`...), c.Languages)
	b = jsonw.Int(append(b, `,"timeoutMs":`...), c.TimeoutMs)
	return append(b, '}')
}

// appendResult appends r's JSON; the failures hold no raw value, so
// MarshalJSON cannot fail on them.
func appendResult(dst []byte, r core.Result) []byte {
	b, _ := r.MarshalJSON()
	return append(dst, b...)
}
