package edge

import (
	"errors"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/codemode-go/codemode/core"
	"github.com/codemode-go/codemode/internal/relay"
	"github.com/codemode-go/codemode/internal/surface"
	json "github.com/goccy/go-json"
)

// Scope is the wire scope of every POST route: the agent run the caller acts
// for (not the Code Mode runId exec hands out).
type Scope struct {
	// AgentID is the agent running; required, as is SessionID.
	AgentID string `json:"agentId"`
	// SessionID is the session; a suspended run is visible only to the same
	// principal, agent and session that made it.
	SessionID string `json:"sessionId"`
	// SessionKey is the session's routing key, handed to tools and hooks.
	SessionKey string `json:"sessionKey"`
	// AgentRunID is the agent run (one user turn), handed to tools and hooks.
	AgentRunID string `json:"agentRunId"`
}

func (s *Scope) core() core.Scope {
	return core.Scope{AgentID: s.AgentID, SessionID: s.SessionID, SessionKey: s.SessionKey, AgentRunID: s.AgentRunID}
}

// ExecArgs are exec's arguments as a caller sends them: the spec's
// CodeModeExecInput plus restartSafe. Every front decodes them with the same
// strict decoder into this one type (POST /v1/exec embeds it; the MCP server's
// tools/call exec takes it as its arguments), so they accept and refuse alike;
// core.Runtime.Exec judges the values.
type ExecArgs struct {
	// Code is the cell (core.ExecInput.Code); pointers tell a missing field
	// from an empty one, so each refusal names what was wrong.
	Code *string `json:"code"`
	// Command is the alias of Code for hooks and trusted rewrites; when both
	// are set they must be equal.
	Command *string `json:"command"`
	// Language is "javascript" or "typescript"; absent means the config's default.
	Language *string `json:"language"`
	// RestartSafe declares read-only work (core.ExecInput.RestartSafe).
	RestartSafe *bool `json:"restartSafe"`
}

// Input is the core's exec input for a.
func (a ExecArgs) Input() core.ExecInput {
	in := core.ExecInput{Code: str(a.Code), Command: str(a.Command), Language: str(a.Language)}
	if a.RestartSafe != nil {
		in.RestartSafe = *a.RestartSafe
	}
	return in
}

// WaitArgs are wait's arguments (the spec's CodeModeWaitInput), shared like
// ExecArgs.
type WaitArgs struct {
	// RunID is the runId of a waiting result; the core refuses an empty one.
	RunID *string `json:"runId"`
}

// Input is the core's wait input for a.
func (a WaitArgs) Input() core.WaitInput { return core.WaitInput{RunID: str(a.RunID)} }

// ExecRequest is the body of POST /v1/exec: exec's arguments and the scope.
type ExecRequest struct {
	ExecArgs
	// Scope is required.
	Scope *Scope `json:"scope"`
}

// WaitRequest is the body of POST /v1/wait.
type WaitRequest struct {
	WaitArgs
	// Scope is required and must be the scope that made the run.
	Scope *Scope `json:"scope"`
}

// SurfaceRequest is the body of POST /v1/surface.
type SurfaceRequest struct {
	// Scope is required.
	Scope *Scope `json:"scope"`
	// Format is "plain" (the default), "anthropic", "openai" (Chat
	// Completions) or "openai-responses" (surface.Formats): the shape of the
	// tool definitions in the answer.
	Format *string `json:"format"`
}

// ToolCallRequest is the body of POST /v1/tools/call.
type ToolCallRequest struct {
	// ID is the catalog id of the tool (from POST /v1/catalog); required.
	ID *string `json:"id"`
	// Input is the tool input, a JSON object.
	Input json.RawMessage `json:"input"`
	// Scope is required.
	Scope *Scope `json:"scope"`
	// CallID names the nested call in hooks and the transcript; absent, the
	// server makes one.
	CallID *string `json:"callId"`
}

