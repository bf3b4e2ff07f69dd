package config

// Error is a configuration error. Field is the full dotted path of the offending
// value (for example "tools.codeMode.timeoutMs" or "tools.codeMode.languages[1]"),
// so that an operator can find it in a large config file; Msg says what is wrong
// and what would be accepted.
type Error struct {
	// Field is the config path of the offending field, e.g. tools.codeMode.timeoutMs.
	Field string
	// Msg is the message.
	Msg string
}

// Error renders "<field> <msg>", e.g.
// "tools.codeMode.timeoutMs must be between 100 and 60000 (got 5)".
func (e *Error) Error() string {
	if e.Field == "" {
		return e.Msg
	}
	return e.Field + " " + e.Msg
}

// path is the path of the codeMode value itself; every Field starts with it.
const path = "tools.codeMode"

func fieldErr(field, msg string) *Error {
	if field == "" {
		return &Error{Field: path, Msg: msg}
	}
	return &Error{Field: path + "." + field, Msg: msg}
}

// unknownFieldPath renders the path of an unknown key. Keys come from the
// input, so one that is not a short plain name is quoted and truncated rather
// than pasted into the path (a megabyte key must not make a megabyte error).
func unknownFieldPath(key string) string {
	plain := key != "" && len(key) <= 64
	for i := 0; plain && i < len(key); i++ {
		c := key[i]
		plain = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '$'
	}
	if plain {
		return path + "." + key
	}
	return path + "[" + quote(key) + "]"
}
