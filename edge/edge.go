// Package edge is the Code Mode HTTP API: one http.Handler over a core.Runtime
// that every host serves (codemode serve natively, the Cloudflare Worker in
// front of its Durable Objects, any Go program with its own tools). It owns the
// wire contract and nothing else: decoding, auth, CORS and routing here; every
// decision about cells, tools and runs stays in the core.
//
// Routes (JSON bodies; errors are {error: {code, message}} with a 4xx status):
//
//	POST /v1/exec        {code?, command?, language?, restartSafe?, scope} -> CodeModeResult
//	POST /v1/wait        {runId, scope}                                    -> CodeModeResult
//	POST /v1/surface     {scope, format?: plain|anthropic|openai|openai-responses} -> {tools}
//	GET  /v1/catalog     [?agentId&sessionId&sessionKey&agentRunId]         -> {entries, mcpServers}
//	POST /v1/tools/call  {id, input, scope, callId?}                        -> {details, content?} | {error}
//	POST /v1/mcp/resources/read {server, uri, scope}                        -> {result} | {error}
//	POST /v1/mcp/prompts/get    {server, name, arguments?, scope}           -> {result} | {error}
//	GET  /healthz                                                           -> {ok, version, engine}
//	POST|GET|DELETE /mcp  MCP over Streamable HTTP, when Options.MCP is set (edge/mcpserver)
//	GET  /openapi.json                                                      -> this API as an OpenAPI 3.1 document
//	GET  /...            static files (the web IDE), when Options.StaticDir is set
package edge

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/codemode-go/codemode/core"
	"github.com/codemode-go/codemode/internal/ops"
)

// Operations are the model-facing operations every front serves the same
// way (the HTTP API here, the MCP server in mcpserver): the operations
// table's (internal/ops).
type Operations = ops.Operations

// Runtime is everything the handler asks of a core (ops.Runtime).
// *core.Runtime is the one in-process implementation; a host whose cells run
// somewhere else implements it by forwarding (the Cloudflare Worker's front
// forwards Exec, Wait and Surface to a Durable Object and serves Catalog and
// CallTool from a RelayOnly core), so every route, its decoding and its
// answers stay in one place.
type Runtime = ops.Runtime

var _ Runtime = (*core.Runtime)(nil)

type principalKey struct{}

// Principal returns the authenticated principal of a request's context ("" when
// auth is off or the route needs none). A forwarding Runtime uses it where a
// method has no CallInfo (Surface, Catalog).
func Principal(ctx context.Context) string {
	p, _ := ctx.Value(principalKey{}).(string)
	return p
}

// DefaultMaxBodyBytes bounds a request body unless Options.MaxBodyBytes says
// otherwise: cells are at most a few hundred KiB, tool inputs rarely more.
const DefaultMaxBodyBytes = 4 << 20

// Token maps one bearer token to the principal it authenticates.
type Token struct {
	// Principal names the caller; runs it suspends are invisible to others.
	Principal string `json:"principal"`
	// Token is the secret sent as "Authorization: Bearer <token>".
	Token string `json:"token"`
}

// Options configures a Handler. The zero value serves the API without auth,
// without CORS and without static files.
type Options struct {
	// Tokens turn on bearer auth for every /v1 route; empty means no auth (only
	// sensible on loopback; codemode serve refuses anything else).
	Tokens []Token
	// AllowedOrigins turns CORS on for these origins ("https://app.example",
	// or "*" for any origin; credentials are never allowed either way).
	AllowedOrigins []string
	// MaxBodyBytes bounds request bodies; 0 means DefaultMaxBodyBytes.
	MaxBodyBytes int64
	// StaticDir, when set, is served at / (the web IDE), with precompressed
	// .br/.gz variants chosen by Accept-Encoding.
	StaticDir string
	// Logger receives one record per request (method, path, status, duration,
	// runId, and for exec/wait the result's status and error code; never
	// bodies or tokens); nil logs nothing.
	Logger *slog.Logger
	// Version and Engine are reported by /healthz; empty means "dev" and the
	// runtime's configured engine.
	Version, Engine string
	// MCP, when set, is served at /mcp (mcpserver.Server.HTTPHandler: Code
	// Mode as an MCP server over Streamable HTTP) behind the same bearer
	// tokens, CORS and body limit as /v1; Principal gives it the caller.
	MCP http.Handler
	// LoopbackHostsOnly answers only requests whose Host header names the
	// loopback interface (localhost, 127.0.0.0/8, [::1]); any other is 403
	// host_not_allowed. A server without tokens on loopback sets it: without
	// it, any web page the person opens could reach the server through DNS
	// rebinding (a name of the page's that resolves to 127.0.0.1) and run
	// cells and tools as a same-origin caller, past CORS.
	LoopbackHostsOnly bool
}

