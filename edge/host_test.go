package edge_test

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/codemode-go/codemode/edge"
)

// TestLoopbackHostsOnly: a tokenless server on loopback answers only
// loopback Host names, so a web page cannot reach it through DNS rebinding
// (a name of the attacker's that resolves to 127.0.0.1).
func TestLoopbackHostsOnly(t *testing.T) {
	srv := newServer(t, edge.Options{LoopbackHostsOnly: true})
	port := srv.URL[strings.LastIndex(srv.URL, ":")+1:]
	for _, tc := range []struct {
		host string
		ok   bool
	}{
		{"127.0.0.1:" + port, true},
		{"localhost:" + port, true},
		{"LOCALHOST", true},
		{"ide.localhost:" + port, true},
		{"127.1.2.3:" + port, true},
		{"[::1]:" + port, true},
		{"rebind.attacker.example:" + port, false},
		{"attacker.example", false},
		{"localhost.attacker.example:" + port, false},
		{"10.0.0.1:" + port, false},
	} {
		status, body := getWithHost(t, srv.URL+"/healthz", tc.host)
		if tc.ok && status != 200 {
			t.Errorf("Host %q: %d %s, want 200", tc.host, status, body)
		}
		if !tc.ok && (status != 403 || !strings.Contains(body, `"code":"`+edge.CodeHostNotAllowed+`"`) || !strings.Contains(body, "auth.tokens")) {
			t.Errorf("Host %q: %d %s, want 403 host_not_allowed naming auth.tokens", tc.host, status, body)
		}
	}
	// Without the option (a server with tokens, the Worker) any Host is served.
	open := newServer(t, edge.Options{})
	if status, body := getWithHost(t, open.URL+"/healthz", "api.example"); status != 200 {
		t.Errorf("without LoopbackHostsOnly: %d %s", status, body)
	}
}

// getWithHost sends GET url with the given Host header (the connection still
// goes to url's address, as a rebound name's would).
func getWithHost(t *testing.T, url, host string) (int, string) {
	t.Helper()
	req, err := http.NewRequest("GET", url, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Host = host
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}
