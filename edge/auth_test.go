package edge_test

import (
	"bytes"
	"log/slog"
	"strconv"
	"strings"
	"testing"

	"github.com/codemode-go/codemode/edge"
)

const (
	aliceToken = "alice-token-0123456789"
	bobToken   = "bob-token-9876543210xy"
)

func TestAuthNeedsAValidBearerToken(t *testing.T) {
	srv := newServer(t, edge.Options{Tokens: []edge.Token{{Principal: "alice", Token: aliceToken}, {Principal: "bob", Token: bobToken}}})
	body := `{"code":"return 1",` + scope + `}`
	for _, auth := range []string{"", "Bearer", "Bearer wrong-token-0000000000", "Basic " + aliceToken, aliceToken} {
		a := do(t, "POST", srv.URL+"/v1/exec", "", body, "Authorization", auth)
		if a.status != 401 || a.errorCode(t) != edge.CodeUnauthorized || !strings.HasPrefix(a.header.Get("WWW-Authenticate"), "Bearer") {
			t.Errorf("Authorization %q: %d %s", auth, a.status, a.body)
		}
		if strings.Contains(string(a.body), aliceToken) {
			t.Errorf("answer echoes a token: %s", a.body)
		}
	}
	if a := do(t, "POST", srv.URL+"/v1/exec", aliceToken, body); a.status != 200 || a.json(t)["value"] != 1.0 {
		t.Fatalf("alice: %d %s", a.status, a.body)
	}
	if a := do(t, "GET", srv.URL+"/v1/catalog", "", ""); a.status != 401 {
		t.Errorf("catalog without a token: %d", a.status)
	}
}

// TestTwoCredentialsAreRefused: two Authorization headers, or two joined into
// one field as workerd hands them over, are refused whichever is valid: hosts
// differ in which one they would keep.
func TestTwoCredentialsAreRefused(t *testing.T) {
	srv := newServer(t, edge.Options{Tokens: []edge.Token{{Principal: "alice", Token: aliceToken}, {Principal: "bob", Token: bobToken}}})
	body := `{"code":"return 1",` + scope + `}`
	send := func(vals ...string) answer {
		var hdr []string
		for _, v := range vals {
			hdr = append(hdr, "Authorization", v)
		}
		return do(t, "POST", srv.URL+"/v1/exec", "", body, hdr...)
	}
	for _, vals := range [][]string{
		{"Bearer " + aliceToken, "Bearer " + bobToken},
		{"Bearer " + aliceToken, "Bearer " + aliceToken},
		{"Bearer " + aliceToken + ", Bearer " + bobToken},
	} {
		a := send(vals...)
		if a.status != 401 || a.errorCode(t) != edge.CodeUnauthorized || !strings.Contains(string(a.body), "exactly one") {
			t.Errorf("%d headers: %d %s", len(vals), a.status, a.body)
		}
	}
	if a := send("Bearer " + aliceToken); a.status != 200 {
		t.Fatalf("one header: %d %s", a.status, a.body)
	}
}

// TestAnotherPrincipalsRunLooksUnknown: bob waiting on alice's runId gets
// exactly the answer for a runId that never existed; alice still resumes it.
func TestAnotherPrincipalsRunLooksUnknown(t *testing.T) {
	srv := newServer(t, edge.Options{Tokens: []edge.Token{{Principal: "alice", Token: aliceToken}, {Principal: "bob", Token: bobToken}}})
	a := do(t, "POST", srv.URL+"/v1/exec", aliceToken, `{"code":"await yield_control(); return 'mine'",`+scope+`}`)
	runID, _ := a.json(t)["runId"].(string)
	if runID == "" {
		t.Fatalf("exec: %s", a.body)
	}
	bob := do(t, "POST", srv.URL+"/v1/wait", bobToken, `{"runId":"`+runID+`",`+scope+`}`)
	unknown := do(t, "POST", srv.URL+"/v1/wait", bobToken, `{"runId":"cm_000000000000000000000000",`+scope+`}`)
	if bob.status != unknown.status || string(bob.body) != string(unknown.body) {
		t.Fatalf("bob on alice's run: %d %s\nunknown runId: %d %s", bob.status, bob.body, unknown.status, unknown.body)
	}
	other := do(t, "POST", srv.URL+"/v1/wait", aliceToken, `{"runId":"`+runID+`","scope":{"agentId":"a","sessionId":"other"}}`)
	if !strings.Contains(string(other.body), "different session") {
		t.Errorf("alice from another session: %s", other.body)
	}
	if a := do(t, "POST", srv.URL+"/v1/wait", aliceToken, `{"runId":"`+runID+`",`+scope+`}`); a.json(t)["value"] != "mine" {
		t.Fatalf("alice's wait: %s", a.body)
	}
}

