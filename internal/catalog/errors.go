package catalog

import "errors"

// Error kinds of the catalog. Every error returned by Describe, Lookup and Call
// wraps one of them (test with errors.Is) so the runtime can map it to a guest
// error without parsing messages. Messages never contain tool inputs or outputs.
var (
	ErrUnknownTool         = errors.New("unknown tool id")
	ErrMCPViaTools         = errors.New("MCP tool called through tools.*")
	ErrNotMCP              = errors.New("non-MCP tool called through MCP.*")
	ErrDenied              = errors.New("tool call denied")
	ErrApprovalDenied      = errors.New("tool call not approved")
	ErrRestartSafe         = errors.New("refused in a restartSafe run")
	ErrInvalidInput        = errors.New("invalid tool input")
	ErrInvalidOutputSchema = errors.New("invalid outputSchema")
	ErrOutputContract      = errors.New("output does not match outputSchema")
)

// Error is a catalog error: a message for the model and a kind for the runtime.
type Error struct {
	// Kind is one of the Err* values (test with errors.Is).
	Kind error
	// Msg is the message.
	Msg string
}

// Error returns Msg: the text the model sees, with no Go type or path in it.
func (e *Error) Error() string { return e.Msg }

// Unwrap returns Kind, so errors.Is(err, catalog.ErrDenied) and friends work.
func (e *Error) Unwrap() error { return e.Kind }

func newErr(kind error, msg string) error { return &Error{Kind: kind, Msg: msg} }
