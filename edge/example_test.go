package edge_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/codemode-go/codemode/core"
	"github.com/codemode-go/codemode/edge"
	json "github.com/goccy/go-json"
)

type greet struct{}

func (greet) Spec() core.Spec {
	return core.Spec{Name: "greet", Description: "Greet someone by name.", Owner: "core",
		Parameters: json.RawMessage(`{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}`)}
}

func (greet) Execute(_ context.Context, c core.ToolCall) (core.ToolResult, error) {
	var in struct{ Name string }
	json.Unmarshal(c.Input, &in)
	d, _ := json.Marshal("hello " + in.Name)
	return core.ToolResult{Details: d}, nil
}

// Mount the HTTP API in your own program, over a runtime with your own tools.
func ExampleNew() {
	cfg := core.DefaultConfig()
	cfg.Enabled = true
	rt, err := core.New(context.Background(), core.Options{Config: cfg,
		Tools: func(context.Context, core.Scope) ([]core.Tool, error) { return []core.Tool{greet{}}, nil }})
	if err != nil {
		panic(err)
	}
	defer rt.Close(context.Background())
	h, err := edge.New(rt, edge.Options{Tokens: []edge.Token{{Principal: "me", Token: "example-token-0123456789"}}})
	if err != nil {
		panic(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()

	req, _ := http.NewRequest("POST", srv.URL+"/v1/exec", strings.NewReader(
		`{"code": "return await tools.greet({name: 'web'})", "scope": {"agentId": "a", "sessionId": "s"}}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer example-token-0123456789")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		panic(err)
	}
	defer resp.Body.Close()
	var res struct {
		Status string `json:"status"`
		Value  string `json:"value"`
	}
	b, _ := io.ReadAll(resp.Body)
	json.Unmarshal(b, &res)
	fmt.Println(resp.StatusCode, res.Status, res.Value)
	// Output: 200 completed hello web
}
