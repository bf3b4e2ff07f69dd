package openapi

import (
	"encoding/json"
	"fmt"
	"mime"
	"net/http"
	"regexp"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/codemode-go/codemode/internal/catalog"
	"github.com/codemode-go/codemode/internal/schemacheck"
)

// bodyProperty is the input property that carries a JSON request body.
const bodyProperty = "body"

// param is one parameter as a request needs it.
type param struct {
	prop     string // the input property
	name, in string
	style    string
	explode  bool
	json     bool // a content parameter: the value is sent as JSON text
	required bool
}

// operation is everything a tool needs to make its request.
type operation struct {
	method, path string // path is the template, e.g. /pets/{petId}
	params       []param
	body         bool // the input's body property is sent as JSON
	bodyRequired bool
}

func build(doc *openapi3.T, root map[string]any, opts Options) (*API, error) {
	api := &API{}
	client := redirectClient(opts.Client, opts.BaseURL)
	names := map[string]int{}
	eachOperation(doc, func(p, m string, item *openapi3.PathItem, op *openapi3.Operation) bool {
		spec, o, err := convertOp(doc, root, opts, p, m, item, op)
		if err != nil {
			api.skipped = append(api.skipped, Skipped{Pointer: opPointer(p, m), Reason: err.Error()})
			return true
		}
		if n := names[spec.Name]; n > 0 {
			names[spec.Name]++
			spec.Name = fmt.Sprintf("%s_%d", spec.Name, n+1)
		}
		names[spec.Name]++
		api.tools = append(api.tools, &tool{spec: spec, op: o, base: opts.BaseURL, headers: opts.Headers,
			client: client, max: opts.MaxResponseBytes, secrets: secretsOf(opts.Headers)})
		return true
	})
	return api, nil
}

func convertOp(doc *openapi3.T, root map[string]any, opts Options, path, method string, item *openapi3.PathItem, op *openapi3.Operation) (catalog.Spec, operation, error) {
	is30 := !doc.IsOpenAPI31OrLater()
	in := newConverter(root, is30, false)
	o := operation{method: method, path: path}
	props := map[string]any{}
	var required []string
	for _, pr := range mergedParams(item.Parameters, op.Parameters) {
		if pr.In == openapi3.ParameterInCookie {
			if pr.Required {
				return catalog.Spec{}, o, fmt.Errorf("needs the cookie parameter %q, which tools cannot send", pr.Name)
			}
			continue
		}
		if pr.In == openapi3.ParameterInHeader && headerIsHosts(pr.Name, opts.Headers) {
			continue // set by the host (or by the HTTP client), never by the guest
		}
		if pr.In == openapi3.ParameterInHeader && !validHeaderName(pr.Name) {
			if pr.Required {
				return catalog.Spec{}, o, fmt.Errorf("needs the header parameter %q, which is not a valid HTTP header name", clip(pr.Name, 64))
			}
			continue
		}
		sm, err := pr.SerializationMethod()
		if err != nil {
			return catalog.Spec{}, o, err
		}
		p := param{name: pr.Name, in: pr.In, style: sm.Style, explode: sm.Explode, required: pr.Required || pr.In == openapi3.ParameterInPath}
		var schema any = map[string]any{}
		switch {
		case pr.Schema != nil:
			schema = in.convertJSON(marshal(pr.Schema))
		case len(pr.Content) > 0:
			for _, mt := range pr.Content {
				if mt.Schema != nil {
					schema = in.convertJSON(marshal(mt.Schema))
				}
			}
			p.json = true
		}
		if sm, ok := schema.(map[string]any); ok && pr.Description != "" && sm["description"] == nil {
			sm["description"] = pr.Description
		}
		p.prop = pr.Name
		if _, taken := props[p.prop]; taken || p.prop == bodyProperty {
			p.prop = pr.In + "_" + pr.Name
			if _, taken := props[p.prop]; taken {
				return catalog.Spec{}, o, fmt.Errorf("has two parameters named %q in %s", pr.Name, pr.In)
			}
		}
		props[p.prop] = schema
		if p.required {
			required = append(required, p.prop)
		}
		o.params = append(o.params, p)
	}
	if rb := op.RequestBody; rb != nil && rb.Value != nil {
		mt, ok := jsonMedia(rb.Value.Content)
		switch {
		case ok:
			var schema any = map[string]any{}
			if mt.Schema != nil {
				schema = in.convertJSON(marshal(mt.Schema))
			}
			if sm, ok := schema.(map[string]any); ok && rb.Value.Description != "" && sm["description"] == nil {
				sm["description"] = rb.Value.Description
			}
			props[bodyProperty] = schema
			o.body, o.bodyRequired = true, rb.Value.Required
			if rb.Value.Required {
				required = append(required, bodyProperty)
			}
		case rb.Value.Required:
			return catalog.Spec{}, o, fmt.Errorf("takes a request body of %s only; tools send JSON bodies", mediaList(rb.Value.Content))
		}
	}
	input := map[string]any{"type": "object", "properties": props, "additionalProperties": false}
	if len(required) > 0 {
		input["required"] = sortedStrings(required)
	}
	params, err := compiled(in.finish(input))
	if err != nil {
		return catalog.Spec{}, o, fmt.Errorf("has an input schema that does not compile: %s", clip(err.Error(), 200))
	}
	spec := catalog.Spec{
		Name:        toolName(op.OperationID, method, path),
		Description: describe(method, path, op),
		Parameters:  params,
		Source:      catalog.SourceOpenClaw,
		Owner:       opts.Name,
		Origin:      catalog.OriginExternalPlugin,
		Untrusted:   !opts.Trusted,
		ReadOnly:    method == http.MethodGet || method == http.MethodHead,
		SideEffects: method != http.MethodGet && method != http.MethodHead && method != http.MethodOptions,
	}
	if opts.Trusted {
		if out := outputSchema(root, is30, op.Responses); out != nil {
			if raw, err := compiled(out); err == nil {
				spec.OutputSchema = raw
			}
		}
	}
	return spec, o, nil
}

