package edge_test

import (
	"strings"
	"testing"

	"github.com/codemode-go/codemode/edge"
)

func TestCORSIsOffByDefault(t *testing.T) {
	srv := newServer(t, edge.Options{})
	a := do(t, "POST", srv.URL+"/v1/exec", "", `{"code":"return 1",`+scope+`}`, "Origin", "https://app.example")
	if a.header.Get("Access-Control-Allow-Origin") != "" {
		t.Errorf("CORS header without configuration: %v", a.header)
	}
	if a := do(t, "OPTIONS", srv.URL+"/v1/exec", "", "", "Origin", "https://app.example", "Access-Control-Request-Method", "POST"); a.status != 405 {
		t.Errorf("preflight without CORS: %d", a.status)
	}
}

func TestCORSForConfiguredOrigins(t *testing.T) {
	srv := newServer(t, edge.Options{AllowedOrigins: []string{"https://app.example"}})
	pre := do(t, "OPTIONS", srv.URL+"/v1/exec", "", "", "Origin", "https://app.example", "Access-Control-Request-Method", "POST", "Access-Control-Request-Headers", "authorization, content-type")
	if pre.status != 204 || pre.header.Get("Access-Control-Allow-Origin") != "https://app.example" ||
		!strings.HasPrefix(pre.header.Get("Access-Control-Allow-Headers"), "Authorization, Content-Type") || pre.header.Get("Access-Control-Allow-Credentials") != "" {
		t.Fatalf("preflight: %d %v", pre.status, pre.header)
	}
	a := do(t, "POST", srv.URL+"/v1/exec", "", `{"code":"return 1",`+scope+`}`, "Origin", "https://app.example")
	if a.header.Get("Access-Control-Allow-Origin") != "https://app.example" || a.header.Get("Vary") != "Origin" {
		t.Errorf("simple request: %v", a.header)
	}
	bad := do(t, "OPTIONS", srv.URL+"/v1/exec", "", "", "Origin", "https://evil.example", "Access-Control-Request-Method", "POST")
	if bad.status != 403 || bad.errorCode(t) != edge.CodeOriginNotAllowed || bad.header.Get("Access-Control-Allow-Origin") != "" {
		t.Errorf("preflight from another origin: %d %v", bad.status, bad.header)
	}
	if a := do(t, "POST", srv.URL+"/v1/exec", "", `{"code":"return 1",`+scope+`}`, "Origin", "https://evil.example"); a.header.Get("Access-Control-Allow-Origin") != "" {
		t.Errorf("another origin got CORS headers: %v", a.header)
	}
}

func TestCORSWildcardNeverAllowsCredentials(t *testing.T) {
	srv := newServer(t, edge.Options{AllowedOrigins: []string{"*"}})
	pre := do(t, "OPTIONS", srv.URL+"/v1/tools/call", "", "", "Origin", "https://any.example", "Access-Control-Request-Method", "POST")
	if pre.status != 204 || pre.header.Get("Access-Control-Allow-Origin") != "*" || pre.header.Get("Access-Control-Allow-Credentials") != "" {
		t.Fatalf("wildcard preflight: %d %v", pre.status, pre.header)
	}
}