// MCPResourceRequest is the body of POST /v1/mcp/resources/read: a remote
// core's guest reads a resource of one of this server's MCP servers.
type MCPResourceRequest struct {
	// Server is the MCP server's name (RemoteMCPServer.Name); required.
	Server *string `json:"server"`
	// URI is the resource's URI; required.
	URI *string `json:"uri"`
	// Scope is required: a server its catalog does not show exposes nothing.
	Scope *Scope `json:"scope"`
}

// MCPPromptRequest is the body of POST /v1/mcp/prompts/get.
type MCPPromptRequest struct {
	// Server is the MCP server's name; required.
	Server *string `json:"server"`
	// Name is the prompt's name; required.
	Name *string `json:"name"`
	// Arguments are the prompt's arguments, strings by name.
	Arguments map[string]string `json:"arguments"`
	// Scope is required.
	Scope *Scope `json:"scope"`
}

// MCPReadResponse is an MCP read's success: the MCP result ({contents} of a
// resource, {description?, messages} of a prompt). A failure is a
// ToolCallError, answered 200 like a relayed tool's.
type MCPReadResponse struct {
	// Result is the MCP result as the server returned it (bounded).
	Result json.RawMessage `json:"result"`
}

// ToolCallResponse is a relayed call's success: the tool's structured details
// and, when it has any, its content blocks.
type ToolCallResponse struct {
	// Details is the tool's structured result (what tools.callValue returns).
	Details json.RawMessage `json:"details"`
	// Content are the tool's content blocks, when it has any.
	Content []json.RawMessage `json:"content,omitempty"`
}

// ToolCallError is a relayed call's failure, answered with status 200 because
// the relay worked and the tool did not: the remote core hands it to the guest
// as a catchable error. Code is relay.ToolError's.
type ToolCallError struct {
	// Error is the failure's code and message, for the guest.
	Error relay.ToolError `json:"error"`
}

func str(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// readBody reads and strictly decodes a JSON body into v. A declared length
// over the limit is refused before a byte is read; an undeclared one stops at
// the limit, so a 64 MiB body costs at most the limit.
func (h *Handler) readBody(w http.ResponseWriter, r *http.Request, v any) *apiError {
	// Hosts differ in how they hand over a repeated or comma-joined header
	// (workerd's Headers join values with ", ", syumai/workers splits them
	// again): judge the whole field, however it arrived.
	var vals []string
	for _, v := range r.Header.Values("Content-Type") {
		vals = append(vals, strings.TrimSpace(v))
	}
	ct := strings.Join(vals, ", ")
	mt, params, err := mime.ParseMediaType(ct)
	if ct == "" || err != nil || mt != "application/json" {
		return &apiError{http.StatusUnsupportedMediaType, CodeUnsupportedMediaType, "send the body as Content-Type: application/json (got " + quoteField(ct) + ")"}
	}
	if cs, ok := params["charset"]; ok && cs != "utf-8" && cs != "UTF-8" {
		return &apiError{http.StatusUnsupportedMediaType, CodeUnsupportedMediaType, "the body must be UTF-8 (got charset " + quoteField(cs) + ")"}
	}
	// The handler never decompresses: a compressed body would otherwise be read
	// as JSON and answered with a misleading invalid_json.
	if ce := r.Header.Get("Content-Encoding"); ce != "" && !strings.EqualFold(ce, "identity") {
		return &apiError{http.StatusUnsupportedMediaType, CodeUnsupportedMediaType, "send the body uncompressed (got Content-Encoding " + quoteField(ce) + ")"}
	}
	tooLarge := &apiError{http.StatusRequestEntityTooLarge, CodeBodyTooLarge, "request body exceeds " + strconv.FormatInt(h.maxBody, 10) + " bytes"}
	if r.ContentLength > h.maxBody {
		w.Header().Set("Connection", "close")
		return tooLarge
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, h.maxBody))
	if err != nil {
		var mb *http.MaxBytesError
		if errors.As(err, &mb) {
			w.Header().Set("Connection", "close")
			return tooLarge
		}
		return badRequest(CodeInvalidJSON, "the request body could not be read")
	}
	return decodeStrict(body, v)
}

