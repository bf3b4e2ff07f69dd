// Package remote brings a Code Mode server's tools into a core running elsewhere
// (a page, Node.js, a Worker): the catalog from GET {url}/v1/catalog, every call
// through POST {url}/v1/tools/call. Entries keep the server's trust and owner, so
// trusted tools keep their output hints and the server's MCP tools appear under
// MCP.<server> with their API files, not in tools.*.
//
// The HTTP exchange is a Doer, because the transport differs by host (fetch in
// a page or Node.js under GOOS=js, net/http natively). Resources and prompts
// of the server's MCP servers are read through POST {url}/v1/mcp/resources/read
// and /v1/mcp/prompts/get.
package remote

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/codemode-go/codemode/core/mcp"
	"github.com/codemode-go/codemode/internal/catalog"
	json "github.com/codemode-go/codemode/internal/jsonx"
	"github.com/codemode-go/codemode/internal/relay"
)

// Request is one HTTP exchange with the server.
type Request struct {
	// Method is the HTTP method.
	// URL is the endpoint.
	Method, URL string
	// Headers are the request headers.
	Headers map[string]string
	// Body is the request body.
	Body []byte
}

// Doer performs a request. It must return when ctx is done. A transport failure
// is an error; any HTTP status is a response.
type Doer func(ctx context.Context, req Request) (status int, body []byte, err error)

// Options configures Load.
type Options struct {
	// URL is the server's base URL (http or https); the routes are appended.
	URL string
	// Headers go with every request (for example Authorization).
	Headers map[string]string
	// Do performs the requests (required).
	Do Doer
	// CallTimeout caps one relayed call besides the run's own deadline
	// (0: 60 s).
	CallTimeout time.Duration
}

// Tools are what Load found: plain tools for tools.* and MCP servers for MCP.*.
type Tools struct {
	// Tools are the relayed tools.
	Tools []catalog.Tool
	// MCPServers are the relayed MCP servers.
	MCPServers []*mcp.Server
}

// maxBody bounds every response read from the server.
const maxBody = 16 << 20

// Load fetches the server's catalog. Its error names the URL and the status.
func Load(ctx context.Context, opts Options) (Tools, error) {
	base, err := checkURL(opts.URL)
	if err != nil {
		return Tools{}, err
	}
	if opts.Do == nil {
		return Tools{}, errors.New("serverTools: no HTTP transport")
	}
	if opts.CallTimeout <= 0 {
		opts.CallTimeout = 60 * time.Second
	}
	status, body, err := opts.Do(ctx, Request{Method: "GET", URL: base + "/v1/catalog", Headers: opts.Headers})
	if err != nil {
		return Tools{}, fmt.Errorf("serverTools: GET %s/v1/catalog failed: %v", base, err)
	}
	if status < 200 || status > 299 {
		return Tools{}, fmt.Errorf("serverTools: GET %s/v1/catalog answered HTTP %d%s", base, status, errorSuffix(body))
	}
	var cat relay.Catalog
	if err := json.Unmarshal(body, &cat); err != nil {
		return Tools{}, fmt.Errorf("serverTools: %s/v1/catalog is not a catalog: %v", base, err)
	}
	return build(base, opts, cat)
}

func build(base string, opts Options, cat relay.Catalog) (Tools, error) {
	var out Tools
	byServer := map[string][]catalog.Tool{}
	var order []string
	for _, e := range cat.Entries {
		t := &tool{base: base, opts: opts, id: e.ID, spec: specOf(e)}
		switch e.Source {
		case catalog.SourceMCP:
			if _, ok := byServer[e.Owner]; !ok {
				order = append(order, e.Owner)
			}
			byServer[e.Owner] = append(byServer[e.Owner], t)
		case catalog.SourceOpenClaw:
			out.Tools = append(out.Tools, t)
		default:
			// Another host's client tools run in that host's page; they are
			// not the server's to relay.
		}
	}
	info := map[string]relay.MCPServer{}
	for _, s := range cat.MCPServers {
		info[s.Name] = s
	}
	for _, name := range order {
		s, err := mcp.NewRemote(name, byServer[name], info[name].Resources, info[name].Prompts, &mcpRelay{base: base, opts: opts})
		if err != nil {
			return Tools{}, fmt.Errorf("serverTools: %v", err)
		}
		out.MCPServers = append(out.MCPServers, s)
	}
	return out, nil
}

func specOf(e catalog.ExportedEntry) catalog.Spec {
	s := catalog.Spec{Name: e.Name, Label: e.Label, Description: e.Description, Parameters: e.Parameters,
		Source: e.Source, Owner: e.Owner, SideEffects: e.SideEffects, ReadOnly: e.ReadOnly, Origin: catalog.OriginMCP}
	if e.Source == catalog.SourceOpenClaw {
		s.Origin = catalog.OriginExternalPlugin
		if e.Owner == "core" {
			s.Origin = catalog.OriginCore
		}
		if e.Trust == catalog.Trusted {
			s.OutputSchema = e.OutputSchema
		} else {
			s.Untrusted = true // keeps the server's refusal of its hints
		}
	}
	return s
}

func checkURL(raw string) (string, error) {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("serverTools.url must be an http(s) URL, got %q", raw)
	}
	return strings.TrimRight(raw, "/"), nil
}