func TestTokensNeverLogged(t *testing.T) {
	var logs bytes.Buffer
	srv := newServer(t, edge.Options{Tokens: []edge.Token{{Principal: "alice", Token: aliceToken}},
		Logger: slog.New(slog.NewJSONHandler(&logs, nil))})
	secretCode := "return 'SECRET-CELL-TEXT'"
	a := do(t, "POST", srv.URL+"/v1/exec", aliceToken, `{"code":"await yield_control(); `+secretCode+`",`+scope+`}`)
	runID := a.json(t)["runId"].(string)
	do(t, "POST", srv.URL+"/v1/wait", aliceToken, `{"runId":"`+runID+`",`+scope+`}`)
	do(t, "POST", srv.URL+"/v1/exec", "wrong-but-logged-token-xx", `{}`)
	out := logs.String()
	for _, secret := range []string{aliceToken, "wrong-but-logged-token-xx", "SECRET-CELL-TEXT", "yield_control"} {
		if strings.Contains(out, secret) {
			t.Errorf("log contains %q:\n%s", secret, out)
		}
	}
	for _, want := range []string{`"method":"POST"`, `"path":"/v1/exec"`, `"status":200`, `"status":401`, `"runId":"` + runID + `"`, `"duration"`} {
		if !strings.Contains(out, want) {
			t.Errorf("log lacks %s:\n%s", want, out)
		}
	}
}

func TestNewRefusesBadTokensAndOrigins(t *testing.T) {
	rt := sharedRuntime(t)
	for name, opts := range map[string]edge.Options{
		"short token":       {Tokens: []edge.Token{{Principal: "p", Token: "short"}}},
		"no principal":      {Tokens: []edge.Token{{Token: aliceToken}}},
		"shared token":      {Tokens: []edge.Token{{Principal: "a", Token: aliceToken}, {Principal: "b", Token: aliceToken}}},
		"origin with path":  {AllowedOrigins: []string{"https://app.example/"}},
		"origin not a URL":  {AllowedOrigins: []string{"app.example"}},
		"missing directory": {StaticDir: "/nonexistent/static/dir"},
	} {
		if _, err := edge.New(rt, opts); err == nil {
			t.Errorf("%s: New accepted it", name)
		}
	}
}

// TestRequestLogTellsHowARunEnded: exec and wait answer 200 whatever the run
// did, so the log line carries the result's status and error code: a
// completed, a failed (thrown) and a timed-out run read differently, and
// neither the code nor the inputs appear.
func TestRequestLogTellsHowARunEnded(t *testing.T) {
	var logs bytes.Buffer
	srv := newServer(t, edge.Options{Logger: slog.New(slog.NewJSONHandler(&logs, nil))})
	cases := []struct{ code, want string }{
		{`return "DONE-VALUE"`, `"result":"completed"`},
		{`throw new Error("THROWN-TEXT")`, `"result":"failed"`},
		{`while (true) {} // SPIN-TEXT`, `"result":"failed","code":"timeout"`},
		{`await yield_control("YIELD-TEXT")`, `"result":"waiting"`},
	}
	for _, c := range cases {
		logs.Reset()
		do(t, "POST", srv.URL+"/v1/exec", "", `{"code":`+strconv.Quote(c.code)+`,`+scope+`}`)
		line := logs.String()
		if !strings.Contains(line, c.want) || !strings.Contains(line, `"status":200`) {
			t.Errorf("%s: log lacks %s:\n%s", c.code, c.want, line)
		}
		for _, secret := range []string{"DONE-VALUE", "THROWN-TEXT", "SPIN-TEXT", "YIELD-TEXT"} {
			if strings.Contains(line, secret) {
				t.Errorf("log line contains %q:\n%s", secret, line)
			}
		}
	}
	logs.Reset()
	do(t, "POST", srv.URL+"/v1/wait", "", `{"runId":"cm_000000000000000000000000",`+scope+`}`)
	if line := logs.String(); !strings.Contains(line, `"result":"failed","code":"invalid_input"`) {
		t.Errorf("wait on an unknown run: %s", line)
	}
	logs.Reset()
	do(t, "GET", srv.URL+"/healthz", "", "")
	if line := logs.String(); strings.Contains(line, `"result"`) {
		t.Errorf("a route that runs nothing logs a result: %s", line)
	}
}