func missing(field string) *apiError {
	return badRequest(CodeMissingField, "field "+strconv.Quote(field)+" is required")
}

func (h *Handler) exec(w http.ResponseWriter, r *http.Request, rc *requestContext) {
	var req ExecRequest
	if err := h.readBody(w, r, &req); err != nil {
		writeError(w, err)
		return
	}
	if req.Scope == nil {
		writeError(w, missing("scope"))
		return
	}
	res := h.rt.Exec(r.Context(), core.CallInfo{Scope: req.Scope.core(), Principal: rc.principal, CallID: newCallID("exec")}, req.Input())
	rc.runID = res.RunID
	rc.ran(res)
	writeResult(w, res)
}

// writeResult answers a run's result: 200, or 429 with Retry-After when the
// runtime refused the cell at capacity (the client should try again; a
// refused wait left its run suspended).
func writeResult(w http.ResponseWriter, res core.Result) {
	if res.RetryAfter > 0 {
		secs := int64((res.RetryAfter + time.Second - 1) / time.Second)
		w.Header().Set("Retry-After", strconv.FormatInt(secs, 10))
		writeError(w, &apiError{http.StatusTooManyRequests, CodeAtCapacity, res.Error})
		return
	}
	writeJSON(w, http.StatusOK, res)
}

func (h *Handler) wait(w http.ResponseWriter, r *http.Request, rc *requestContext) {
	var req WaitRequest
	if err := h.readBody(w, r, &req); err != nil {
		writeError(w, err)
		return
	}
	if req.Scope == nil {
		writeError(w, missing("scope"))
		return
	}
	rc.runID = str(req.RunID)
	res := h.rt.Wait(r.Context(), core.CallInfo{Scope: req.Scope.core(), Principal: rc.principal, CallID: newCallID("wait")}, req.Input())
	rc.ran(res)
	writeResult(w, res)
}

func (h *Handler) surface(w http.ResponseWriter, r *http.Request, rc *requestContext) {
	var req SurfaceRequest
	if err := h.readBody(w, r, &req); err != nil {
		writeError(w, err)
		return
	}
	if req.Scope == nil {
		writeError(w, missing("scope"))
		return
	}
	format := str(req.Format)
	if !surface.ValidFormat(format) {
		writeError(w, badRequest(CodeInvalidField, `field "format" must be `+surface.FormatList()+` (got `+quoteField(format)+")"))
		return
	}
	s, err := h.rt.Surface(r.Context(), req.Scope.core(), false)
	if err != nil {
		writeError(w, &apiError{http.StatusInternalServerError, CodeInternal, "the server could not build the tool surface"})
		return
	}
	tools, _ := s.Format(format) // checked above
	writeJSON(w, http.StatusOK, map[string]any{"tools": tools})
}

// catalog takes its scope from the query (a GET has no body); absent fields
// are empty, as in a body's scope.
func (h *Handler) catalog(w http.ResponseWriter, r *http.Request, rc *requestContext) {
	q := r.URL.Query()
	for k, vs := range q {
		switch k {
		case "agentId", "sessionId", "sessionKey", "agentRunId":
		default:
			writeError(w, badRequest(CodeUnknownField, "query parameter "+quoteField(k)+" is not known (known: agentId, sessionId, sessionKey, agentRunId)"))
			return
		}
		// Read two ways (the first value here, the last elsewhere), a repeated
		// parameter could name one scope to a check and another to the catalog.
		if len(vs) > 1 {
			writeError(w, badRequest(CodeDuplicateField, "query parameter "+quoteField(k)+" is given "+strconv.Itoa(len(vs))+" times; give it once"))
			return
		}
	}
	scope := Scope{AgentID: q.Get("agentId"), SessionID: q.Get("sessionId"), SessionKey: q.Get("sessionKey"), AgentRunID: q.Get("agentRunId")}
	c, err := h.rt.Catalog(r.Context(), scope.core())
	if err != nil {
		writeError(w, &apiError{http.StatusInternalServerError, CodeInternal, "the server could not build the tool catalog"})
		return
	}
	writeJSON(w, http.StatusOK, c)
}

