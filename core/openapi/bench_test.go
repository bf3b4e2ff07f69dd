package openapi_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/codemode-go/codemode/core/openapi"
)

// bigDocument is an API of n paths with GET and POST each, every schema a
// component that refers to the next, as large generated APIs are.
func bigDocument(n int) []byte {
	var b strings.Builder
	b.WriteString(`{"openapi":"3.0.3","info":{"title":"big","version":"1"},"paths":{`)
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `"/r%d/{id}":{"parameters":[{"name":"id","in":"path","required":true,"schema":{"type":"string"}}],`+
			`"get":{"operationId":"get%d","parameters":[{"name":"q","in":"query","schema":{"type":"string"}}],"responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"$ref":"#/components/schemas/S%d"}}}}}},`+
			`"post":{"operationId":"post%d","requestBody":{"required":true,"content":{"application/json":{"schema":{"$ref":"#/components/schemas/S%d"}}}},"responses":{"201":{"description":"ok"}}}}`, i, i, i, i, i)
	}
	b.WriteString(`},"components":{"schemas":{`)
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		next := ""
		if i+1 < n && i%10 != 9 { // chains of ten
			next = fmt.Sprintf(`,"next":{"$ref":"#/components/schemas/S%d"}`, i+1)
		}
		fmt.Fprintf(&b, `"S%d":{"type":"object","required":["name"],"properties":{"id":{"type":"integer","readOnly":true},"name":{"type":"string"},"n":{"type":"number","nullable":true}%s}}`, i, next)
	}
	b.WriteString(`}}}`)
	return []byte(b.String())
}

// BenchmarkParse: a 500-path, 1000-operation document to tools (trusted, so
// output schemas are converted and compiled too). One load per server start.
func BenchmarkParse(b *testing.B) {
	doc := bigDocument(500)
	b.SetBytes(int64(len(doc)))
	for b.Loop() {
		api, err := openapi.Parse("big.json", doc, openapi.Options{Name: "big", BaseURL: "http://127.0.0.1:1", Trusted: true})
		if err != nil || len(api.Tools()) != 1000 {
			b.Fatal(err, len(api.Tools()))
		}
	}
}