// Handler serves the HTTP API. It is safe for concurrent use.
type Handler struct {
	rt      Runtime
	opts    Options
	auth    *authenticator
	cors    *corsPolicy
	static  *staticFiles
	routes  map[string]route
	maxBody int64
}

type route struct {
	method string // the one method it answers (GET routes also answer HEAD); "" for any (the route checks)
	serve  func(h *Handler, w http.ResponseWriter, r *http.Request, rc *requestContext)
	auth   bool
}

// New builds the handler. Bad tokens (empty, duplicate) and malformed origins
// are errors, so a misconfigured server never starts half-open.
func New(rt Runtime, opts Options) (*Handler, error) {
	if rt == nil {
		return nil, errors.New("edge: nil runtime")
	}
	auth, err := newAuthenticator(opts.Tokens)
	if err != nil {
		return nil, err
	}
	cors, err := newCORS(opts.AllowedOrigins)
	if err != nil {
		return nil, err
	}
	h := &Handler{rt: rt, opts: opts, auth: auth, cors: cors, maxBody: opts.MaxBodyBytes}
	if h.maxBody <= 0 {
		h.maxBody = DefaultMaxBodyBytes
	}
	if opts.StaticDir != "" {
		if h.static, err = newStaticFiles(opts.StaticDir); err != nil {
			return nil, err
		}
	}
	if h.opts.Version == "" {
		h.opts.Version = "dev"
	}
	if h.opts.Engine == "" {
		h.opts.Engine = rt.Config().Runtime
	}
	h.routes = map[string]route{
		"/v1/catalog":   {http.MethodGet, (*Handler).catalog, true},
		"/healthz":      {http.MethodGet, (*Handler).healthz, false},
		"/openapi.json": {http.MethodGet, (*Handler).openAPI, false},
	}
	for _, op := range []string{"exec", "wait", "surface", "tools/call", "mcp/resources/read", "mcp/prompts/get"} {
		h.routes["/v1/"+op] = route{http.MethodPost, h.serveOp(op), true}
	}
	if opts.MCP != nil {
		h.routes["/mcp"] = route{"", (*Handler).mcp, true}
	}
	return h, nil
}

// requestContext carries what the request log needs from a route.
type requestContext struct {
	principal string
	runID     string
	// result and code are an exec's or wait's CodeModeResult status and error
	// code, so the log tells a failed or timed-out run from a completed one
	// (its HTTP status is 200 either way).
	result core.Status
	code   core.ErrorCode
}

// ran notes res for the request log: its status and code, never its content.
func (rc *requestContext) ran(res core.Result) { rc.result, rc.code = res.Status, res.Code }

// ServeHTTP routes one request. A panic anywhere below is answered as a 500
// without detail and logged without a stack in the response.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	sw := &statusWriter{ResponseWriter: w}
	rc := &requestContext{}
	defer func() {
		if p := recover(); p != nil {
			if p == http.ErrAbortHandler {
				panic(p)
			}
			if !sw.wrote {
				writeError(sw, refuse(http.StatusInternalServerError, ops.CodeInternal, "the server failed while answering this request"))
			}
			if h.opts.Logger != nil {
				h.opts.Logger.Error("request panicked", "method", r.Method, "path", r.URL.Path, "panic", fmt.Sprint(p))
			}
		}
		h.logRequest(r, sw.status, time.Since(start), rc)
	}()
	h.serve(sw, r, rc)
}