func (h *Handler) toolsCall(w http.ResponseWriter, r *http.Request, rc *requestContext) {
	var req ToolCallRequest
	if err := h.readBody(w, r, &req); err != nil {
		writeError(w, err)
		return
	}
	switch {
	case req.Scope == nil:
		writeError(w, missing("scope"))
		return
	case req.ID == nil || *req.ID == "":
		writeError(w, missing("id"))
		return
	}
	if len(req.Input) == 0 || string(req.Input) == "null" {
		req.Input = json.RawMessage(`{}`)
	}
	callID := str(req.CallID)
	if callID == "" {
		callID = newCallID("relay")
	}
	res, terr := h.rt.CallTool(r.Context(), core.CallInfo{Scope: req.Scope.core(), Principal: rc.principal, CallID: callID}, *req.ID, req.Input)
	if terr != nil {
		writeJSON(w, http.StatusOK, ToolCallError{*terr})
		return
	}
	details := res.Details
	if len(details) == 0 {
		details = json.RawMessage("null")
	}
	writeJSON(w, http.StatusOK, ToolCallResponse{Details: details, Content: res.Content})
}

func (h *Handler) healthz(w http.ResponseWriter, r *http.Request, rc *requestContext) {
	writeJSON(w, http.StatusOK, map[string]any{"ok": true, "version": h.opts.Version, "engine": h.opts.Engine})
}

func (h *Handler) mcpResource(w http.ResponseWriter, r *http.Request, rc *requestContext) {
	var req MCPResourceRequest
	if err := h.readBody(w, r, &req); err != nil {
		writeError(w, err)
		return
	}
	switch {
	case req.Scope == nil:
		writeError(w, missing("scope"))
	case req.Server == nil || *req.Server == "":
		writeError(w, missing("server"))
	case req.URI == nil || *req.URI == "":
		writeError(w, missing("uri"))
	default:
		h.mcpRead(w, r, rc, req.Scope, relay.MCPRead{Server: *req.Server, URI: *req.URI})
	}
}

func (h *Handler) mcpPrompt(w http.ResponseWriter, r *http.Request, rc *requestContext) {
	var req MCPPromptRequest
	if err := h.readBody(w, r, &req); err != nil {
		writeError(w, err)
		return
	}
	switch {
	case req.Scope == nil:
		writeError(w, missing("scope"))
	case req.Server == nil || *req.Server == "":
		writeError(w, missing("server"))
	case req.Name == nil || *req.Name == "":
		writeError(w, missing("name"))
	default:
		h.mcpRead(w, r, rc, req.Scope, relay.MCPRead{Server: *req.Server, Prompt: *req.Name, Arguments: req.Arguments})
	}
}

func (h *Handler) mcpRead(w http.ResponseWriter, r *http.Request, rc *requestContext, sc *Scope, rd relay.MCPRead) {
	res, terr := h.rt.ReadMCP(r.Context(), core.CallInfo{Scope: sc.core(), Principal: rc.principal, CallID: newCallID("relay")}, rd)
	if terr != nil {
		writeJSON(w, http.StatusOK, ToolCallError{*terr})
		return
	}
	writeJSON(w, http.StatusOK, MCPReadResponse{Result: res})
}

// mcp hands /mcp to the MCP server (Options.MCP) with the HTTP API's body
// limit: a declared length over it is refused here, an undeclared one stops
// at it (the MCP server answers 413).
func (h *Handler) mcp(w http.ResponseWriter, r *http.Request, rc *requestContext) {
	if r.ContentLength > h.maxBody {
		w.Header().Set("Connection", "close")
		writeError(w, &apiError{http.StatusRequestEntityTooLarge, CodeBodyTooLarge, "request body exceeds " + strconv.FormatInt(h.maxBody, 10) + " bytes"})
		return
	}
	if r.Body != nil {
		r.Body = http.MaxBytesReader(w, r.Body, h.maxBody)
	}
	h.opts.MCP.ServeHTTP(w, r)
}
