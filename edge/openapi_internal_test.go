package edge

import (
	"strings"
	"testing"

	"github.com/codemode-go/codemode/internal/config"
	"github.com/getkin/kin-openapi/openapi3"
)

// configOnly answers Config, all New asks of a runtime.
type configOnly struct{ Runtime }

func (configOnly) Config() config.Config { return config.Default() }

// TestOpenAPIDocumentNamesEveryRoute: each route of the handler is a path of
// the document with its method, and the document has no other path.
func TestOpenAPIDocumentNamesEveryRoute(t *testing.T) {
	h, err := New(configOnly{}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	doc, err := openapi3.NewLoader().LoadFromData(openAPIDocument)
	if err != nil {
		t.Fatal(err)
	}
	for path, rt := range h.routes {
		item := doc.Paths.Value(path)
		if item == nil || item.GetOperation(rt.method) == nil {
			t.Errorf("route %s %s is not in openapi.json", rt.method, path)
			continue
		}
		if len(item.Operations()) != 1 {
			t.Errorf("%s: the document lists %d methods, the route answers %s", path, len(item.Operations()), rt.method)
		}
		if open := item.GetOperation(rt.method).Security != nil && len(*item.GetOperation(rt.method).Security) == 0; open == rt.auth {
			t.Errorf("%s: the document says auth %v, the route %v", path, !open, rt.auth)
		}
	}
	for _, p := range doc.Paths.InMatchingOrder() {
		if _, ok := h.routes[p]; !ok {
			t.Errorf("openapi.json has %s, which is no route", p)
		}
	}
	if !strings.Contains(string(openAPIDocument), `"openapi": "3.1.0"`) {
		t.Error("not an OpenAPI 3.1 document")
	}
}
