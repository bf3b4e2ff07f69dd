package mcpserver

import (
	stdjson "encoding/json"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/codemode-go/codemode/core"
	"github.com/codemode-go/codemode/internal/catalog"
	"github.com/codemode-go/codemode/internal/jsonin"
	"github.com/codemode-go/codemode/internal/ops"
	"github.com/codemode-go/codemode/internal/surface"
	json "github.com/goccy/go-json"
)

// execIn marks an exec input among decodeArgs' answers.
type execIn struct{ core.ExecInput }

// decodeArgs decodes the arguments of exec or wait with the HTTP API's strict
// decoder into the HTTP API's argument types (ops.ExecArgs, ops.WaitArgs),
// so both fronts accept and refuse the same input in the same words. Absent
// arguments are an empty object; the core judges the values (an empty code
// or runId is its invalid_input). It answers execIn or core.WaitInput, or
// the refusal for the model.
func decodeArgs(tool string, args []byte) (any, string) {
	if len(args) == 0 || string(args) == "null" {
		args = []byte(`{}`)
	}
	var err error
	var in any
	if tool == surface.ExecToolName {
		var a ops.ExecArgs
		if err = jsonin.Decode(args, &a, "the exec arguments"); err == nil {
			in = execIn{a.Input()}
		}
	} else {
		var a ops.WaitArgs
		if err = jsonin.Decode(args, &a, "the wait arguments"); err == nil {
			in = a.Input()
		}
	}
	if err != nil {
		return nil, tool + ": " + err.Error()
	}
	return in, ""
}

// resultOf answers a CodeModeResult: structuredContent is the result (the
// tools' outputSchema), and the text content carries the same JSON for
// clients that read text only. A failed result sets isError, and its text
// starts with the error ("TypeError: x is not a function", or the core's
// message with its code) so a model can act on it without parsing.
func resultOf(res core.Result) (*sdk.CallToolResult, error) {
	b, err := json.Marshal(res)
	if err != nil {
		return nil, err
	}
	out := &sdk.CallToolResult{StructuredContent: stdjson.RawMessage(b)}
	if res.Status == core.StatusFailed {
		msg := res.Error
		if res.Code != "" {
			msg += " (" + string(res.Code) + ")"
		}
		out.IsError = true
		out.Content = append(out.Content, &sdk.TextContent{Text: msg})
	}
	out.Content = append(out.Content, &sdk.TextContent{Text: string(b)})
	return out, nil
}

// refusal is a tool call the server refused before any run: isError with
// the reason, and no structuredContent (a client checks the outputSchema only
// on success).
func refusal(msg string) *sdk.CallToolResult {
	return &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: msg}}}
}

// directResult answers a direct-only tool's result: its MCP content blocks
// when they are ones the SDK knows (else its details as text), and its
// details as structuredContent when they are an object.
func directResult(res catalog.Result) *sdk.CallToolResult {
	out := &sdk.CallToolResult{IsError: res.IsError}
	if len(res.Content) > 0 {
		raw, _ := json.Marshal(map[string]any{"content": res.Content})
		var parsed sdk.CallToolResult
		if stdjson.Unmarshal(raw, &parsed) == nil {
			out.Content = parsed.Content
		}
	}
	details := res.Details
	if len(details) == 0 {
		details = json.RawMessage("null")
	}
	if len(out.Content) == 0 {
		out.Content = []sdk.Content{&sdk.TextContent{Text: string(details)}}
	}
	if len(details) > 0 && details[0] == '{' {
		out.StructuredContent = stdjson.RawMessage(details)
	}
	return out
}
