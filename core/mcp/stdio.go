//go:build !js && !wasip1

// ConnectStdio connects to an MCP server that runs as a child process speaking
// JSON-RPC over stdin/stdout. This file is the only place that spawns processes,
// and it is excluded from WebAssembly builds, where there are no processes to spawn.

package mcp

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
	"time"

	"github.com/codemode-go/codemode/internal/mcpname"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// StdioCommand describes the server process.
//
// The server never sees the host's whole environment: a host holds secrets (API
// tokens, cloud credentials) that a server, and through its tools a model-written
// cell, must not read. It gets the host variables named by stdioAllowedEnv, the host
// variables named in PassEnv, and Env, in that order (a later entry wins).
type StdioCommand struct {
	// Path is the executable; it is looked up in PATH when it has no slash.
	Path string
	// Args are the arguments after Path.
	Args []string
	// Env are variables set for the server, as KEY=VALUE.
	Env []string
	// PassEnv names further host variables handed to the server when set, for
	// what a server needs and the host holds (a token it authenticates with).
	PassEnv []string
	// Dir is the working directory; empty is the host's.
	Dir string
	// Stderr receives the server's log output; nil discards it.
	Stderr io.Writer
	// TerminateAfter is how long Close waits after closing stdin before it sends
	// SIGTERM (and later SIGKILL). Zero means 2s.
	TerminateAfter time.Duration
}

// allowedEnv: what a program needs to start, find its files and print text, and
// nothing that usually holds a secret. The POSIX and Windows names of the MCP
// TypeScript SDK's getDefaultEnvironment, plus locale, time zone, temp dir and
// NODE_PATH.
var allowedEnv = []string{
	"PATH", "HOME", "USER", "LOGNAME", "SHELL", "TERM", "LANG", "LC_ALL", "LC_CTYPE", "TZ", "TMPDIR", "NODE_PATH",
	"APPDATA", "HOMEDRIVE", "HOMEPATH", "LOCALAPPDATA", "PROCESSOR_ARCHITECTURE", "PROGRAMFILES",
	"SYSTEMDRIVE", "SYSTEMROOT", "TEMP", "TMP", "USERNAME", "USERPROFILE",
}

// stdioAllowedEnv returns the names of the host variables every stdio server gets:
// PATH, HOME, USER, LOGNAME, SHELL, TERM, LANG, LC_ALL, LC_CTYPE, TZ, TMPDIR,
// NODE_PATH and, on Windows, APPDATA, HOMEDRIVE, HOMEPATH, LOCALAPPDATA,
// PROCESSOR_ARCHITECTURE, PROGRAMFILES, SYSTEMDRIVE, SYSTEMROOT, TEMP, TMP,
// USERNAME, USERPROFILE.
func stdioAllowedEnv() []string { return slices.Clone(allowedEnv) }

// environ builds the server's environment from the host's (lookup).
func (c StdioCommand) environ(lookup func(string) (string, bool)) []string {
	env := []string{}
	seen := map[string]bool{}
	for _, k := range slices.Concat(allowedEnv, c.PassEnv) {
		v, ok := lookup(k)
		// A value starting with "()" is an exported shell function: never pass
		// code along with the data (the TypeScript SDK skips them too).
		if !ok || seen[k] || strings.HasPrefix(v, "()") {
			continue
		}
		seen[k] = true
		env = append(env, k+"="+v)
	}
	return append(env, c.Env...)
}

// ConnectStdio starts the process and opens an MCP session with it. The process is not
// tied to ctx (ctx only bounds the handshake); it stops when the Server is closed,
// or when Connect fails.
func ConnectStdio(ctx context.Context, name string, c StdioCommand) (*Server, error) {
	if err := mcpname.Validate(name); err != nil {
		return nil, err
	}
	if c.Path == "" {
		return nil, fmt.Errorf("mcp/stdio: server %q: empty command path", name)
	}
	for i, kv := range c.Env {
		if k, _, ok := strings.Cut(kv, "="); !ok || k == "" {
			// The value may be a secret: name the entry, never print it.
			return nil, fmt.Errorf("mcp/stdio: server %q: Env[%d] is not KEY=VALUE", name, i)
		}
	}
	cmd := exec.Command(c.Path, c.Args...)
	cmd.Env = c.environ(os.LookupEnv)
	cmd.Dir = c.Dir
	cmd.Stderr = c.Stderr
	td := c.TerminateAfter
	if td <= 0 {
		td = 2 * time.Second
	}
	return Connect(ctx, name, &sdk.CommandTransport{Command: cmd, TerminateDuration: td})
}
