package mcpserver

import (
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"io"
	"net/http"
	"strconv"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/codemode-go/codemode/core"
	"github.com/codemode-go/codemode/edge"
	json "github.com/goccy/go-json"
)

const (
	// sessionHeader is Streamable HTTP's session id header.
	sessionHeader = "Mcp-Session-Id"
	// requestIDHeader carries a tools/call's JSON-RPC id from a stateless
	// server's HTTP handler to its tool handler (which the SDK does not give
	// the id); the handler sets it, so a client's own value never counts.
	requestIDHeader = "X-Codemode-Mcp-Request-Id"
	// maxSessionIDBytes bounds a session id a stateless server accepts.
	maxSessionIDBytes = 128
)

// HTTPHandler serves MCP over Streamable HTTP (POST, GET and DELETE at the
// path it is mounted on). The principal is edge.Principal of the request's
// context: mounted as edge.Options.MCP it is the bearer token's, so /mcp has
// the same tokens, CORS and body limit as /v1. A request naming a session of
// another principal is answered exactly as one naming no session at all
// (404), so a session id reveals nothing across principals. A stateless
// server (NewStateless) keeps no session: see statelessHTTP.
func (s *Server) HTTPHandler() http.Handler {
	s.httpOnce.Do(func() {
		sdkh := sdk.NewStreamableHTTPHandler(func(r *http.Request) *sdk.Server {
			if ps := s.principal(edge.Principal(r.Context())); ps != nil {
				return ps.srv
			}
			return nil // the SDK answers 400; statelessHTTP made it first
		}, &sdk.StreamableHTTPOptions{
			Stateless:           s.remote != nil,
			SessionTimeout:      s.opts.IdleTimeout,
			MaxRequestBodyBytes: s.opts.MaxBodyBytes,
			Logger:              s.opts.Logger,
		})
		if s.remote != nil {
			s.http = s.statelessHTTP(sdkh)
			return
		}
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

// rpcPeek is what a stateless server reads of a POSTed JSON-RPC message.
type rpcPeek struct {
	Method string          `json:"method"`
	ID     json.RawMessage `json:"id"`
	Params struct {
		RequestID json.RawMessage `json:"requestId"`
	} `json:"params"`
}

// statelessHTTP wraps the SDK's stateless handler with what makes MCP
// sessions without server state: initialize (a POST without Mcp-Session-Id)
// gets a fresh session id in its answer's header; every later POST must name
// one, and its principal and id are the scope of its calls; DELETE ends the
// session's runs (RemoteRuntime.EndRemoteSession), and
// notifications/cancelled, a POST of its own, aborts the call it names
// (RemoteRuntime.CancelCall). A session id is not checked against a list:
// one the server never issued names a scope with no runs, of the caller's
// own principal only.
func (s *Server) statelessHTTP(sdkh http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx, principal := r.Context(), edge.Principal(r.Context())
		sid := r.Header.Get(sessionHeader)
		if sid != "" && !validSessionID(sid) {
			http.Error(w, "Bad Request: Mcp-Session-Id must be 1-128 visible ASCII characters, as initialize answered it", http.StatusBadRequest)
			return
		}
		switch r.Method {
		case http.MethodDelete:
			if sid == "" {
				http.Error(w, "Bad Request: DELETE needs the Mcp-Session-Id header of the session to end", http.StatusBadRequest)
				return
			}
			s.remote.EndRemoteSession(ctx, core.CallInfo{Scope: s.sessionScope(sid), Principal: principal})
			w.WriteHeader(http.StatusNoContent)
			return
		case http.MethodPost:
		default:
			sdkh.ServeHTTP(w, r) // 405 with Allow: POST
			return
		}
		body, err := io.ReadAll(r.Body)
		if err != nil {
			var mbe *http.MaxBytesError
			if errors.As(err, &mbe) {
				http.Error(w, "request body exceeds "+strconv.FormatInt(mbe.Limit, 10)+" bytes", http.StatusRequestEntityTooLarge)
				return
			}
			http.Error(w, "Bad Request: the body could not be read", http.StatusBadRequest)
			return
		}
		if int64(len(body)) > s.opts.MaxBodyBytes {
			http.Error(w, "request body exceeds "+strconv.FormatInt(s.opts.MaxBodyBytes, 10)+" bytes", http.StatusRequestEntityTooLarge)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		var msg rpcPeek
		_ = json.Unmarshal(body, &msg) // the SDK answers what is not JSON-RPC
		r.Header.Del(requestIDHeader)
		if sid == "" {
			if msg.Method != "initialize" {
				http.Error(w, "Bad Request: Mcp-Session-Id header is required; send initialize first and then the session id it answered", http.StatusBadRequest)
				return
			}
			sid = "mcp_" + rand.Text()
			w.Header().Set(sessionHeader, sid)
		}
		if !s.ensureSurface(ctx, sid) {
			http.Error(w, "the Code Mode tool surface could not be built; try again", http.StatusServiceUnavailable)
			return
		}
		switch msg.Method {
		case "tools/call":
			r.Header.Set(requestIDHeader, string(msg.ID))
		case "notifications/cancelled":
			if len(msg.Params.RequestID) > 0 {
				s.remote.CancelCall(ctx, core.CallInfo{Scope: s.sessionScope(sid), Principal: principal,
					CallID: requestCallID(string(msg.Params.RequestID))})
			}
		}
		sdkh.ServeHTTP(w, r)
	})
}

// ensureSurface reads a stateless server's tools/list once, with the first
// request that needs it (through that request's session: the surface is the
// same for every session). false when it could not be read; the next
// request tries again.
func (s *Server) ensureSurface(ctx context.Context, sid string) bool {
	s.mu.Lock()
	ready := s.tools != nil
	s.mu.Unlock()
	if ready {
		return true
	}
	tools := s.readSurface(ctx, s.sessionScope(sid))
	if tools == nil {
		return false
	}
	s.mu.Lock()
	if s.tools == nil {
		s.tools = tools
	}
	s.mu.Unlock()
	return true
}

// validSessionID reports whether sid can be a session id: 1 to 128 visible
// ASCII characters, as the Streamable HTTP transport says.
func validSessionID(sid string) bool {
	if len(sid) == 0 || len(sid) > maxSessionIDBytes {
		return false
	}
	for i := 0; i < len(sid); i++ {
		if sid[i] < 0x21 || sid[i] > 0x7e {
			return false
		}
	}
	return true
}
