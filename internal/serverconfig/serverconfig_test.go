package serverconfig_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/codemode-go/codemode/internal/serverconfig"
)

func env(m map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
}

func TestParseAFullConfig(t *testing.T) {
	src := `// a server config
{
  listen: "0.0.0.0:9000",
  exampleTools: false,
  faultTools: true,
  staticDir: "web",
  maxBodyBytes: 1048576,
  tools: { codeMode: { enabled: true, timeoutMs: 5000, languages: ["javascript"] } },
  mcp: { servers: {
    everything: { command: "npx", args: ["mcp-server-everything"], env: { DEBUG: "1" }, cwd: "." },
    remote: { url: "http://127.0.0.1:3001/mcp", headers: { Authorization: "Bearer abc" }, readOnlyTools: ["search", "fetch"] },
  } },
  auth: { tokens: [
    { principal: "alice", token: "alice-token-0123456789" },
    { principal: "bob", tokenEnv: "BOB_TOKEN" },
  ] },
  cors: { allowedOrigins: ["http://localhost:5173"] },
}`
	c, err := serverconfig.Parse("/etc/codemode/server.json5", []byte(src), env(map[string]string{"BOB_TOKEN": "bob-token-from-the-env"}))
	if err != nil {
		t.Fatal(err)
	}
	if c.Listen != "0.0.0.0:9000" || c.ExampleTools == nil || *c.ExampleTools || !c.FaultTools || c.StaticDir != filepath.FromSlash("/etc/codemode/web") || c.MaxBodyBytes != 1<<20 {
		t.Errorf("top level: %+v", c)
	}
	if !c.CodeMode.Enabled || c.CodeMode.TimeoutMs != 5000 || len(c.CodeMode.Languages) != 1 {
		t.Errorf("codeMode: %+v", c.CodeMode)
	}
	if len(c.MCPServers) != 2 || c.MCPServers[0].Name != "everything" || c.MCPServers[0].Cwd != "/etc/codemode" || c.MCPServers[0].Env["DEBUG"] != "1" ||
		c.MCPServers[1].URL != "http://127.0.0.1:3001/mcp" || c.MCPServers[1].Headers["Authorization"] != "Bearer abc" ||
		len(c.MCPServers[1].ReadOnlyTools) != 2 || c.MCPServers[0].ReadOnlyTools != nil {
		t.Errorf("mcp: %+v", c.MCPServers)
	}
	if len(c.Tokens) != 2 || c.Tokens[1].Token != "bob-token-from-the-env" || c.Tokens[1].Principal != "bob" {
		t.Errorf("tokens: %+v", c.Tokens)
	}
	if len(c.AllowedOrigins) != 1 {
		t.Errorf("cors: %v", c.AllowedOrigins)
	}
}

func TestEmptyObjectIsTheDefault(t *testing.T) {
	c, err := serverconfig.Parse("c.json", []byte(`{}`), env(nil))
	if err != nil {
		t.Fatal(err)
	}
	if !c.CodeMode.Enabled || c.Listen != serverconfig.DefaultListen || c.ExampleTools != nil { // nil: on where the build has them
		t.Errorf("defaults: %+v", c)
	}
}

