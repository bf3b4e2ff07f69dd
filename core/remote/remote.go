// Package remote brings a Code Mode server's tools into a core running elsewhere
// (a page, Node.js, a Worker): the catalog from GET {url}/v1/catalog, every call
// through POST {url}/v1/tools/call. Entries keep the server's trust and owner, so
// trusted tools keep their output hints and the server's MCP tools appear under
// MCP.<server> with their API files, not in tools.*.
//
// The HTTP exchange is a Doer, because the transport differs by host (fetch in
// a page or Node.js under GOOS=js, net/http natively).
package remote

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/codemode-go/codemode/core"
	"github.com/codemode-go/codemode/core/catalog"
	"github.com/codemode-go/codemode/core/mcp"
	json "github.com/goccy/go-json"
)

// Request is one HTTP exchange with the server.
type Request struct {
	Method, URL string
	Headers     map[string]string
	Body        []byte
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
	Tools      []catalog.Tool
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
	var cat core.RemoteCatalog
	if err := json.Unmarshal(body, &cat); err != nil {
		return Tools{}, fmt.Errorf("serverTools: %s/v1/catalog is not a catalog: %v", base, err)
	}
	return build(base, opts, cat)
}

func build(base string, opts Options, cat core.RemoteCatalog) (Tools, error) {
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
	info := map[string]core.RemoteMCPServer{}
	for _, s := range cat.MCPServers {
		info[s.Name] = s
	}
	for _, name := range order {
		s, err := mcp.NewRemote(name, byServer[name], info[name].Resources, info[name].Prompts)
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
	Error   *core.ToolError   `json:"error"`
}

// Execute relays the call. Every failure is an error naming the tool id (and
// the HTTP status), bounded by ctx (the run's deadline) and CallTimeout.
func (t *tool) Execute(ctx context.Context, call catalog.Call) (catalog.Result, error) {
	in := call.Input
	if len(in) == 0 {
		in = json.RawMessage(`{}`)
	}
	body, err := json.Marshal(callRequest{ID: t.id, Input: in, Scope: call.Scope, CallID: call.ID})
	if err != nil {
		return catalog.Result{}, fmt.Errorf("server tool %s: %v", t.id, err)
	}
	ctx, cancel := context.WithTimeout(ctx, t.opts.CallTimeout)
	defer cancel()
	h := map[string]string{"content-type": "application/json"}
	for k, v := range t.opts.Headers {
		h[k] = v
	}
	status, resp, err := t.opts.Do(ctx, Request{Method: "POST", URL: t.base + "/v1/tools/call", Headers: h, Body: body})
	switch {
	case err != nil && ctx.Err() != nil:
		return catalog.Result{}, fmt.Errorf("server tool %s: no answer from %s before the deadline", t.id, t.base)
	case err != nil:
		return catalog.Result{}, fmt.Errorf("server tool %s: %s is unreachable (%v)", t.id, t.base, err)
	case status < 200 || status > 299:
		return catalog.Result{}, fmt.Errorf("server tool %s: the server answered HTTP %d%s", t.id, status, errorSuffix(resp))
	case len(resp) > maxBody:
		return catalog.Result{}, fmt.Errorf("server tool %s: the answer exceeds %d bytes", t.id, maxBody)
	}
	var r callResponse
	if err := json.Unmarshal(resp, &r); err != nil {
		return catalog.Result{}, fmt.Errorf("server tool %s: the server's answer is not JSON", t.id)
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