// mergedParams are the path item's parameters overridden by the operation's
// (same name and location), path item first.
func mergedParams(item, op openapi3.Parameters) []*openapi3.Parameter {
	var out []*openapi3.Parameter
	seen := map[[2]string]int{}
	for _, list := range []openapi3.Parameters{item, op} {
		for _, r := range list {
			if r == nil || r.Value == nil {
				continue
			}
			k := [2]string{r.Value.In, r.Value.Name}
			if i, ok := seen[k]; ok {
				out[i] = r.Value
				continue
			}
			seen[k] = len(out)
			out = append(out, r.Value)
		}
	}
	return out
}

// headerIsHosts reports the header parameters the guest must not set: the
// configured ones, and those OpenAPI says are ignored as parameters.
func headerIsHosts(name string, hosts map[string]string) bool {
	switch http.CanonicalHeaderKey(name) {
	case "Accept", "Content-Type", "Authorization", "Host", "Cookie", "Content-Length":
		return true
	}
	for k := range hosts {
		if strings.EqualFold(k, name) {
			return true
		}
	}
	return false
}

// jsonMedia picks the JSON entry of a content map: application/json, then
// any +json type, then */*.
func jsonMedia(c openapi3.Content) (*openapi3.MediaType, bool) {
	var plusJSON, any *openapi3.MediaType
	for _, k := range sortedKeys(c) {
		mt, _, err := mime.ParseMediaType(k)
		if err != nil {
			continue
		}
		switch {
		case mt == "application/json":
			return c[k], true
		case strings.HasSuffix(mt, "+json") && plusJSON == nil:
			plusJSON = c[k]
		case (mt == "*/*" || mt == "application/*") && any == nil:
			any = c[k]
		}
	}
	if plusJSON != nil {
		return plusJSON, true
	}
	return any, any != nil
}

func mediaList(c openapi3.Content) string {
	keys := sortedKeys(c)
	if len(keys) == 0 {
		return "no media type"
	}
	return strings.Join(keys, ", ")
}

// outputSchema is the JSON schema of what a successful call returns: the
// 2xx responses' JSON schemas (anyOf when they differ; null for a response
// without content). nil when a 2xx answer is not JSON or has no schema.
func outputSchema(root map[string]any, is30 bool, responses *openapi3.Responses) map[string]any {
	if responses == nil {
		return nil
	}
	c := newConverter(root, is30, true)
	var variants []any
	for _, code := range sortedKeys(responses.Map()) {
		if !(len(code) == 3 && code[0] == '2') {
			continue
		}
		r := responses.Map()[code]
		if r == nil || r.Value == nil {
			return nil
		}
		if len(r.Value.Content) == 0 {
			variants = append(variants, map[string]any{"type": "null"})
			continue
		}
		mt, ok := jsonMedia(r.Value.Content)
		if !ok || mt.Schema == nil {
			return nil
		}
		variants = append(variants, c.convertJSON(marshal(mt.Schema)))
	}
	switch len(variants) {
	case 0:
		return nil
	case 1:
		if m, ok := variants[0].(map[string]any); ok {
			return c.finish(m)
		}
		return nil
	}
	return c.finish(map[string]any{"anyOf": variants})
}

var (
	nonName  = regexp.MustCompile(`[^A-Za-z0-9_]+`)
	nonAlnum = regexp.MustCompile(`[^A-Za-z0-9]+`)
)

// toolName is the operationId made safe for a catalog id and the quick index
// (letters, digits and _, at most 64 bytes), else method_path: GET
// /pets/{petId} is get_pets_petId.
func toolName(operationID, method, path string) string {
	n := strings.Trim(nonName.ReplaceAllString(operationID, "_"), "_")
	if n == "" {
		n = strings.ToLower(method) + "_" + strings.Trim(nonAlnum.ReplaceAllString(path, "_"), "_")
	}
	if n == "" || n[0] >= '0' && n[0] <= '9' {
		n = "op_" + n
	}
	if len(n) > 64 {
		n = n[:64]
	}
	return n
}

// describe is the tool's description: the method and path, then the
// operation's summary and description (bounded by the catalog).
func describe(method, path string, op *openapi3.Operation) string {
	d := method + " " + path
	if s := strings.TrimSpace(op.Summary); s != "" {
		d += ": " + s
	}
	if s := strings.TrimSpace(op.Description); s != "" && s != strings.TrimSpace(op.Summary) {
		d += "\n" + s
	}
	if op.Deprecated {
		d += "\n(deprecated)"
	}
	return d
}

// compiled marshals a schema and checks that it compiles as the catalog will
// compile it (core/internal/schemacheck: 2020-12, no loader).
func compiled(schema map[string]any) (json.RawMessage, error) {
	raw, err := json.Marshal(schema)
	if err != nil {
		return nil, err
	}
	if _, err := schemacheck.Compile(raw); err != nil {
		return nil, err
	}
	return raw, nil
}

func marshal(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		return []byte("{}")
	}
	return b
}
