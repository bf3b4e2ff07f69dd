package mcp

import (
	"errors"
	"fmt"
)

// errUnavailable marks a call that failed because the server's connection is gone
// (a stdio server that exited, a closed HTTP session). The Server does not
// reconnect by itself: every later call fails the same way at once, naming the
// server, until the host connects it again.
var errUnavailable = errors.New("mcp: server is unavailable")

// maxErrorMessageBytes bounds the part of a server's JSON-RPC error message that
// reaches the guest or an HTTP client.
const maxErrorMessageBytes = 512

// JSON-RPC codes the SDK uses for a session that is shutting down.
const (
	codeClientClosing = -32003
	codeServerClosing = -32004
)

// unavailableError is errUnavailable for one server.
type unavailableError struct{ server string }

func (e unavailableError) Error() string {
	return fmt.Sprintf("mcp: server %q is unavailable: its connection closed; the host must reconnect it", e.server)
}

func (e unavailableError) Unwrap() error { return errUnavailable }
