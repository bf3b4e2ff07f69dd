package openapi_test

import (
	"context"
	"encoding/json"
	"os"
	"testing"

	"github.com/codemode-go/codemode/core/openapi"
	"github.com/codemode-go/codemode/internal/catalog"
)

// FuzzParse feeds documents to the spec-to-tools conversion: it must answer
// tools or an *openapi.Error, never panic, and every tool it makes must
// build into a catalog and form a request from an empty input without one.
func FuzzParse(f *testing.F) {
	pet, err := os.ReadFile(petstore)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(pet)
	f.Add([]byte(doc30))
	f.Add([]byte(`{"openapi":"3.1.0","info":{"title":"t","version":"1"},"paths":{"/a/{b}":{"get":{"parameters":[{"name":"b","in":"path","required":true,"content":{"application/json":{"schema":{"$ref":"#/components/schemas/T"}}}}],"responses":{"200":{"description":"x"}}}}},"components":{"schemas":{"T":{"type":"object","properties":{"t":{"$ref":"#/components/schemas/T"}}}}}}`))
	f.Add([]byte("openapi: 3.0.0\npaths: {/x: {$ref: '#/paths/~1x'}}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		api, err := openapi.Parse("f.yaml", data, openapi.Options{Name: "f", BaseURL: "http://127.0.0.1:1"})
		if err != nil {
			if _, ok := err.(*openapi.Error); !ok {
				t.Fatalf("error of type %T: %v", err, err)
			}
			return
		}
		if _, err := catalog.Build(api.Tools(), catalog.BuildOptions{}); err != nil {
			t.Fatalf("catalog: %v", err)
		}
		for _, tl := range api.Tools() {
			if !json.Valid(tl.Spec().Parameters) {
				t.Fatalf("parameters of %s are not JSON", tl.Spec().Name)
			}
			ctx, cancel := context.WithCancel(context.Background())
			cancel() // never reach the network
			tl.Execute(ctx, catalog.Call{Input: json.RawMessage(`{}`)})
		}
	})
}
