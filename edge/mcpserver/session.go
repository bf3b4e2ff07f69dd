package mcpserver

import (
	"crypto/rand"
	"net/http"
	"sync"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/codemode-go/codemode/core"
	"github.com/codemode-go/codemode/internal/surface"
)

// principalServer is the SDK server of one principal and the scopes of its
// sessions.
type principalServer struct {
	s         *Server
	principal string
	srv       *sdk.Server
	defs      map[string]string // tool name -> the definition registered, as JSON

	mu     sync.Mutex
	scopes map[*sdk.ServerSession]core.Scope
}

func newPrincipalServer(s *Server, principal string) *principalServer {
	ps := &principalServer{s: s, principal: principal, defs: map[string]string{}, scopes: map[*sdk.ServerSession]core.Scope{}}
	opts := &sdk.ServerOptions{
		Logger: s.opts.Logger,
		// Tools only, and say so even before the first tool is registered.
		Capabilities: &sdk.ServerCapabilities{Tools: &sdk.ToolCapabilities{ListChanged: true}},
		Instructions: instructions,
	}
	if s.remote != nil {
		// Stateless: nothing can be pushed, and the scope is the MCP
		// session, which the sessionless protocol versions do not have
		// (a client falls back to initialize).
		opts.Capabilities.Tools.ListChanged = false
		opts.SupportedProtocolVersions = sessionVersions()
	}
	ps.srv = sdk.NewServer(&sdk.Implementation{Name: s.opts.Name, Version: s.opts.Version}, opts)
	return ps
}

// sessionlessVersion is the first protocol version without initialize and
// MCP sessions (SEP-2575).
const sessionlessVersion = "2026-07-28"

// sessionVersions are the SDK's protocol versions that have MCP sessions.
func sessionVersions() []string {
	var out []string
	for _, v := range sdk.SupportedProtocolVersions() {
		if v < sessionlessVersion {
			out = append(out, v)
		}
	}
	return out
}

// instructions go to the client in initialize; hosts may show them to the model.
const instructions = "Code Mode: call exec with a JavaScript or TypeScript program that finds and calls tools " +
	"(tools.search, tools.callValue, MCP.<server>.<tool>); when it answers status \"waiting\", call wait with its runId."

// apply makes the registered tools match defs: changed and new definitions
// are added, gone ones removed; the SDK notifies the sessions once
// (notifications/tools/list_changed, debounced). With catalogChanged, exec is
// registered again even when its text stayed the same: the catalog behind it
// changed (an upstream MCP server's tools are not in the quick index), and a
// client re-reads tools/list and its own view of the tools then.
func (ps *principalServer) apply(defs []toolDef, catalogChanged bool) {
	keep := map[string]bool{}
	for _, d := range defs {
		keep[d.tool.Name] = true
		if ps.defs[d.tool.Name] == d.key && !(catalogChanged && d.tool.Name == surface.ExecToolName) {
			continue
		}
		ps.defs[d.tool.Name] = d.key
		ps.srv.AddTool(d.tool, ps.handler(d))
	}
	var gone []string
	for name := range ps.defs {
		if !keep[name] {
			gone = append(gone, name)
			delete(ps.defs, name)
		}
	}
	if len(gone) > 0 {
		ps.srv.RemoveTools(gone...)
	}
}

// call is the core's CallInfo for a tool call: its session's scope, this
// principal, and a call id. A stateless server reads the session id and the
// JSON-RPC request id from the headers its HTTP handler checked and set.
func (ps *principalServer) call(req *sdk.CallToolRequest) core.CallInfo {
	if ps.s.remote != nil {
		var h http.Header
		if req.Extra != nil {
			h = req.Extra.Header
		}
		return core.CallInfo{Scope: ps.s.sessionScope(h.Get(sessionHeader)), Principal: ps.principal,
			CallID: requestCallID(h.Get(requestIDHeader))}
	}
	return core.CallInfo{Scope: ps.scope(req.Session), Principal: ps.principal, CallID: callID(req)}
}

// sessionScope is the scope of the MCP session sid.
func (s *Server) sessionScope(sid string) core.Scope {
	return core.Scope{AgentID: s.opts.AgentID, SessionID: sid}
}

// requestCallID is a stateless server's call id of a tools/call: its
// JSON-RPC id as sent (unique within the session, which is the call's
// scope), so a notifications/cancelled naming that id names the same call.
func requestCallID(rawID string) string { return "mcp:" + rawID }

// scope is session ss's scope, made at its first tool call: the MCP session
// id (a fresh one for transports without ids, such as stdio). When the
// session ends, so do its runs.
func (ps *principalServer) scope(ss *sdk.ServerSession) core.Scope {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	if sc, ok := ps.scopes[ss]; ok {
		return sc
	}
	id := ss.ID()
	if id == "" {
		id = "mcp_" + rand.Text()
	}
	sc := core.Scope{AgentID: ps.s.opts.AgentID, SessionID: id}
	ps.scopes[ss] = sc
	go func() {
		ss.Wait()
		ps.mu.Lock()
		delete(ps.scopes, ss)
		ps.mu.Unlock()
		ps.s.local.EndSession(sc)
	}()
	return sc
}

// owns reports whether this principal has a session with the MCP session id
// sid (Streamable HTTP: a request naming another principal's session is
// answered as for an unknown one).
func (ps *principalServer) owns(sid string) bool {
	for ss := range ps.srv.Sessions() {
		if ss.ID() == sid {
			return true
		}
	}
	return false
}
