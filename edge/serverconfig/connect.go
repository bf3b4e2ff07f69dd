//go:build !js && !wasip1

package serverconfig

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"os"
	"sort"
	"time"

	"github.com/codemode-go/codemode/core/mcp"
	"github.com/codemode-go/codemode/core/mcp/httpmcp"
	"github.com/codemode-go/codemode/core/mcp/stdio"
)

// childEnv is what a stdio MCP server inherits from this process: enough to
// find and run its program, never the rest (tokens read through tokenEnv stay
// here). A server's own env entries are added on top.
var childEnv = []string{"PATH", "HOME", "USER", "LANG", "LC_ALL", "TMPDIR", "TZ", "NODE_PATH", "SYSTEMROOT"}

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
		log.Info("MCP server connected", "server", s.Name, "tools", len(srv.Tools()))
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
		return httpmcp.Connect(ctx, s.Name, s.URL, client)
	}
	env := []string{}
	for _, k := range childEnv {
		if v, ok := os.LookupEnv(k); ok {
			env = append(env, k+"="+v)
		}
	}
	keys := make([]string, 0, len(s.Env))
	for k := range s.Env {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		env = append(env, k+"="+s.Env[k])
	}
	return stdio.Connect(ctx, s.Name, stdio.Command{Path: s.Command, Args: s.Args, Env: env, Dir: s.Cwd, Stderr: stderr})
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
