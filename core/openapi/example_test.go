package openapi_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"

	"github.com/codemode-go/codemode/core"
	"github.com/codemode-go/codemode/core/openapi"
)

// An OpenAPI document's operations as the tools of a Code Mode runtime: the
// host adds the API key to each request; the cell calls tools.getPet and
// never sees the key.
func Example() {
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("X-API-Key") != "k-0123456789" {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"id": 1, "name": "Rex", "tag": "dog"}`)
	}))
	defer api.Close()

	pets, err := openapi.Load("../../examples/openapi/petstore.yaml", openapi.Options{
		Name:    "pets", // tool ids openclaw:pets:<operationId>
		BaseURL: api.URL,
		Headers: map[string]string{"X-API-Key": "k-0123456789"},
		Trusted: true, // our own document: its schemas become hints and contracts
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	ctx := context.Background()
	cfg := core.DefaultConfig()
	cfg.Enabled = true
	rt, err := core.New(ctx, core.Options{Config: cfg,
		Tools: func(context.Context, core.Scope) ([]core.Tool, error) { return pets.Tools(), nil }})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer rt.Close(ctx)
	res := rt.Exec(ctx, core.CallInfo{Scope: core.Scope{AgentID: "a"}}, core.ExecInput{
		Code: `const pet = await tools.getPet({petId: 1}); return pet.name + " the " + pet.tag`})
	fmt.Println(res.Status, string(res.Value))
	// Output: completed "Rex the dog"
}
