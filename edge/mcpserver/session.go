package mcpserver

import (
	"crypto/rand"
	"sync"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/codemode-go/codemode/core"
	"github.com/codemode-go/codemode/core/surface"
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
	ps.srv = sdk.NewServer(&sdk.Implementation{Name: s.opts.Name, Version: s.opts.Version}, &sdk.ServerOptions{
		Logger: s.opts.Logger,
		// Tools only, and say so even before the first tool is registered.
		Capabilities: &sdk.ServerCapabilities{Tools: &sdk.ToolCapabilities{ListChanged: true}},
		Instructions: instructions,
	})
	return ps
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

// call is the core's CallInfo for a tool call of session ss: its scope, this
// principal, and the MCP request id as the call id.
func (ps *principalServer) call(ss *sdk.ServerSession, callID string) core.CallInfo {
	return core.CallInfo{Scope: ps.scope(ss), Principal: ps.principal, CallID: callID}
}

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
		ps.s.rt.EndSession(sc)
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
