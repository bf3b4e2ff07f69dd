package mcpserver

import (
	"context"
	stdjson "encoding/json"
	"fmt"
	"strconv"
	"sync/atomic"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/codemode-go/codemode/core"
	"github.com/codemode-go/codemode/internal/surface"
)

// toolDef is one model-visible tool as the SDK registers it, and its
// definition as JSON, which tells a changed definition from the same one.
type toolDef struct {
	tool *sdk.Tool
	key  string
}

// surfaceScope is the scope tools/list is built for: the surface is the same
// for every session (a session's id is not known before it lists tools).
func (s *Server) surfaceScope() core.Scope { return core.Scope{AgentID: s.opts.AgentID} }

// readSurface turns the runtime's surface into tool definitions: exec (its
// description carries the quick index) and wait with CodeModeResult as their
// outputSchema, then the direct-only tools as they are. A surface that is
// not active (a runtime without tools) still serves exec and wait. nil when
// the surface could not be built (logged).
func (s *Server) readSurface(ctx context.Context, scope core.Scope) []toolDef {
	sf, err := s.rt.Surface(ctx, scope, false)
	if err != nil {
		s.opts.Logger.Warn("mcp server: the tool surface could not be built", "error", err.Error())
		return nil
	}
	defs := sf.Tools
	if !sf.Active {
		defs = []surface.ToolDef{surface.ExecTool(nil, s.languages(), nil, surface.IndexLimits{}), surface.WaitTool()}
	}
	out := make([]toolDef, 0, len(defs))
	for _, d := range defs {
		t := &sdk.Tool{Name: d.Name, Description: d.Description, InputSchema: stdjson.RawMessage(d.InputSchema)}
		if d.Name == surface.ExecToolName || d.Name == surface.WaitToolName {
			t.OutputSchema = stdjson.RawMessage(surface.ResultSchema())
		}
		key, _ := stdjson.Marshal(t)
		out = append(out, toolDef{tool: t, key: string(key)})
	}
	return out
}

// languages are the config's exec languages, javascript first.
func (s *Server) languages() []string {
	var out []string
	for _, l := range []string{surface.LangJavaScript, surface.LangTypeScript} {
		if s.rt.Config().LanguageEnabled(l) {
			out = append(out, l)
		}
	}
	return out
}

// handler answers tools/call of d.
func (ps *principalServer) handler(d toolDef) sdk.ToolHandler {
	name := d.tool.Name
	return func(ctx context.Context, req *sdk.CallToolRequest) (res *sdk.CallToolResult, err error) {
		// A panic below is this call's failure, never the process's: the
		// model is told, the log gets the value (not the client).
		defer func() {
			if p := recover(); p != nil {
				ps.s.opts.Logger.Error("mcp server: tools/call panicked", "tool", name, "panic", fmt.Sprint(p))
				res, err = refusal(name+": the server failed while answering this call; try again or report it"), nil
			}
		}()
		call := ps.call(req)
		args := []byte(req.Params.Arguments)
		switch name {
		case surface.ExecToolName, surface.WaitToolName:
			in, msg := decodeArgs(name, args)
			if msg != "" {
				return refusal(msg), nil
			}
			ctx = ps.s.withProgress(ctx, req)
			var r core.Result
			if e, ok := in.(execIn); ok {
				r = ps.s.rt.Exec(ctx, call, e.ExecInput)
			} else {
				r = ps.s.rt.Wait(ctx, call, in.(core.WaitInput))
			}
			return resultOf(r)
		default:
			if len(args) == 0 {
				args = []byte(`{}`)
			}
			out, terr := ps.s.rt.CallDirect(ctx, call, name, args)
			if terr != nil {
				return refusal(name + ": " + terr.Message + " (" + terr.Code + ")"), nil
			}
			return directResult(out), nil
		}
	}
}

// callSeq numbers the server's tool calls for callID.
var callSeq atomic.Int64

// callID names a tools/call in hooks and the transcript (JSON-RPC request ids
// repeat across sessions, so they are not used; a stateless server uses them,
// within the session's scope: see requestCallID).
func callID(*sdk.CallToolRequest) string {
	return "mcp_" + strconv.FormatInt(callSeq.Add(1), 10)
}

// withProgress reports progress to the client while the call blocks on slow
// tools, when the client asked for it with a progress token.
func (s *Server) withProgress(ctx context.Context, req *sdk.CallToolRequest) context.Context {
	tok := req.Params.GetProgressToken()
	if tok == nil {
		return ctx
	}
	return core.WithProgress(ctx, s.opts.ProgressEvery, func(p core.Progress) {
		msg := "waiting on " + strconv.Itoa(len(p.Pending)) + " nested call(s)"
		for i, pc := range p.Pending {
			if i == 3 {
				msg += ", …"
				break
			}
			sep := ": "
			if i > 0 {
				sep = ", "
			}
			what := pc.ToolID
			if what == "" {
				what = pc.Kind
			}
			msg += sep + what
		}
		msg += fmt.Sprintf(" (%.1fs of timeoutMs %d; then the call answers waiting)", p.Elapsed.Seconds(), p.Timeout.Milliseconds())
		nctx, cancel := context.WithTimeout(ctx, s.opts.ProgressEvery)
		defer cancel()
		req.Session.NotifyProgress(nctx, &sdk.ProgressNotificationParams{
			ProgressToken: tok, Progress: float64(p.Elapsed.Milliseconds()), Total: float64(p.Timeout.Milliseconds()), Message: msg,
		})
	})
}
