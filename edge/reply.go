package edge

import (
	"net/http"
	"strconv"

	"github.com/codemode-go/codemode/internal/ops"
	json "github.com/goccy/go-json"
)

// apiError is an HTTP-level refusal: the status and the {error: {code,
// message}} body, the operations table's own (ops.Refusal). Messages are
// written in JSON terms; nothing from a Go error (types, stacks, host paths)
// is ever copied into one.
type apiError = ops.Refusal

// Error codes of HTTP-level refusals, stable for clients and tests.
const (
	codeBodyTooLarge         = "body_too_large"
	codeUnsupportedMediaType = "unsupported_media_type"
	codeMethodNotAllowed     = "method_not_allowed"
	codeUnauthorized         = "unauthorized"
	codeOriginNotAllowed     = "origin_not_allowed"
	// codeHostNotAllowed answers 403 when Options.LoopbackHostsOnly is set and
	// the request's Host is not a loopback name (DNS rebinding).
	codeHostNotAllowed = "host_not_allowed"
)

func badRequest(code, msg string) *apiError { return ops.BadRequest(code, msg) }

// writeJSON answers status with v as JSON.
func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		status, b = ops.Answer{Value: v}.Encode()
	}
	writeRaw(w, status, b)
}

// writeRaw answers status with the JSON document b.
func writeRaw(w http.ResponseWriter, status int, b []byte) {
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Content-Length", strconv.Itoa(len(b)+1))
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	w.Write(append(b, '\n'))
}

func writeError(w http.ResponseWriter, e *apiError) {
	writeJSON(w, e.Status, e.Body())
}

// refuse is an HTTP-level refusal with status, code and message.
func refuse(status int, code, msg string) *apiError {
	return &apiError{Status: status, Code: code, Message: msg}
}
