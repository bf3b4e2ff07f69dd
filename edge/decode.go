package edge

import "github.com/codemode-go/codemode/internal/ops"

// quoteField renders a client's string (a path, a header, an origin) for a
// message, as the decoder renders field names.
func quoteField(s string) string { return ops.Quote(s) }
