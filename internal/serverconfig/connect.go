//go:build !js && !wasip1

package serverconfig

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"sort"
	"time"

	"github.com/codemode-go/codemode/core/mcp"
)

// ConnectTimeout bounds one server's connect and initialize.
const ConnectTimeout = 20 * time.Second

// Connect opens every configured MCP server. One that fails to connect is
// logged with its reason and left out; the others still start. The caller
// closes the returned servers (for stdio servers that stops the child).
func Connect(ctx context.Context, servers []MCPServer, log *slog.Logger, stderr io.Writer) []*mcp.Server {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	var out []*mcp.Server
	for _, s := range servers {
		cctx, cancel := context.WithTimeout(ctx, ConnectTimeout)
		srv, err := connectOne(cctx, s, stderr)
		cancel()
		if err != nil {
			log.Warn("MCP server left out", "server", s.Name, "reason", err.Error())
			continue
		}
		if err := srv.TrustReadOnly(s.ReadOnlyTools...); err != nil {
			// A stale list is the operator's to fix; the server still serves,
			// and restartSafe runs refuse all of its tools meanwhile.
			log.Warn("MCP server readOnlyTools ignored", "server", s.Name, "reason", err.Error())
		}
		log.Info("MCP server connected", "server", s.Name, "tools", len(srv.Tools()), "readOnlyTools", len(s.ReadOnlyTools))
		for _, d := range srv.Dropped() {
			log.Warn("MCP server metadata dropped", "server", s.Name, "kind", d.Kind, "name", d.Name, "reason", d.Reason)
		}
		out = append(out, srv)
	}
	return out
}

func connectOne(ctx context.Context, s MCPServer, stderr io.Writer) (*mcp.Server, error) {
	if s.URL != "" {
		client := &http.Client{Transport: headerTransport{headers: s.Headers, base: http.DefaultTransport}}
		return mcp.ConnectHTTP(ctx, s.Name, s.URL, client)
	}
	// The child gets stdio's allowlisted host variables (mcp.StdioCommand's allowlist), never
	// the rest (tokens read through tokenEnv stay here); the server's own env
	// entries are added on top.
	env := []string{}
	keys := make([]string, 0, len(s.Env))
	for k := range s.Env {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		env = append(env, k+"="+s.Env[k])
	}
	return mcp.ConnectStdio(ctx, s.Name, mcp.StdioCommand{Path: s.Command, Args: s.Args, Env: env, Dir: s.Cwd, Stderr: stderr})
}

// headerTransport adds a server's configured headers to every request.
type headerTransport struct {
	headers map[string]string
	base    http.RoundTripper
}

func (t headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if len(t.headers) == 0 {
		return t.base.RoundTrip(r)
	}
	r = r.Clone(r.Context())
	for k, v := range t.headers {
		r.Header.Set(k, v)
	}
	return t.base.RoundTrip(r)
}
