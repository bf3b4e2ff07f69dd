package openapi_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/codemode-go/codemode/core/openapi"
	"github.com/codemode-go/codemode/internal/catalog"
)

const petstore = "../../examples/openapi/petstore.yaml"

func load(t *testing.T, opts openapi.Options) map[string]catalog.Tool {
	t.Helper()
	if opts.Name == "" {
		opts.Name = "pets"
	}
	if opts.BaseURL == "" {
		opts.BaseURL = "http://127.0.0.1:1"
	}
	api, err := openapi.Load(petstore, opts)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]catalog.Tool{}
	for _, tl := range api.Tools() {
		out[tl.Spec().Name] = tl
	}
	return out
}

func schemaOf(t *testing.T, raw json.RawMessage) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatalf("schema %s: %v", raw, err)
	}
	return m
}

func TestPetstoreOperationsBecomeTools(t *testing.T) {
	tools := load(t, openapi.Options{})
	var names []string
	for n := range tools {
		names = append(names, n)
	}
	for _, want := range []string{"listPets", "createPet", "getPet", "delete_pets_petId"} {
		if tools[want] == nil {
			t.Fatalf("no tool %s in %v", want, names)
		}
	}
	s := tools["getPet"].Spec()
	if s.Source != catalog.SourceOpenClaw || s.Owner != "pets" || !s.Untrusted || !s.ReadOnly || s.SideEffects {
		t.Errorf("getPet spec: %+v", s)
	}
	if len(s.OutputSchema) != 0 {
		t.Errorf("an untrusted document declared an output: %s", s.OutputSchema)
	}
	if !strings.HasPrefix(s.Description, "GET /pets/{petId}: One pet by id.") {
		t.Errorf("description %q", s.Description)
	}
	in := schemaOf(t, s.Parameters)
	if req, _ := in["required"].([]any); len(req) != 1 || req[0] != "petId" {
		t.Errorf("getPet required %v", in["required"])
	}
	c := tools["createPet"].Spec()
	if !c.SideEffects || c.ReadOnly {
		t.Errorf("createPet is a POST: %+v", c)
	}
	body := schemaOf(t, c.Parameters)["properties"].(map[string]any)["body"].(map[string]any)
	if body["$ref"] != "#/$defs/NewPet" {
		t.Errorf("body schema %v", body)
	}
	if l := schemaOf(t, tools["listPets"].Spec().Parameters)["properties"].(map[string]any)["limit"].(map[string]any); l["description"] != "How many pets to return at most." {
		t.Errorf("limit %v", l)
	}
}

func TestTrustedDocumentDeclaresTheResponseSchema(t *testing.T) {
	tools := load(t, openapi.Options{Trusted: true})
	s := tools["getPet"].Spec()
	if s.Untrusted {
		t.Fatal("trusted document made untrusted tools")
	}
	out := schemaOf(t, s.OutputSchema)
	if out["$ref"] != "#/$defs/Pet" || out["$defs"].(map[string]any)["Pet"] == nil {
		t.Errorf("getPet output %s", s.OutputSchema)
	}
	if d := schemaOf(t, tools["delete_pets_petId"].Spec().OutputSchema); d["type"] != "null" {
		t.Errorf("204 output %v", d)
	}
	if list := schemaOf(t, tools["listPets"].Spec().OutputSchema); list["type"] != "array" {
		t.Errorf("listPets output %v", list)
	}
}

