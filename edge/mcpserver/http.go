package mcpserver

import (
	"net/http"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/codemode-go/codemode/edge"
)

// sessionHeader is Streamable HTTP's session id header.
const sessionHeader = "Mcp-Session-Id"

// HTTPHandler serves MCP over Streamable HTTP (POST, GET and DELETE at the
// path it is mounted on). The principal is edge.Principal of the request's
// context: mounted as edge.Options.MCP it is the bearer token's, so /mcp has
// the same tokens, CORS and body limit as /v1. A request naming a session of
// another principal is answered exactly as one naming no session at all
// (404), so a session id reveals nothing across principals.
func (s *Server) HTTPHandler() http.Handler {
	s.httpOnce.Do(func() {
		sdkh := sdk.NewStreamableHTTPHandler(func(r *http.Request) *sdk.Server {
			return s.principal(edge.Principal(r.Context())).srv
		}, &sdk.StreamableHTTPOptions{
			SessionTimeout:      s.opts.IdleTimeout,
			MaxRequestBodyBytes: s.opts.MaxBodyBytes,
			Logger:              s.opts.Logger,
		})
		s.http = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if sid := r.Header.Get(sessionHeader); sid != "" && !s.principal(edge.Principal(r.Context())).owns(sid) {
				http.Error(w, "session not found", http.StatusNotFound)
				return
			}
			sdkh.ServeHTTP(w, r)
		})
	})
	return s.http
}
