package config

import "fmt"

// checkDepth rejects input that nests objects/arrays deeper than max. It mirrors
// just enough of the JSON5 lexer to know which brackets are structural: strings
// in double or single quotes with backslash escapes, // comments up to '\n' and
// /* */ comments, exactly as the json5 scanner ends them. It runs in one pass
// and uses O(1) memory; a miscount could only matter for input the decoder then
// rejects anyway.
func checkDepth(data []byte, max int) error {
	depth := 0
	for i := 0; i < len(data); i++ {
		switch c := data[i]; c {
		case '"', '\'':
			for i++; i < len(data) && data[i] != c; i++ {
				if data[i] == '\\' {
					i++
				}
			}
		case '/':
			if i+1 < len(data) && data[i+1] == '/' {
				for i += 2; i < len(data) && data[i] != '\n'; i++ {
				}
			} else if i+1 < len(data) && data[i+1] == '*' {
				for i += 2; i+1 < len(data) && !(data[i] == '*' && data[i+1] == '/'); i++ {
				}
				i++
			}
		case '{', '[':
			depth++
			if depth > max {
				return &Error{Msg: fmt.Sprintf("config nests deeper than %d levels", max)}
			}
		case '}', ']':
			if depth > 0 { // stray closers must not buy extra depth later
				depth--
			}
		}
	}
	return nil
}
