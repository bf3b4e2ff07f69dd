package edge_test

import (
	"bytes"
	"context"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/codemode-go/codemode/edge"
	"github.com/codemode-go/codemode/internal/ops"
	"github.com/codemode-go/codemode/internal/surface"
)

// TestOpenAPIDocumentIsValid: the document validates with a real OpenAPI
// validator (kin-openapi's loader and Validate), and /openapi.json serves it
// without a token.
func TestOpenAPIDocumentIsValid(t *testing.T) {
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(edge.OpenAPIDocument())
	if err != nil {
		t.Fatal(err)
	}
	if err := doc.Validate(context.Background()); err != nil {
		t.Fatal(err)
	}
	srv := newServer(t, edge.Options{Tokens: []edge.Token{{Principal: "p", Token: "0123456789abcdef0123"}}})
	a := do(t, "GET", srv.URL+"/openapi.json", "", "")
	if a.status != 200 || !bytes.Equal(a.body, edge.OpenAPIDocument()) || !strings.HasPrefix(a.header.Get("Content-Type"), "application/json") {
		t.Fatalf("GET /openapi.json: %d %.200s", a.status, a.body)
	}
}

// TestOpenAPIDocumentMatchesTheCode holds the hand-written document to the
// decoder: each request schema has exactly the fields the request type
// decodes (strict decoding refuses any other), and the format enum is
// surface.Formats.
func TestOpenAPIDocumentMatchesTheCode(t *testing.T) {
	doc, err := openapi3.NewLoader().LoadFromData(edge.OpenAPIDocument())
	if err != nil {
		t.Fatal(err)
	}
	for name, typ := range map[string]any{"ExecRequest": ops.ExecRequest{}, "WaitRequest": ops.WaitRequest{}, "SurfaceRequest": ops.SurfaceRequest{},
		"ToolCallRequest": ops.ToolCallRequest{}, "MCPResourceRequest": ops.MCPResourceRequest{}, "MCPPromptRequest": ops.MCPPromptRequest{},
		"Scope": ops.Scope{}} {
		s := doc.Components.Schemas[name]
		if s == nil {
			t.Errorf("no schema %s", name)
			continue
		}
		var inDoc []string
		for p := range s.Value.Properties {
			inDoc = append(inDoc, p)
		}
		sort.Strings(inDoc)
		if got := jsonFields(reflect.TypeOf(typ)); !slices.Equal(inDoc, got) {
			t.Errorf("%s: document has %v, the type decodes %v", name, inDoc, got)
		}
	}
	var enum []string
	for _, e := range doc.Components.Schemas["SurfaceRequest"].Value.Properties["format"].Value.Enum {
		enum = append(enum, e.(string))
	}
	if !slices.Equal(enum, surface.Formats) {
		t.Errorf("format enum %v, surface.Formats %v", enum, surface.Formats)
	}
}

func jsonFields(t reflect.Type) []string {
	var out []string
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if f.Anonymous && f.Tag.Get("json") == "" && f.Type.Kind() == reflect.Struct {
			out = append(out, jsonFields(f.Type)...) // promoted, as the decoder reads them (ExecArgs in ExecRequest)
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}

// TestAnswersMatchTheOpenAPIDocument sends requests to the real handler and
// validates each answer against the document's schema for that route and
// status (JSON Schema 2020-12, the dialect of OpenAPI 3.1).
func TestAnswersMatchTheOpenAPIDocument(t *testing.T) {
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.UseLoader(jsonschema.SchemeURLLoader{})
	raw, err := jsonschema.UnmarshalJSON(bytes.NewReader(edge.OpenAPIDocument()))
	if err != nil {
		t.Fatal(err)
	}
	if err := c.AddResource("urn:openapi", raw); err != nil {
		t.Fatal(err)
	}
	schema := func(ptr string) *jsonschema.Schema {
		s, err := c.Compile("urn:openapi#" + ptr)
		if err != nil {
			t.Fatalf("%s: %v", ptr, err)
		}
		return s
	}
	result := schema("/components/schemas/Result")
	errSchema := schema("/components/schemas/Error")
	srv := newServer(t, edge.Options{})
	waiting := post(t, srv, "/v1/exec", `{"code":"await yield_control('x'); return 1",`+scope+`}`)
	cases := []struct {
		name, method, path, body string
		status                   int
		schema                   *jsonschema.Schema
	}{
		{"exec completed", "POST", "/v1/exec", `{"code":"text('a'); json({b: 1}); return 6 * 7",` + scope + `}`, 200, result},
		{"exec waiting", "POST", "/v1/exec", `{"code":"await yield_control('x'); return 1",` + scope + `}`, 200, result},
		{"exec pending", "POST", "/v1/exec", `{"code":"await tools.sleep_ms({ms: 1500}); return 1",` + scope + `}`, 200, result},
		{"exec failed", "POST", "/v1/exec", `{"code":"throw new Error('x')",` + scope + `}`, 200, result},
		{"wait", "POST", "/v1/wait", `{"runId":"` + waiting.json(t)["runId"].(string) + `",` + scope + `}`, 200, result},
		{"surface", "POST", "/v1/surface", `{` + scope + `}`, 200, schema("/components/schemas/SurfaceResponse")},
		{"surface anthropic", "POST", "/v1/surface", `{"format":"anthropic",` + scope + `}`, 200, schema("/components/schemas/SurfaceResponse")},
		{"surface openai", "POST", "/v1/surface", `{"format":"openai",` + scope + `}`, 200, schema("/components/schemas/SurfaceResponse")},
		{"surface responses", "POST", "/v1/surface", `{"format":"openai-responses",` + scope + `}`, 200, schema("/components/schemas/SurfaceResponse")},
		{"catalog", "GET", "/v1/catalog?agentId=a", "", 200, schema("/components/schemas/Catalog")},
		{"tool call", "POST", "/v1/tools/call", `{"id":"openclaw:core:echo","input":{"text":"hi"},` + scope + `}`, 200, schema("/paths/~1v1~1tools~1call/post/responses/200/content/application~1json/schema")},
		{"tool fails", "POST", "/v1/tools/call", `{"id":"openclaw:core:fail","input":{},` + scope + `}`, 200, schema("/components/schemas/ToolCallError")},
		{"healthz", "GET", "/healthz", "", 200, schema("/components/schemas/Health")},
		{"bad request", "POST", "/v1/exec", `{"cod":"1"}`, 400, errSchema},
		{"not found", "GET", "/v2/nothing", "", 404, errSchema},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			a := do(t, tc.method, srv.URL+tc.path, "", tc.body)
			if a.status != tc.status {
				t.Fatalf("status %d: %.300s", a.status, a.body)
			}
			v, err := jsonschema.UnmarshalJSON(bytes.NewReader(a.body))
			if err != nil {
				t.Fatal(err)
			}
			if err := tc.schema.Validate(v); err != nil {
				t.Errorf("answer does not match the document: %v\n%.500s", err, a.body)
			}
		})
	}
}