// The catalog entries are what the guest and the quick index see: a trusted
// document gives hints, an untrusted one none.
func TestEntriesAndHints(t *testing.T) {
	for _, trusted := range []bool{false, true} {
		var list []catalog.Tool
		for _, tl := range load(t, openapi.Options{Trusted: trusted}) {
			list = append(list, tl)
		}
		cat, err := catalog.Build(list, catalog.BuildOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range cat.Entries() {
			if e.ID == "openclaw:pets:getPet" {
				if trusted && (e.Input != "{ petId: number }" || !strings.Contains(e.Output, "name: string")) {
					t.Errorf("trusted entry %+v", e)
				}
				if !trusted && (e.Input != "unknown" || e.Output != "") {
					t.Errorf("untrusted entry %+v", e)
				}
			}
		}
	}
}

func TestBadDocumentsNameFileAndPointer(t *testing.T) {
	cases := []struct{ name, doc, want string }{
		{"missing ref", `openapi: 3.0.3
info: {title: t, version: "1"}
paths:
  /a:
    get:
      responses:
        '200':
          description: ok
          content: {application/json: {schema: {$ref: '#/components/schemas/Nope'}}}`,
			`bad.yaml: /paths/~1a/get/responses/200/content/application~1json/schema/$ref: "#/components/schemas/Nope" points at nothing`},
		{"external ref", `openapi: 3.1.0
info: {title: t, version: "1"}
paths: {/a: {$ref: 'other.yaml#/x'}}`, `bad.yaml: /paths/~1a/$ref: "other.yaml#/x" leaves this document`},
		{"bad parameter", `openapi: 3.0.3
info: {title: t, version: "1"}
paths:
  /a:
    get:
      parameters: [{name: q, in: querx, schema: {type: string}}]
      responses: {'200': {description: ok}}`, `bad.yaml: /paths/~1a/get: is not valid OpenAPI: parameter can't have 'in' value "querx"`},
		{"no title", `openapi: 3.1.0
info: {version: "1"}
paths: {}`, `bad.yaml: /info: is not valid OpenAPI: value of title must be a non-empty string`},
		{"bad component parameter", `openapi: 3.0.3
info: {title: t, version: "1"}
paths: {}
components: {parameters: {P: {name: p, in: path, schema: {type: string}}}}`, `bad.yaml: /components/parameters/P: is not valid OpenAPI: path parameter "p" must be required`},
		{"swagger", `swagger: "2.0"`, "bad.yaml: /swagger: is a Swagger 2.0 document"},
		{"no version", `info: {title: t}`, "bad.yaml: /openapi: is missing"},
		{"version 4", `openapi: 4.0.0`, `bad.yaml: /openapi: is "4.0.0"`},
		{"not yaml", "openapi: [", "bad.yaml: is not valid YAML or JSON"},
		{"not json", `{"openapi": "3.0.3", }`, "bad.yaml: is not valid JSON (line 1)"},
		{"a list", `[1, 2]`, "bad.yaml: is not an OpenAPI document"},
		{"bad schema", `openapi: 3.0.3
info: {title: t, version: "1"}
paths: {}
components: {schemas: {A: {type: wrong}}}`, `bad.yaml: /components/schemas/A: is not valid OpenAPI: unsupported 'type' value "wrong"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := openapi.Parse("bad.yaml", []byte(c.doc), openapi.Options{Name: "x", BaseURL: "http://127.0.0.1:1"})
			var oe *openapi.Error
			if !errors.As(err, &oe) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want %q", err, c.want)
			}
		})
	}
	if _, err := openapi.Load("no/such.yaml", openapi.Options{Name: "x", BaseURL: "http://a"}); err == nil || !strings.Contains(err.Error(), "no/such.yaml: cannot be read") {
		t.Errorf("missing file: %v", err)
	}
}

func TestBadOptions(t *testing.T) {
	for _, o := range []openapi.Options{
		{Name: "", BaseURL: "http://a"},
		{Name: "a b", BaseURL: "http://a"},
		{Name: "x", BaseURL: "ftp://a"},
		{Name: "x", BaseURL: "/relative"},
		{Name: "x", BaseURL: "http://u:p@a"},
		{Name: "x", BaseURL: "http://a", Headers: map[string]string{"Bad Header": "v"}},
	} {
		if _, err := openapi.Load(petstore, o); err == nil {
			t.Errorf("%+v: no error", o)
		}
	}
}

// doc30 exercises OpenAPI 3.0's dialect and every parameter location.
const doc30 = `openapi: 3.0.3
info: {title: t, version: "1"}
paths:
  /items/{id}/{tags}:
    parameters:
      - {name: id, in: path, required: true, schema: {type: string}}
      - {name: tags, in: path, required: true, schema: {type: array, items: {type: string}}}
    put:
      operationId: put item!
      parameters:
        - {name: q, in: query, schema: {type: array, items: {type: integer}}}
        - {name: filter, in: query, style: deepObject, schema: {type: object, additionalProperties: {type: string}}}
        - {name: csv, in: query, explode: false, schema: {type: array, items: {type: string}}}
        - {name: X-Trace, in: header, schema: {type: string}}
        - {name: X-Secret, in: header, schema: {type: string}}
        - {name: body, in: query, schema: {type: string}}
        - {name: sess, in: cookie, schema: {type: string}}
      requestBody:
        content:
          application/json:
            schema:
              type: object
              required: [id, n]
              properties:
                id: {type: integer, readOnly: true}
                n: {type: integer, minimum: 0, exclusiveMinimum: true, nullable: true}
      responses:
        '200':
          description: ok
          content: {application/json: {schema: {type: object}}}
  /upload:
    post:
      operationId: upload
      requestBody:
        required: true
        content: {multipart/form-data: {schema: {type: object}}}
      responses: {'204': {description: ok}}
`

func TestOpenAPI30DialectAndSkippedOperations(t *testing.T) {
	api, err := openapi.Parse("d.yaml", []byte(doc30), openapi.Options{Name: "d", BaseURL: "http://127.0.0.1:1", Headers: map[string]string{"X-Secret": "s3cret-value"}})
	if err != nil {
		t.Fatal(err)
	}
	if sk := api.Skipped(); len(sk) != 1 || sk[0].Pointer != "/paths/~1upload/post" || !strings.Contains(sk[0].Reason, "multipart/form-data") {
		t.Errorf("skipped %+v", sk)
	}
	tl := api.Tools()
	if len(tl) != 1 || tl[0].Spec().Name != "put_item" {
		t.Fatalf("tools %v", tl)
	}
	in := schemaOf(t, tl[0].Spec().Parameters)
	props := in["properties"].(map[string]any)
	for _, absent := range []string{"X-Secret", "sess"} {
		if props[absent] != nil {
			t.Errorf("%s is an input property: %v", absent, props)
		}
	}
	if props["query_body"] == nil || props["X-Trace"] == nil {
		t.Errorf("properties %v", props)
	}
	body := props["body"].(map[string]any)
	if req := body["required"].([]any); len(req) != 1 || req[0] != "n" {
		t.Errorf("readOnly id still required: %v", body)
	}
	n := body["properties"].(map[string]any)["n"].(map[string]any)
	if n["exclusiveMinimum"] == nil || n["minimum"] != nil || n["nullable"] != nil {
		t.Errorf("3.0 bounds not rewritten: %v", n)
	}
	if ty, _ := n["type"].([]any); len(ty) != 2 || ty[1] != "null" {
		t.Errorf("nullable not rewritten: %v", n)
	}
}

// recorder is an API that records the request it got and answers as told.
type recorder struct {
	got    *http.Request
	body   string
	status int
	ctype  string
	answer string
}

func (r *recorder) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	b, _ := io.ReadAll(req.Body)
	r.got, r.body = req, string(b)
	if r.ctype != "" {
		w.Header().Set("Content-Type", r.ctype)
	}
	w.WriteHeader(r.status)
	io.WriteString(w, strings.ReplaceAll(r.answer, "$AUTH", req.Header.Get("X-Secret")))
}

func tool30(t *testing.T, base string, max int64) catalog.Tool {
	t.Helper()
	api, err := openapi.Parse("d.yaml", []byte(doc30), openapi.Options{Name: "d", BaseURL: base + "/api/",
		Headers: map[string]string{"X-Secret": "s3cret-value"}, MaxResponseBytes: max})
	if err != nil {
		t.Fatal(err)
	}
	return api.Tools()[0]
}

func TestRequestIsBuiltFromTheInput(t *testing.T) {
	rec := &recorder{status: 200, ctype: "application/json", answer: `{"echo":"$AUTH"}`}
	srv := httptest.NewServer(rec)
	defer srv.Close()
	res, err := tool30(t, srv.URL, 0).Execute(context.Background(), catalog.Call{Input: json.RawMessage(
		`{"id":"a/b c","tags":["x","y,z"],"q":[1,2],"filter":{"k":"v"},"csv":["a","b"],"X-Trace":"t1","query_body":"qb","body":{"n":1.50}}`)})
	if err != nil {
		t.Fatal(err)
	}
	g := rec.got
	if g.Method != "PUT" || g.URL.EscapedPath() != "/api/items/a%2Fb%20c/x,y%2Cz" {
		t.Errorf("path %s %s", g.Method, g.URL.EscapedPath())
	}
	if q := g.URL.Query(); strings.Join(q["q"], ",") != "1,2" || q.Get("filter[k]") != "v" || q.Get("csv") != "a,b" || q.Get("body") != "qb" {
		t.Errorf("query %s", g.URL.RawQuery)
	}
	if g.Header.Get("X-Trace") != "t1" || g.Header.Get("X-Secret") != "s3cret-value" || g.Header.Get("Content-Type") != "application/json" {
		t.Errorf("headers %v", g.Header)
	}
	if rec.body != `{"n":1.50}` {
		t.Errorf("body %s", rec.body)
	}
	// The API echoed the credential: the guest gets it redacted.
	if string(res.Details) != `{"echo":"[redacted]"}` {
		t.Errorf("details %s", res.Details)
	}
}

func TestErrorsAModelCanActOn(t *testing.T) {
	input := json.RawMessage(`{"id":"1","tags":["a"]}`)
	cases := []struct {
		name    string
		rec     recorder
		max     int64
		want    string
		details string
	}{
		{"404", recorder{status: 404, ctype: "application/json", answer: `{"message": "no item 1", "key": "$AUTH"}`}, 0,
			`put_item (PUT /items/{id}/{tags}) answered HTTP 404 Not Found: {"message": "no item 1", "key": "[redacted]"}`, ""},
		{"500 long", recorder{status: 500, answer: strings.Repeat("boom ", 200)}, 0, "answered HTTP 500 Internal Server Error: boom boom", ""},
		{"too large", recorder{status: 200, ctype: "application/json", answer: `"` + strings.Repeat("x", 100) + `"`}, 50, "answered HTTP 200 with more than 50 bytes", ""},
		{"bad json", recorder{status: 200, ctype: "application/json", answer: `{"a":`}, 0, "its JSON body does not parse", ""},
		{"binary", recorder{status: 200, ctype: "image/png", answer: "\x89PNG\xff\xfe"}, 0, "6 bytes of image/png", ""},
		{"text", recorder{status: 200, ctype: "text/plain", answer: "hello"}, 0, "", `"hello"`},
		{"empty", recorder{status: 200}, 0, "", `null`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv := httptest.NewServer(&c.rec)
			defer srv.Close()
			res, err := tool30(t, srv.URL, c.max).Execute(context.Background(), catalog.Call{Input: input})
			if c.want == "" {
				if err != nil || string(res.Details) != c.details {
					t.Fatalf("got %s, %v", res.Details, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want %q", err, c.want)
			}
			if strings.Contains(err.Error(), "127.0.0.1") || len(err.Error()) > 500 {
				t.Errorf("error leaks the address or is unbounded: %v", err)
			}
		})
	}
}

func TestNetworkFailuresNameNoHostInternals(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + ln.Addr().String()
	ln.Close()
	hang := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() }))
	defer hang.Close()
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "elsewhere") }))
	defer other.Close()
	redir := httptest.NewServer(http.RedirectHandler(other.URL+"/x", http.StatusFound))
	defer redir.Close()
	input := json.RawMessage(`{"id":"1","tags":["a"]}`)
	for _, c := range []struct {
		name, base string
		timeout    time.Duration
		want       string
	}{
		{"refused", closed, 0, "could not connect to the API"},
		{"timeout", hang.URL, 200 * time.Millisecond, "timed out before the API answered"},
		{"redirect", redir.URL, 0, "redirected to another origin"},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx := context.Background()
			if c.timeout > 0 {
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeout(ctx, c.timeout)
				defer cancel()
			}
			_, err := tool30(t, c.base, 0).Execute(ctx, catalog.Call{Input: input})
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want %q", err, c.want)
			}
			if strings.Contains(err.Error(), "127.0.0.1") || strings.Contains(err.Error(), "dial") {
				t.Errorf("leaks internals: %v", err)
			}
		})
	}
}
