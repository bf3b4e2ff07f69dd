package edge

import (
	"net/http"
	"strconv"

	json "github.com/goccy/go-json"
)

// apiError is an HTTP-level refusal: the status and the {error: {code,
// message}} body. Messages are written here, in JSON terms; nothing from a Go
// error (types, stacks, host paths) is ever copied into one.
type apiError struct {
	Status  int
	Code    string
	Message string
}

// Error codes of HTTP-level refusals, stable for clients and tests.
const (
	CodeInvalidJSON          = "invalid_json"
	CodeTrailingData         = "trailing_data"
	CodeUnknownField         = "unknown_field"
	CodeDuplicateField       = "duplicate_field"
	CodeWrongType            = "wrong_type"
	CodeTooDeep              = "too_deep"
	CodeMissingField         = "missing_field"
	CodeInvalidField         = "invalid_field"
	CodeBodyTooLarge         = "body_too_large"
	CodeUnsupportedMediaType = "unsupported_media_type"
	CodeMethodNotAllowed     = "method_not_allowed"
	CodeNotFound             = "not_found"
	CodeUnauthorized         = "unauthorized"
	CodeOriginNotAllowed     = "origin_not_allowed"
	CodeInternal             = "internal_error"
	// CodeAtCapacity answers 429 with Retry-After: the runtime already runs
	// as many cells as it may (core.Options.MaxRunningCells).
	CodeAtCapacity = "at_capacity"
	// CodeHostNotAllowed answers 403 when Options.LoopbackHostsOnly is set and
	// the request's Host is not a loopback name (DNS rebinding).
	CodeHostNotAllowed = "host_not_allowed"
)

func badRequest(code, msg string) *apiError {
	return &apiError{Status: http.StatusBadRequest, Code: code, Message: msg}
}

type errorBody struct {
	Error errorDetail `json:"error"`
}

type errorDetail struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// writeJSON answers status with v as JSON.
func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		status = http.StatusInternalServerError
		b, _ = json.Marshal(errorBody{errorDetail{CodeInternal, "the server could not encode its answer"}})
	}
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Content-Length", strconv.Itoa(len(b)+1))
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	w.Write(append(b, '\n'))
}

func writeError(w http.ResponseWriter, e *apiError) {
	writeJSON(w, e.Status, errorBody{errorDetail{e.Code, e.Message}})
}
