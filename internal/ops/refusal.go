package ops

import (
	"errors"
	"strconv"

	"github.com/codemode-go/codemode/internal/jsonin"
)

// Refusal is a request an operation refused before any core work: the
// status an HTTP host answers (always 4xx or 5xx), a stable code and a
// message written in JSON terms for the caller (a model or its host), never
// a Go error's text.
type Refusal struct {
	// Status is the HTTP status of the refusal.
	Status int
	// Code is one of the Code constants.
	Code string
	// Message says what was wrong and what to send instead.
	Message string
}

// Error returns Message.
func (r *Refusal) Error() string { return r.Message }

// Refusal codes, stable for clients and tests. The HTTP host adds its own
// (body size, media type, method, auth) with the same {error: {code,
// message}} shape.
const (
	CodeInvalidJSON    = "invalid_json"
	CodeTrailingData   = "trailing_data"
	CodeUnknownField   = "unknown_field"
	CodeDuplicateField = "duplicate_field"
	CodeWrongType      = "wrong_type"
	CodeTooDeep        = "too_deep"
	CodeMissingField   = "missing_field"
	CodeInvalidField   = "invalid_field"
	CodeNotFound       = "not_found"
	CodeInternal       = "internal_error"
	// CodeAtCapacity answers 429 with Retry-After: the runtime already runs
	// as many cells as it may (core.Options.MaxRunningCells).
	CodeAtCapacity = "at_capacity"
)

// The HTTP statuses of answers and refusals (spelled here: net/http would
// weigh on the page's codemode.wasm, which links this package).
const (
	statusOK         = 200
	statusBadRequest = 400
	statusNotFound   = 404
	statusTooMany    = 429
	statusInternal   = 500
)

// kindCode is the code of each of the strict decoder's refusals (a switch,
// not a map that package init would build at every start).
func kindCode(k jsonin.Kind) string {
	switch k {
	case jsonin.Malformed:
		return CodeInvalidJSON
	case jsonin.Trailing:
		return CodeTrailingData
	case jsonin.UnknownField:
		return CodeUnknownField
	case jsonin.DuplicateField:
		return CodeDuplicateField
	case jsonin.WrongType:
		return CodeWrongType
	case jsonin.TooDeep:
		return CodeTooDeep
	}
	return ""
}

// BadRequest is a 400 refusal.
func BadRequest(code, msg string) *Refusal {
	return &Refusal{Status: statusBadRequest, Code: code, Message: msg}
}

// Missing refuses a request without a required field.
func Missing(field string) *Refusal {
	return BadRequest(CodeMissingField, "field "+strconv.Quote(field)+" is required")
}

// Decode strictly decodes a message into v (a pointer to a request type)
// with the decoder every host shares (internal/jsonin) and answers its
// refusal as a 400 with the code for it. what names the message ("request
// body").
func Decode(body []byte, v any, what string) *Refusal {
	err := jsonin.Decode(body, v, what)
	if err == nil {
		return nil
	}
	var je *jsonin.Error
	if !errors.As(err, &je) {
		return BadRequest(CodeInvalidJSON, what+" could not be decoded")
	}
	return BadRequest(kindCode(je.Kind), je.Msg)
}

// Quote renders a caller's string (a path, a header, a format) for a
// message, as the decoder renders field names.
func Quote(s string) string { return jsonin.Quote(s) }

// errorBody is the {error: {code, message}} shape of every refusal.
type errorBody struct {
	Error errorDetail `json:"error"`
}

type errorDetail struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// Body is the refusal's JSON value, {error: {code, message}}.
func (r *Refusal) Body() any { return errorBody{errorDetail{r.Code, r.Message}} }
