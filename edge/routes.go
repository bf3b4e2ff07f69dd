package edge

import (
	"errors"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/codemode-go/codemode/internal/ops"
)

// readBody reads a JSON body for the table, which decodes it strictly. A declared length
// over the limit is refused before a byte is read; an undeclared one stops at
// the limit, so a 64 MiB body costs at most the limit.
func (h *Handler) readBody(w http.ResponseWriter, r *http.Request) ([]byte, *apiError) {
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
		return nil, refuse(http.StatusUnsupportedMediaType, codeUnsupportedMediaType, "send the body as Content-Type: application/json (got "+quoteField(ct)+")")
	}
	if cs, ok := params["charset"]; ok && cs != "utf-8" && cs != "UTF-8" {
		return nil, refuse(http.StatusUnsupportedMediaType, codeUnsupportedMediaType, "the body must be UTF-8 (got charset "+quoteField(cs)+")")
	}
	// The handler never decompresses: a compressed body would otherwise be read
	// as JSON and answered with a misleading invalid_json.
	if ce := r.Header.Get("Content-Encoding"); ce != "" && !strings.EqualFold(ce, "identity") {
		return nil, refuse(http.StatusUnsupportedMediaType, codeUnsupportedMediaType, "send the body uncompressed (got Content-Encoding "+quoteField(ce)+")")
	}
	tooLarge := refuse(http.StatusRequestEntityTooLarge, codeBodyTooLarge, "request body exceeds "+strconv.FormatInt(h.maxBody, 10)+" bytes")
	if r.ContentLength > h.maxBody {
		w.Header().Set("Connection", "close")
		return nil, tooLarge
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, h.maxBody))
	if err != nil {
		var mb *http.MaxBytesError
		if errors.As(err, &mb) {
			w.Header().Set("Connection", "close")
			return nil, tooLarge
		}
		return nil, badRequest(ops.CodeInvalidJSON, "the request body could not be read")
	}
	return body, nil
}

// serveOp answers one operation of the table (internal/ops) for a POST
// route: the body is read and decoded here, the table calls the runtime, and
// its answer is written with its status (429 with Retry-After when the
// runtime refused a cell at capacity: the client should try again; a refused
// wait left its run suspended).
func (h *Handler) serveOp(name string) func(h *Handler, w http.ResponseWriter, r *http.Request, rc *requestContext) {
	op := ops.Table()[name]
	return func(h *Handler, w http.ResponseWriter, r *http.Request, rc *requestContext) {
		body, err := h.readBody(w, r)
		if err != nil {
			writeError(w, err)
			return
		}
		h.answer(w, rc, op(r.Context(), h.rt, ops.Call{Principal: rc.principal}, body))
	}
}

// answer writes a table's answer and notes an exec's or wait's result for
// the request log.
func (h *Handler) answer(w http.ResponseWriter, rc *requestContext, a ops.Answer) {
	if res := a.Result; res != nil {
		rc.runID = res.RunID
		rc.ran(*res)
		if res.RetryAfter > 0 {
			secs := int64((res.RetryAfter + time.Second - 1) / time.Second)
			w.Header().Set("Retry-After", strconv.FormatInt(secs, 10))
		}
	}
	status, b := a.Encode()
	writeRaw(w, status, b)
}

// catalog takes its scope from the query (a GET has no body); absent fields
// are empty, as in a body's scope.
func (h *Handler) catalog(w http.ResponseWriter, r *http.Request, rc *requestContext) {
	q := r.URL.Query()
	for k, vs := range q {
		switch k {
		case "agentId", "sessionId", "sessionKey", "agentRunId":
		default:
			writeError(w, badRequest(ops.CodeUnknownField, "query parameter "+quoteField(k)+" is not known (known: agentId, sessionId, sessionKey, agentRunId)"))
			return
		}
		// Read two ways (the first value here, the last elsewhere), a repeated
		// parameter could name one scope to a check and another to the catalog.
		if len(vs) > 1 {
			writeError(w, badRequest(ops.CodeDuplicateField, "query parameter "+quoteField(k)+" is given "+strconv.Itoa(len(vs))+" times; give it once"))
			return
		}
	}
	scope := ops.Scope{AgentID: q.Get("agentId"), SessionID: q.Get("sessionId"), SessionKey: q.Get("sessionKey"), AgentRunID: q.Get("agentRunId")}
	h.answer(w, rc, ops.Catalog(r.Context(), h.rt, &scope))
}

func (h *Handler) healthz(w http.ResponseWriter, r *http.Request, rc *requestContext) {
	writeJSON(w, http.StatusOK, map[string]any{"ok": true, "version": h.opts.Version, "engine": h.opts.Engine})
}

// mcp hands /mcp to the MCP server (Options.MCP) with the HTTP API's body
// limit: a declared length over it is refused here, an undeclared one stops
// at it (the MCP server answers 413).
func (h *Handler) mcp(w http.ResponseWriter, r *http.Request, rc *requestContext) {
	if r.ContentLength > h.maxBody {
		w.Header().Set("Connection", "close")
		writeError(w, refuse(http.StatusRequestEntityTooLarge, codeBodyTooLarge, "request body exceeds "+strconv.FormatInt(h.maxBody, 10)+" bytes"))
		return
	}
	if r.Body != nil {
		r.Body = http.MaxBytesReader(w, r.Body, h.maxBody)
	}
	h.opts.MCP.ServeHTTP(w, r)
}