// TestErrorsNameFileLineColumnAndKey: each refusal is "file:line:col: key msg".
func TestErrorsNameFileLineColumnAndKey(t *testing.T) {
	for _, c := range []struct{ name, src, want string }{
		{"unknown top key", "{\n  lisen: 'x',\n}", `c.json5:2:3: lisen is not a known key`},
		{"unknown nested key", "{ auth: { tokens: [\n  { principal: 'a', tokn: 'x' } ] } }", `c.json5:2:21: auth.tokens[0].tokn is not a known key (known: principal, token, tokenEnv)`},
		{"unknown codeMode field", "{ tools: { codeMode: {\n enabled: true,\n timeoutMS: 5 } } }", `c.json5:3:2: tools.codeMode.timeoutMS is not a known field`},
		{"codeMode out of range", "{ tools: { codeMode: { enabled: true,\n   timeoutMs: 5 } } }", `c.json5:2:4: tools.codeMode.timeoutMs must be between`},
		{"syntax", "{ listen: 'x' ", `c.json5:1:15: is not valid JSON5`},
		{"wrong type", "{ exampleTools: 'yes' }", `c.json5:1:17: exampleTools must be true or false (got a string)`},
		{"wrong faultTools type", "{ faultTools: 1 }", `c.json5:1:15: faultTools must be true or false (got a number)`},
		{"bad listen", "{ listen: 'localhost' }", `c.json5:1:11: listen must be host:port`},
		{"mixed mcp", "{ mcp: { servers: { x: { command: 'a', url: 'http://h' } } } }", `c.json5:1:24: mcp.servers.x mixes a stdio server`},
		{"empty mcp", "{ mcp: { servers: { x: {} } } }", `mcp.servers.x needs either command`},
		{"bad mcp name", "{ mcp: { servers: { 'a b': { command: 'x' } } } }", `c.json5:1:21: mcp.servers["a b"] is not a valid server name`},
		{"bad mcp url", "{ mcp: { servers: { x: { url: 'ftp://h' } } } }", `mcp.servers.x.url must be an http:// or https:// URL`},
		{"unknown mcp key", "{ mcp: { servers: { x: { command: 'a', argv: [] } } } }", `mcp.servers.x.argv is not a known key`},
		{"unset tokenEnv", "{ auth: { tokens: [{ principal: 'a', tokenEnv: 'NOPE' }] } }", `auth.tokens[0].tokenEnv names the environment variable "NOPE", which is not set`},
		{"token and tokenEnv", "{ auth: { tokens: [{ principal: 'a', token: 'x', tokenEnv: 'NOPE' }] } }", `needs exactly one of token or tokenEnv`},
		{"short token", "{ auth: { tokens: [{ principal: 'a', token: 'short' }] } }", `shorter than 16`},
		{"no principal", "{ auth: { tokens: [{ token: 'long-enough-token-123' }] } }", `needs a principal`},
		{"args not strings", "{ mcp: { servers: { x: { command: 'a', args: [1] } } } }", `mcp.servers.x.args[0] must be a string (got a number)`},
		{"not an object", "[1]", `c.json5:1:1: the file must be an object (got an array)`},
		{"openapi not an object", "{ openapi: [] }", `c.json5:1:12: openapi must be an object of OpenAPI documents by name`},
		{"openapi no spec", "{ openapi: { p: { baseUrl: 'http://h' } } }", `c.json5:1:17: openapi.p needs spec`},
		{"openapi no baseUrl", "{ openapi: { p: { spec: 'p.yaml' } } }", `openapi.p needs baseUrl`},
		{"openapi bad baseUrl", "{ openapi: { p: { spec: 'p.yaml', baseUrl: 'ftp://h' } } }", `c.json5:1:44: openapi.p.baseUrl must be an http:// or https:// URL`},
		{"openapi unknown key", "{ openapi: { p: { spec: 'p.yaml', baseURL: 'http://h' } } }", `openapi.p.baseURL is not a known key (known: spec, baseUrl, headers, headersEnv, trusted)`},
		{"openapi unset env", "{ openapi: { p: { spec: 'p.yaml', baseUrl: 'http://h', headersEnv: { 'X-Key': 'NOPE' } } } }", `openapi.p.headersEnv.X-Key names the environment variable "NOPE", which is not set`},
		{"openapi trusted type", "{ openapi: { p: { spec: 'p.yaml', baseUrl: 'http://h', trusted: 'yes' } } }", `openapi.p.trusted must be true or false`},
		{"openapi bad name", "{ openapi: { 'a b': { spec: 'p.yaml', baseUrl: 'http://h' } } }", `openapi["a b"] is not a valid name`},
		{"duplicate key", "{ listen: 'a:1',\n listen: 'b:2' }", `c.json5:2:2: is not valid JSON5: key "listen" appears more than once`},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := serverconfig.Parse("c.json5", []byte(c.src), env(nil))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v, want it to contain %q", err, c.want)
			}
		})
	}
}