func (h *Handler) serve(w http.ResponseWriter, r *http.Request, rc *requestContext) {
	if h.opts.LoopbackHostsOnly && !loopbackHost(r.Host) {
		writeError(w, refuse(http.StatusForbidden, codeHostNotAllowed, "host "+quoteField(r.Host)+" is not a name of this server: without auth.tokens it answers only localhost, 127.0.0.1 and [::1] (a guard against DNS rebinding); use one of those, or add auth.tokens to the config to serve other names"))
		return
	}
	if h.cors.handle(w, r) {
		return
	}
	rt, ok := h.routes[r.URL.Path]
	if !ok {
		if h.static != nil && !strings.HasPrefix(r.URL.Path, "/v1/") && (r.Method == http.MethodGet || r.Method == http.MethodHead) {
			h.static.serve(w, r)
			return
		}
		msg := "no route " + quoteField(r.URL.Path) + "; the API is /v1/exec, /v1/wait, /v1/surface, /v1/catalog, /v1/tools/call, /v1/mcp/resources/read, /v1/mcp/prompts/get, /healthz and /openapi.json"
		if h.opts.MCP != nil {
			msg += "; the MCP server (Streamable HTTP) is /mcp"
		}
		writeError(w, refuse(http.StatusNotFound, ops.CodeNotFound, msg))
		return
	}
	if rt.method != "" && r.Method != rt.method && !(rt.method == http.MethodGet && r.Method == http.MethodHead) {
		allow := rt.method
		if rt.method == http.MethodGet {
			allow = "GET, HEAD"
		}
		w.Header().Set("Allow", allow)
		writeError(w, refuse(http.StatusMethodNotAllowed, codeMethodNotAllowed, r.URL.Path+" answers "+allow+" only"))
		return
	}
	if rt.auth {
		p, err := h.auth.principal(r)
		if err != nil {
			w.Header().Set("WWW-Authenticate", `Bearer realm="codemode"`)
			writeError(w, err)
			return
		}
		rc.principal = p
		r = r.WithContext(context.WithValue(r.Context(), principalKey{}, p))
	}
	rt.serve(h, w, r, rc)
}

func (h *Handler) logRequest(r *http.Request, status int, d time.Duration, rc *requestContext) {
	if h.opts.Logger == nil {
		return
	}
	if status == 0 {
		status = http.StatusOK
	}
	attrs := []any{"method", r.Method, "path", r.URL.Path, "status", status, "duration", d.Round(time.Microsecond)}
	if rc.result != "" {
		attrs = append(attrs, "result", string(rc.result))
	}
	if rc.code != "" {
		attrs = append(attrs, "code", string(rc.code))
	}
	if rc.runID != "" {
		attrs = append(attrs, "runId", rc.runID)
	}
	if rc.principal != "" {
		attrs = append(attrs, "principal", rc.principal)
	}
	h.opts.Logger.Info("request", attrs...)
}

// statusWriter remembers the status for the request log.
type statusWriter struct {
	http.ResponseWriter
	status int
	wrote  bool
}

func (s *statusWriter) WriteHeader(code int) {
	if !s.wrote {
		s.status, s.wrote = code, true
	}
	s.ResponseWriter.WriteHeader(code)
}

func (s *statusWriter) Write(b []byte) (int, error) {
	if !s.wrote {
		s.status, s.wrote = http.StatusOK, true
	}
	return s.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (s *statusWriter) Unwrap() http.ResponseWriter { return s.ResponseWriter }

// loopbackHost reports whether a Host header (name or address, with or
// without a port) names the loopback interface.
func loopbackHost(hostport string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	if strings.EqualFold(host, "localhost") || strings.HasSuffix(strings.ToLower(host), ".localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
