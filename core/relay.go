package core

import (
	"context"
	"errors"
	"strconv"
	"strings"

	"github.com/codemode-go/codemode/core/mcp"
	"github.com/codemode-go/codemode/internal/apifiles"
	"github.com/codemode-go/codemode/internal/catalog"
	json "github.com/codemode-go/codemode/internal/jsonx"
	"github.com/codemode-go/codemode/internal/relay"
	"github.com/codemode-go/codemode/internal/text"
)

// Catalog builds the run catalog of scope exactly as an exec would (host tools,
// MCP servers, policy, scope filtering, control and direct-only tools left out)
// and exports it.
func (rt *Runtime) Catalog(ctx context.Context, scope Scope) (relay.Catalog, error) {
	cat, _, servers, err := rt.buildCatalog(ctx, scope)
	if err != nil {
		return relay.Catalog{}, errors.New("code mode could not build the tool catalog: " + plainMessage(err))
	}
	out := relay.Catalog{Entries: cat.Export(), MCPServers: []relay.MCPServer{}}
	var specs []catalog.Spec
	byServer := map[string][]string{}
	for _, e := range out.Entries {
		if e.Source == catalog.SourceMCP {
			specs = append(specs, catalog.Spec{Name: e.Name, Description: e.Description, Parameters: e.Parameters, Source: catalog.SourceMCP, Owner: e.Owner})
			byServer[e.Owner] = append(byServer[e.Owner], e.Name)
		}
	}
	decls := apifiles.DeclsFromSpecs(specs)
	files := apifiles.RenderWith(decls, rt.memo)
	infos, _ := files.List("")
	for _, d := range decls {
		srv := serverNamed(servers, d.Name)
		rs := relay.MCPServer{Name: d.Name, Tools: byServer[d.Name], Resources: []mcp.Resource{}, Prompts: []mcp.Prompt{}, Declarations: []relay.File{}}
		if srv != nil {
			rs.Resources = append(rs.Resources, srv.Resources()...)
			rs.Prompts = append(rs.Prompts, srv.Prompts()...)
		}
		for _, fi := range infos {
			if fi.Server != d.Name {
				continue
			}
			rs.Namespace = fi.Namespace
			if content, err := files.Read(fi.Path); err == nil {
				rs.Declarations = append(rs.Declarations, relay.File{Path: fi.Path, Content: content})
			}
		}
		out.MCPServers = append(out.MCPServers, rs)
	}
	return out, nil
}

// CallTool runs one catalog tool for a core running elsewhere, through the same
// execution path as a guest call (policy, scope, hooks, approvals, output
// contract, trajectory and the transcript): control and denied tools are unknown
// ids here exactly as in the guest. MCP ids go the MCP.<server> path, all others
// the tools.* path. A tool that panics is a failed call, never a crash.
func (rt *Runtime) CallTool(ctx context.Context, call CallInfo, id string, input json.RawMessage) (ToolResult, *relay.ToolError) {
	cat, _, _, err := rt.buildCatalog(ctx, call.Scope)
	if err != nil {
		return catalog.Result{}, &relay.ToolError{Code: "tool_failed", Message: "code mode could not build the tool catalog: " + plainMessage(err)}
	}
	return rt.callIn(ctx, call, cat, id, input, "tools/call")
}

// CallDirect runs one of scope's direct-only tools, the model-visible tools
// beside exec and wait (Surface lists them), by its model-visible name: a
// host that shows the surface to a model answers the model's direct calls
// with it (the MCP server's tools/call). It takes CallTool's path (policy,
// scope, hooks, approvals, input check, output contract, transcript) over a
// catalog of the direct-only tools alone, so a direct-only tool stays out of
// every guest's reach; a name that is not one of them is unknown_tool.
func (rt *Runtime) CallDirect(ctx context.Context, call CallInfo, name string, input json.RawMessage) (ToolResult, *relay.ToolError) {
	tools, _, err := rt.effectiveTools(ctx, call.Scope)
	if err != nil {
		return catalog.Result{}, &relay.ToolError{Code: "tool_failed", Message: "code mode could not build the tool list: " + plainMessage(err)}
	}
	var direct []catalog.Tool
	for _, t := range tools {
		if t != nil && t.Spec().DirectOnly && t.Spec().Name == name {
			direct = append(direct, directTool{t})
		}
	}
	cat, err := catalog.Build(direct, rt.buildOptions(call.Scope))
	if err != nil {
		return catalog.Result{}, &relay.ToolError{Code: "tool_failed", Message: "code mode could not build the tool catalog: " + plainMessage(err)}
	}
	id := ""
	if es := cat.Entries(); len(es) > 0 {
		id = es[0].ID
	}
	if id == "" {
		return catalog.Result{}, &relay.ToolError{Code: "unknown_tool", Message: "no direct tool is named " + strconv.Quote(text.Cut(name, 128)) + "; the model-visible tools are exec, wait and the surface's direct-only tools."}
	}
	return rt.callIn(ctx, call, cat, id, input, "direct")
}