func TestOpenAPISources(t *testing.T) {
	src := `{ openapi: {
  pets: { spec: "pets.yaml", baseUrl: "https://api.example/v1", headers: { "X-Trace": "on" }, headersEnv: { "X-API-Key": "PETS_KEY" }, trusted: true },
  other: { spec: "/abs/other.json", baseUrl: "http://127.0.0.1:9" },
} }`
	c, err := serverconfig.Parse("/etc/codemode/c.json5", []byte(src), env(map[string]string{"PETS_KEY": "k-123456"}))
	if err != nil {
		t.Fatal(err)
	}
	if len(c.OpenAPI) != 2 {
		t.Fatalf("openapi: %+v", c.OpenAPI)
	}
	p := c.OpenAPI[0]
	if p.Name != "pets" || p.Spec != filepath.FromSlash("/etc/codemode/pets.yaml") || p.BaseURL != "https://api.example/v1" || !p.Trusted ||
		p.Headers["X-API-Key"] != "k-123456" || p.Headers["X-Trace"] != "on" {
		t.Errorf("pets: %+v", p)
	}
	if o := c.OpenAPI[1]; o.Spec != "/abs/other.json" || o.Trusted {
		t.Errorf("other: %+v", o)
	}
	if _, err := serverconfig.Parse("c.json5", []byte(`{ openapi: { p: { spec: "p.yaml", baseUrl: "http://h", headers: { K: "a" }, headersEnv: { K: "E" } } } }`), env(map[string]string{"E": "b"})); err == nil || !strings.Contains(err.Error(), `sets "K", which headers sets too`) {
		t.Errorf("header twice: %v", err)
	}
}

// OpenAPITools loads the documents; a bad one stops the server with the key,
// the document and the JSON pointer.
func TestOpenAPIToolsLoadsTheDocuments(t *testing.T) {
	pets, _ := filepath.Abs("../../examples/openapi/petstore.yaml")
	tools, err := serverconfig.OpenAPITools([]serverconfig.OpenAPISource{{Name: "pets", Spec: pets, BaseURL: "http://127.0.0.1:9"}}, nil)
	if err != nil || len(tools) != 4 {
		t.Fatalf("tools %d, %v", len(tools), err)
	}
	bad := filepath.Join(t.TempDir(), "bad.yaml")
	os.WriteFile(bad, []byte("openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths: {/a: {$ref: '#/nope'}}\n"), 0o644)
	_, err = serverconfig.OpenAPITools([]serverconfig.OpenAPISource{{Name: "bad", Spec: bad, BaseURL: "http://127.0.0.1:9"}}, nil)
	if err == nil || !strings.Contains(err.Error(), "openapi.bad: "+bad+": /paths/~1a/$ref: \"#/nope\" points at nothing") {
		t.Fatalf("bad document: %v", err)
	}
}

func TestLoadMissingFile(t *testing.T) {
	_, err := serverconfig.Load(filepath.Join(t.TempDir(), "nope.json5"))
	if err == nil || !strings.Contains(err.Error(), "nope.json5: cannot be read: no such file or directory") {
		t.Fatalf("err = %v", err)
	}
}

func TestDisabledCodeModeIsRefusedByServers(t *testing.T) {
	c, err := serverconfig.Parse("c.json5", []byte("{ tools: { codeMode: { timeoutMs: 5000 } } }"), env(nil))
	if err != nil {
		t.Fatal(err)
	}
	if err := c.RequireEnabled(); err == nil || !strings.Contains(err.Error(), "c.json5:1:22: tools.codeMode must enable Code Mode") {
		t.Fatalf("RequireEnabled = %v", err)
	}
	if err := serverconfig.Default().RequireEnabled(); err != nil {
		t.Fatal(err)
	}
}