// errorSuffix quotes the server's {error: {message}} when it sent one.
func errorSuffix(body []byte) string {
	var e struct {
		Error struct{ Code, Message string } `json:"error"`
	}
	if json.Unmarshal(body, &e) == nil && e.Error.Message != "" {
		return ": " + e.Error.Message
	}
	return ""
}

// tool relays one server tool.
type tool struct {
	base string
	opts Options
	id   string
	spec catalog.Spec
}

func (t *tool) Spec() catalog.Spec { return t.spec }

type callRequest struct {
	ID     string          `json:"id"`
	Input  json.RawMessage `json:"input"`
	Scope  catalog.Scope   `json:"scope"`
	CallID string          `json:"callId,omitempty"`
}

type callResponse struct {
	Details json.RawMessage   `json:"details"`
	Content []json.RawMessage `json:"content"`
	Error   *relay.ToolError  `json:"error"`
}

// Execute relays the call. Every failure is an error naming the tool id (and
// the HTTP status), bounded by ctx (the run's deadline) and CallTimeout.
func (t *tool) Execute(ctx context.Context, call catalog.Call) (catalog.Result, error) {
	in := call.Input
	if len(in) == 0 {
		in = json.RawMessage(`{}`)
	}
	var r callResponse
	if err := post(ctx, t.base, t.opts, "/v1/tools/call", "server tool "+t.id,
		callRequest{ID: t.id, Input: in, Scope: call.Scope, CallID: call.ID}, &r); err != nil {
		return catalog.Result{}, err
	}
	if r.Error != nil {
		return catalog.Result{}, fmt.Errorf("server tool %s failed (%s): %s", t.id, r.Error.Code, r.Error.Message)
	}
	isErr := false
	if t.spec.Source == catalog.SourceMCP {
		var d struct {
			IsError bool `json:"isError"`
		}
		_ = json.Unmarshal(r.Details, &d)
		isErr = d.IsError
	}
	return catalog.Result{Details: r.Details, Content: r.Content, IsError: isErr}, nil
}

// post sends one JSON request to the server and decodes its 2xx answer into
// out. Every failure is an error that starts with what (the tool or MCP read)
// and names the server or the HTTP status, bounded by ctx and CallTimeout.
func post(ctx context.Context, base string, opts Options, path, what string, in, out any) error {
	body, err := json.Marshal(in)
	if err != nil {
		return fmt.Errorf("%s: %v", what, err)
	}
	ctx, cancel := context.WithTimeout(ctx, opts.CallTimeout)
	defer cancel()
	h := map[string]string{"content-type": "application/json"}
	for k, v := range opts.Headers {
		h[k] = v
	}
	status, resp, err := opts.Do(ctx, Request{Method: "POST", URL: base + path, Headers: h, Body: body})
	switch {
	case err != nil && ctx.Err() != nil:
		return fmt.Errorf("%s: no answer from %s before the deadline", what, base)
	case err != nil:
		return fmt.Errorf("%s: %s is unreachable (%v)", what, base, err)
	case status < 200 || status > 299:
		return fmt.Errorf("%s: the server answered HTTP %d%s", what, status, errorSuffix(resp))
	case len(resp) > maxBody:
		return fmt.Errorf("%s: the answer exceeds %d bytes", what, maxBody)
	}
	if err := json.Unmarshal(resp, out); err != nil {
		return fmt.Errorf("%s: the server's answer is not JSON", what)
	}
	return nil
}

// mcpRelay reads the resources and prompts of the server's MCP servers
// through POST /v1/mcp/resources/read and /v1/mcp/prompts/get.
type mcpRelay struct {
	base string
	opts Options
}

type mcpResponse struct {
	Result json.RawMessage  `json:"result"`
	Error  *relay.ToolError `json:"error"`
}

func (m *mcpRelay) answer(what string, r mcpResponse) (json.RawMessage, error) {
	if r.Error != nil {
		return nil, fmt.Errorf("%s failed (%s): %s", what, r.Error.Code, r.Error.Message)
	}
	if len(r.Result) == 0 {
		return nil, fmt.Errorf("%s: the server's answer has no result", what)
	}
	return r.Result, nil
}

func (m *mcpRelay) ReadResource(ctx context.Context, scope catalog.Scope, server, uri string) (json.RawMessage, error) {
	what := "MCP." + server + " resources.read"
	var r mcpResponse
	if err := post(ctx, m.base, m.opts, "/v1/mcp/resources/read", what,
		map[string]any{"server": server, "uri": uri, "scope": scope}, &r); err != nil {
		return nil, err
	}
	return m.answer(what, r)
}

func (m *mcpRelay) GetPrompt(ctx context.Context, scope catalog.Scope, server, name string, args map[string]string) (json.RawMessage, error) {
	what := "MCP." + server + " prompts.get"
	req := map[string]any{"server": server, "name": name, "scope": scope}
	if args != nil {
		req["arguments"] = args
	}
	var r mcpResponse
	if err := post(ctx, m.base, m.opts, "/v1/mcp/prompts/get", what, req, &r); err != nil {
		return nil, err
	}
	return m.answer(what, r)
}
