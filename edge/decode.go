package edge

import (
	"errors"

	"github.com/codemode-go/codemode/internal/jsonin"
)

// kindCodes maps each of the strict decoder's refusals to the API's code.
var kindCodes = map[jsonin.Kind]string{
	jsonin.Malformed:      CodeInvalidJSON,
	jsonin.Trailing:       CodeTrailingData,
	jsonin.UnknownField:   CodeUnknownField,
	jsonin.DuplicateField: CodeDuplicateField,
	jsonin.WrongType:      CodeWrongType,
	jsonin.TooDeep:        CodeTooDeep,
}

// decodeStrict decodes body into v (a pointer to a request struct) with the
// strict decoder every host shares (internal/jsonin), and answers its refusal
// as a 400 with the API's code for it.
func decodeStrict(body []byte, v any) *apiError {
	err := jsonin.Decode(body, v, "request body")
	if err == nil {
		return nil
	}
	var je *jsonin.Error
	if !errors.As(err, &je) {
		return badRequest(CodeInvalidJSON, "request body could not be decoded")
	}
	return badRequest(kindCodes[je.Kind], je.Msg)
}

// quoteField renders a client's string (a path, a header, an origin) for a
// message, as the decoder renders field names.
func quoteField(s string) string { return jsonin.Quote(s) }
