package config

// Error is a configuration error. Field is the full dotted path of the offending
// value (for example "tools.codeMode.timeoutMs" or "tools.codeMode.languages[1]"),
// so that an operator can find it in a large config file; Msg says what is wrong
// and what would be accepted.
type Error struct {
	Field string
	Msg   string
}

// Error renders "<field> <msg>", e.g.
// "tools.codeMode.timeoutMs must be between 100 and 60000 (got 5)".
func (e *Error) Error() string {
	if e.Field == "" {
		return e.Msg
	}
	return e.Field + " " + e.Msg
}

// Path is the path of the codeMode value itself; every Field starts with it.
const Path = "tools.codeMode"

func fieldErr(field, msg string) *Error {
	if field == "" {
		return &Error{Field: Path, Msg: msg}
	}
	return &Error{Field: Path + "." + field, Msg: msg}
}
