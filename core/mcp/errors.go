package mcp

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// ErrUnavailable marks a call that failed because the server's connection is gone
// (a stdio server that exited, a closed HTTP session). The Server does not
// reconnect by itself: every later call fails the same way at once, naming the
// server, until the host connects it again.
var ErrUnavailable = errors.New("mcp: server is unavailable")

// MaxErrorMessageBytes bounds the part of a server's JSON-RPC error message that
// reaches the guest or an HTTP client.
const MaxErrorMessageBytes = 512

// JSON-RPC codes the SDK uses for a session that is shutting down.
const (
	codeClientClosing = -32003
	codeServerClosing = -32004
)

// unavailableError is ErrUnavailable for one server.
type unavailableError struct{ server string }

func (e unavailableError) Error() string {
	return fmt.Sprintf("mcp: server %q is unavailable: its connection closed; the host must reconnect it", e.server)
}

func (e unavailableError) Unwrap() error { return ErrUnavailable }

// callError words an SDK failure of what (a method) on subject (the server, or
// server.tool) for a caller that may be a model or an HTTP client. The SDK's own
// text can quote Go decoder messages (Go struct and field types) for a malformed
// response, so only three things pass: context errors (wrapped, so aborts and
// deadlines keep their meaning), the server's own JSON-RPC error (code and a
// clipped message: the server's text, untrusted but meant for the caller), and a
// closed connection (ErrUnavailable). Anything else is a response that is not
// valid MCP, said without the decoder's words.
func callError(server, subject, what string, err error) error {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		ctxErr := context.Canceled
		if errors.Is(err, context.DeadlineExceeded) {
			ctxErr = context.DeadlineExceeded
		}
		return fmt.Errorf("mcp: %s: %s: %w", subject, what, ctxErr)
	}
	if errors.Is(err, sdk.ErrConnectionClosed) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrClosedPipe) {
		return unavailableError{server}
	}
	var we *jsonrpc.Error
	if errors.As(err, &we) {
		if we.Code == codeClientClosing || we.Code == codeServerClosing {
			return unavailableError{server}
		}
		msg := we.Message
		if len(msg) > MaxErrorMessageBytes {
			msg = clip(msg[:MaxErrorMessageBytes]) + "…"
		}
		return fmt.Errorf("mcp: %s: %s: the server answered error %d: %s", subject, what, we.Code, clip(msg))
	}
	return fmt.Errorf("mcp: %s: %s: the server's answer is not a valid MCP result", subject, what)
}
