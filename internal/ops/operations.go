package ops

import (
	"context"
	"errors"
	"slices"
	"strings"

	"github.com/codemode-go/codemode/core"
	json "github.com/codemode-go/codemode/internal/jsonx"
	"github.com/codemode-go/codemode/internal/relay"
	"github.com/codemode-go/codemode/internal/surface"
)

// Names lists the operations for messages ("abort, catalog, ...").
func Names() string {
	names := make([]string, 0, len(Table()))
	for n := range Table() {
		names = append(names, n)
	}
	slices.Sort(names)
	return strings.Join(names, ", ")
}

// Exec runs a cell; the scope is required.
func Exec(ctx context.Context, rt Runtime, c Call, req ExecRequest) Answer {
	if req.Scope == nil {
		return refused(Missing("scope"))
	}
	res := rt.Exec(ctx, c.info(req.Scope, "exec"), req.Input())
	return Answer{Value: res, Result: &res}
}

// Wait resumes a waiting run; the scope is required.
func Wait(ctx context.Context, rt Runtime, c Call, req WaitRequest) Answer {
	if req.Scope == nil {
		return refused(Missing("scope"))
	}
	res := rt.Wait(ctx, c.info(req.Scope, "wait"), req.Input())
	return Answer{Value: res, Result: &res}
}

// SurfaceOf is the model-visible tools of a scope in the format asked for
// ({tools}); the scope is required, the format one of surface.Formats.
func SurfaceOf(ctx context.Context, rt Runtime, c Call, req SurfaceRequest) Answer {
	if req.Scope == nil {
		return refused(Missing("scope"))
	}
	format := str(req.Format)
	if !surface.ValidFormat(format) {
		return refused(BadRequest(CodeInvalidField, `field "format" must be `+surface.FormatList()+` (got `+Quote(format)+")"))
	}
	s, err := rt.Surface(ctx, req.Scope.Core(), false)
	if err != nil {
		return refused(&Refusal{statusInternal, CodeInternal, "the server could not build the tool surface"})
	}
	tools, _ := s.Format(format) // checked above
	return Answer{Value: SurfaceResponse{Tools: tools}}
}

// Catalog is a scope's catalog ({entries, mcpServers}); a nil scope is the
// empty one.
func Catalog(ctx context.Context, rt Runtime, scope *Scope) Answer {
	cat, err := rt.Catalog(ctx, scope.Core())
	if err != nil {
		return refused(&Refusal{statusInternal, CodeInternal, "the server could not build the tool catalog"})
	}
	return Answer{Value: cat}
}

// CatalogFor is Catalog for a catalog message.
func CatalogFor(ctx context.Context, rt Runtime, c Call, req CatalogRequest) Answer {
	return Catalog(ctx, rt, req.Scope)
}

// ToolsCall runs one catalog tool for a remote core's guest: its details and
// content, or its failure as a ToolCallError (a success of the relay).
func ToolsCall(ctx context.Context, rt Runtime, c Call, req ToolCallRequest) Answer {
	switch {
	case req.Scope == nil:
		return refused(Missing("scope"))
	case req.ID == nil || *req.ID == "":
		return refused(Missing("id"))
	}
	input := req.Input
	if len(input) == 0 || string(input) == "null" {
		input = json.RawMessage(`{}`)
	}
	c.CallID = str(req.CallID)
	res, terr := rt.CallTool(ctx, c.info(req.Scope, "relay"), *req.ID, input)
	if terr != nil {
		return Answer{Value: ToolCallError{*terr}}
	}
	details := res.Details
	if len(details) == 0 {
		details = json.RawMessage("null")
	}
	return Answer{Value: ToolCallResponse{Details: details, Content: res.Content}}
}

// MCPResource reads a resource of an MCP server for a remote core's guest.
func MCPResource(ctx context.Context, rt Runtime, c Call, req MCPResourceRequest) Answer {
	switch {
	case req.Scope == nil:
		return refused(Missing("scope"))
	case req.Server == nil || *req.Server == "":
		return refused(Missing("server"))
	case req.URI == nil || *req.URI == "":
		return refused(Missing("uri"))
	}
	return mcpRead(ctx, rt, c, req.Scope, relay.MCPRead{Server: *req.Server, URI: *req.URI})
}

// MCPPrompt renders a prompt of an MCP server for a remote core's guest.
func MCPPrompt(ctx context.Context, rt Runtime, c Call, req MCPPromptRequest) Answer {
	switch {
	case req.Scope == nil:
		return refused(Missing("scope"))
	case req.Server == nil || *req.Server == "":
		return refused(Missing("server"))
	case req.Name == nil || *req.Name == "":
		return refused(Missing("name"))
	}
	return mcpRead(ctx, rt, c, req.Scope, relay.MCPRead{Server: *req.Server, Prompt: *req.Name, Arguments: req.Arguments})
}

func mcpRead(ctx context.Context, rt Runtime, c Call, sc *Scope, rd relay.MCPRead) Answer {
	c.CallID = ""
	res, terr := rt.ReadMCP(ctx, c.info(sc, "relay"), rd)
	if terr != nil {
		return Answer{Value: ToolCallError{*terr}}
	}
	return Answer{Value: MCPReadResponse{Result: res}}
}

// runControl is rt's RunControl, or the refusal of a host without one.
func runControl(rt Runtime, op string) (RunControl, *Refusal) {
	if rc, ok := rt.(RunControl); ok {
		return rc, nil
	}
	return nil, &Refusal{statusNotFound, CodeNotFound, op + " is not served by this host: its runs live elsewhere (end a run with wait's answer or let its TTL expire)"}
}

// Abort discards a run of the scope, suspended or being resumed
// ({aborted}); the scope is required.
func Abort(ctx context.Context, rt Runtime, c Call, req RunRequest) Answer {
	switch {
	case req.Scope == nil:
		return refused(Missing("scope"))
	case req.RunID == nil:
		return refused(Missing("runId"))
	}
	rc, r := runControl(rt, "abort")
	if r != nil {
		return refused(r)
	}
	return Answer{Value: AbortResponse{Aborted: rc.Abort(req.Scope.Core(), *req.RunID)}}
}

// RestartTTL restarts a suspended run's snapshot TTL from now, for hosts
// whose clock stands still during CPU work: the new expiry, or the core's
// refusal (wait's code and message for that runId) as a TTLAnswer.
func RestartTTL(ctx context.Context, rt Runtime, c Call, req RunRequest) Answer {
	switch {
	case req.Scope == nil:
		return refused(Missing("scope"))
	case req.RunID == nil:
		return refused(Missing("runId"))
	}
	rc, r := runControl(rt, "restartTTL")
	if r != nil {
		return refused(r)
	}
	expires, err := rc.RestartTTL(c.info(req.Scope, "ttl"), *req.RunID)
	var re *core.RunError
	switch {
	case errors.As(err, &re):
		return Answer{Value: TTLAnswer{Code: re.Code, Error: re.Message}}
	case err != nil:
		return Answer{Value: TTLAnswer{Code: core.CodeInternalError, Error: "code mode could not restart the run's TTL."}}
	}
	return Answer{Value: TTLAnswer{OK: true, ExpiresAt: expires.UnixMilli()}}
}