// directTool is a direct-only tool catalogued for CallDirect's one call.
type directTool struct{ catalog.Tool }

func (d directTool) Spec() catalog.Spec {
	s := d.Tool.Spec()
	s.DirectOnly = false
	return s
}

// callIn runs id of cat for a caller outside a run and files it in the
// transcript under what.
func (rt *Runtime) callIn(ctx context.Context, call CallInfo, cat *catalog.Catalog, id string, input json.RawMessage, what string) (catalog.Result, *relay.ToolError) {
	via := catalog.ViaTools
	if strings.HasPrefix(id, string(catalog.SourceMCP)+":") {
		via = catalog.ViaMCP
	}
	cc := catalog.CallContext{CallID: call.CallID, Via: via}
	if call.OnUpdate != nil {
		cc.Update = func(p catalog.Result) { call.OnUpdate(ToolUpdate{CallID: call.CallID, ToolID: id, Partial: p}) }
	}
	res, err := cat.Call(ctx, id, input, cc)
	status := StatusCompleted
	var te *relay.ToolError
	if err != nil {
		status, te = StatusFailed, toolError(ctx, err)
	}
	rt.opts.Transcript.add(TranscriptEntry{CallID: call.CallID, Tool: what, Status: status,
		Nested: cat.Trajectory().Calls()})
	return res, te
}

func toolError(ctx context.Context, err error) *relay.ToolError {
	code := "tool_failed"
	for _, k := range []struct {
		kind error
		code string
	}{
		{catalog.ErrUnknownTool, "unknown_tool"}, {catalog.ErrMCPViaTools, "unknown_tool"}, {catalog.ErrNotMCP, "unknown_tool"},
		{catalog.ErrDenied, "denied"}, {catalog.ErrApprovalDenied, "approval_denied"}, {catalog.ErrRestartSafe, "restart_safe"},
		{catalog.ErrInvalidInput, "invalid_input"}, {catalog.ErrInvalidOutputSchema, "output_contract"}, {catalog.ErrOutputContract, "output_contract"},
	} {
		if errors.Is(err, k.kind) {
			code = k.code
			break
		}
	}
	msg := plainMessage(err)
	if ctx.Err() != nil || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		code, msg = "aborted", "the tool call was aborted before it finished."
	}
	return &relay.ToolError{Code: code, Message: msg}
}

// ReadMCP reads a resource or renders a prompt of one of this runtime's MCP
// servers for a core running elsewhere (POST /v1/mcp/resources/read and
// /v1/mcp/prompts/get), with the visibility a guest of scope has: a server
// none of whose tools the scope's catalog shows (policy, scope filtering)
// exposes nothing, exactly as MCP.<server> does not exist in its guest.
func (rt *Runtime) ReadMCP(ctx context.Context, call CallInfo, rd relay.MCPRead) (json.RawMessage, *relay.ToolError) {
	what := "mcp/resources/read"
	if rd.URI == "" {
		what = "mcp/prompts/get"
	}
	raw, te := rt.readMCP(ctx, call.Scope, rd)
	status := StatusCompleted
	if te != nil {
		status = StatusFailed
	}
	rt.opts.Transcript.add(TranscriptEntry{CallID: call.CallID, Tool: what, Status: status})
	return raw, te
}

func (rt *Runtime) readMCP(ctx context.Context, scope Scope, rd relay.MCPRead) (json.RawMessage, *relay.ToolError) {
	cat, _, servers, err := rt.buildCatalog(ctx, scope)
	if err != nil {
		return nil, &relay.ToolError{Code: "tool_failed", Message: "code mode could not build the tool catalog: " + plainMessage(err)}
	}
	// The guest's rule (run.init's mcpIDs): a server is visible when the
	// catalog holds one of its MCP entries.
	visible := false
	for _, e := range cat.MCPEntries() {
		if e.SourceName == rd.Server {
			visible = true
			break
		}
	}
	srv := serverNamed(servers, rd.Server)
	if !visible || srv == nil {
		return nil, &relay.ToolError{Code: "unknown_tool", Message: "unknown MCP server " + text.Cut(rd.Server, 100)}
	}
	var raw json.RawMessage
	if rd.URI != "" {
		raw, err = srv.ReadResourceFor(ctx, scope, rd.URI)
	} else {
		raw, err = srv.GetPromptFor(ctx, scope, rd.Prompt, rd.Arguments)
	}
	if err != nil {
		return nil, toolError(ctx, err)
	}
	return raw, nil
}
