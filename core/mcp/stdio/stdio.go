//go:build !js && !wasip1

// Package stdio connects to an MCP server that runs as a child process speaking
// JSON-RPC over stdin/stdout. It is the only place that spawns processes, and it is
// excluded from WebAssembly builds, where there are no processes to spawn.
package stdio

import (
	"context"
	"fmt"
	"io"
	"os/exec"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/codemode-go/codemode/core/mcp"
)

// Command describes the server process.
type Command struct {
	Path string   // executable; looked up in PATH when it has no slash
	Args []string // arguments after Path
	Env  []string // full environment; nil inherits the host's
	Dir  string   // working directory; empty is the host's
	// Stderr receives the server's log output; nil discards it.
	Stderr io.Writer
	// TerminateAfter is how long Close waits after closing stdin before it sends
	// SIGTERM (and later SIGKILL). Zero means 2s.
	TerminateAfter time.Duration
}

// Connect starts the process and opens an MCP session with it. The process is not
// tied to ctx (ctx only bounds the handshake); it stops when the Server is closed,
// or when Connect fails.
func Connect(ctx context.Context, name string, c Command) (*mcp.Server, error) {
	if err := mcp.ValidateServerName(name); err != nil {
		return nil, err
	}
	if c.Path == "" {
		return nil, fmt.Errorf("mcp/stdio: server %q: empty command path", name)
	}
	cmd := exec.Command(c.Path, c.Args...)
	cmd.Env = c.Env
	cmd.Dir = c.Dir
	cmd.Stderr = c.Stderr
	td := c.TerminateAfter
	if td <= 0 {
		td = 2 * time.Second
	}
	return mcp.Connect(ctx, name, &sdk.CommandTransport{Command: cmd, TerminateDuration: td})
}
