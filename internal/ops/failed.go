package ops

import "github.com/codemode-go/codemode/core"

// Failed is a failed CodeModeResult for a failure no core saw (a session
// object whose core could not start, a lost Durable Object): the spec's
// shape with empty telemetry, so every host answers it alike.
func Failed(code core.ErrorCode, msg string) core.Result {
	return core.Result{Status: core.StatusFailed, Code: code, Error: msg, Telemetry: core.Telemetry{ModelVisibleTools: []string{}}}
}

// Unavailable is runtime_unavailable with why ("code mode runtime
// unavailable: " + why).
func Unavailable(why string) core.Result {
	return Failed(core.CodeRuntimeUnavailable, "code mode runtime unavailable: "+why)
}

// UnknownRun is wait's answer for a runId the core does not hold: what a
// host answers without asking a core that holds no runs yet.
func UnknownRun() core.Result { return Failed(core.CodeInvalidInput, core.MsgRunUnavailable) }
