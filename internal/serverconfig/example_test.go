package serverconfig_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/codemode-go/codemode/internal/serverconfig"
)

// TestShippedExampleConfigLoads keeps examples/codemode.json5 valid.
func TestShippedExampleConfigLoads(t *testing.T) {
	c, err := serverconfig.Load("../../examples/codemode.json5")
	if err != nil {
		t.Fatal(err)
	}
	if c.Listen != "127.0.0.1:8787" || !c.CodeMode.Enabled || c.ExampleTools == nil || !*c.ExampleTools || len(c.MCPServers) != 1 {
		t.Fatalf("%+v", c)
	}
	if _, err := os.Stat(filepath.Join(c.MCPServers[0].Cwd, c.MCPServers[0].Args[0])); err != nil {
		t.Errorf("the example's server-everything path does not resolve from the repo root: %v", err)
	}
}

func ExampleParse() {
	c, err := serverconfig.Parse("server.json5", []byte(`{
  listen: "127.0.0.1:9000",
  tools: { codeMode: { enabled: true, timeoutMs: 5000 } },
}`), os.LookupEnv)
	fmt.Println(c.Listen, c.CodeMode.TimeoutMs, err)
	_, err = serverconfig.Parse("server.json5", []byte("{\n  listen: '127.0.0.1:9000',\n  tokens: [],\n}"), os.LookupEnv)
	fmt.Println(err)
	// Output:
	// 127.0.0.1:9000 5000 <nil>
	// server.json5:3:3: tokens is not a known key (known: listen, exampleTools, faultTools, staticDir, maxBodyBytes, maxRunningCells, tools, mcp, openapi, auth, cors)
}
