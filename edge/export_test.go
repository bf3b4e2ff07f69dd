package edge

// The handler's own error codes, for the external tests.
const (
	CodeBodyTooLarge         = codeBodyTooLarge
	CodeUnsupportedMediaType = codeUnsupportedMediaType
	CodeMethodNotAllowed     = codeMethodNotAllowed
	CodeUnauthorized         = codeUnauthorized
	CodeOriginNotAllowed     = codeOriginNotAllowed
	CodeHostNotAllowed       = codeHostNotAllowed
)
