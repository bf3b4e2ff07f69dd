// Package worker tests the Cloudflare Worker end to end on local workerd
// (wrangler dev --local, offline), which the tests start and stop: the HTTP
// conformance suite (tests/httpapi) against it, and what only the Worker has:
// runs suspended in a Durable Object across requests, the interrupt budget,
// session and principal isolation, eviction, remote MCP over fetch.
//
// Run it with ./build.sh test-worker (it builds build/worker first); plain
// `go test ./...` skips it unless WORKER_TEST=1.
package worker

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/codemode-go/codemode/tests/internal/wranglerdev"
	json "github.com/goccy/go-json"
)

const (
	tokenAlice = "worker-token-alice-0123456789"
	tokenBob   = "worker-token-bob-9876543210ab"
	// timeoutMs of the test Worker: short, so slow tools suspend quickly.
	testTimeoutMs = 2000
	// ideOrigin is the page origin the test Worker allows (CORS).
	ideOrigin = "http://ide.test"
)

// env is the running test environment.
var env struct {
	// url is the Worker's own address (the workerd that runs it); proxy is
	// wrangler's dev proxy in front of it (see wranglerdev: the tests talk to
	// the Worker itself, as clients of a deployed Worker do).
	root, url, proxy string
	mcpURL           string
	wrangler         *proc
	mcp              *proc
	port             int
	// config and extra are the Worker's tools.codeMode and extra --var flags
	// (the bench's calibration run changes them).
	config string
	extra  []string
}

type proc struct {
	cmd  *exec.Cmd
	log  *os.File
	done chan struct{}
}

// stop ends the process group (wrangler's node and its workerd children).
func (p *proc) stop() {
	if p == nil || p.cmd.Process == nil {
		return
	}
	syscall.Kill(-p.cmd.Process.Pid, syscall.SIGTERM)
	select {
	case <-p.done:
	case <-time.After(10 * time.Second):
		syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
		<-p.done
	}
	p.log.Close()
}

func start(dir, name string, envv []string, args ...string) (*proc, error) {
	logf, err := os.Create(filepath.Join(env.root, "build", "worker-test-"+name+".log"))
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), envv...)
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		logf.Close()
		return nil, err
	}
	p := &proc{cmd: cmd, log: logf, done: make(chan struct{})}
	go func() { cmd.Wait(); close(p.done) }()
	return p, nil
}

func freePort() int {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// startWrangler runs the built Worker on local workerd, offline and quiet, with
// two principals, the test timeoutMs and server-everything as a remote MCP server.
func startWrangler() error {
	tokens, _ := json.Marshal([]map[string]string{{"principal": "alice", "token": tokenAlice}, {"principal": "bob", "token": tokenBob}})
	// One config document, as codemode serve reads it: the example toolset
	// (only the demo build has it: a shipped build answers 503 naming
	// ./build.sh worker --demo), the test's tools.codeMode and
	// server-everything as a remote MCP server.
	// CORS for one made-up page origin, so preflights reach the front.
	doc := fmt.Sprintf("{exampleTools: true, tools: {codeMode: %s}, mcp: {servers: {everything: {url: %q}}}, cors: {allowedOrigins: [%q]}}", env.config, env.mcpURL, ideOrigin)
	args := []string{filepath.Join(env.root, "node_modules/.bin/wrangler"), "dev", "--local", "-c", "edge/worker/wrangler.jsonc",
		"--ip", "127.0.0.1", "--port", fmt.Sprint(env.port), "--inspector-port", fmt.Sprint(freePort()),
		"--show-interactive-dev-session=false", "--log-level", "log", "--compatibility-date", "2026-05-03",
		"--persist-to", filepath.Join(env.root, "build", "worker-test-state"),
		"--var", "CODEMODE_TOKENS:" + string(tokens), "--var", "CODEMODE_CONFIG:" + doc,
		"--var", "CODEMODE_DEBUG_INSTANCES:true"}
	debugLog := filepath.Join(env.root, "build", "worker-test-wrangler.debug.log")
	os.Remove(debugLog)
	p, err := start(env.root, "wrangler", []string{
		"WRANGLER_SEND_METRICS=false", "WRANGLER_SEND_ERROR_REPORTS=false", "CLOUDFLARE_CF_FETCH_ENABLED=false",
		"WRANGLER_HIDE_BANNER=true", "WRANGLER_LOG_PATH=" + debugLog,
	}, append(args, env.extra...)...)
	if err != nil {
		return err
	}
	env.wrangler = p
	if err := waitHealthy(env.proxy+"/healthz", 90*time.Second, p); err != nil {
		return err
	}
	direct, err := wranglerdev.WorkerURL(debugLog)
	if err != nil {
		return fmt.Errorf("the Worker's own address: %v (see %s)", err, debugLog)
	}
	env.url = direct
	return waitHealthy(env.url+"/healthz", 30*time.Second, p)
}

func waitHealthy(url string, limit time.Duration, p *proc) error {
	deadline := time.Now().Add(limit)
	last := ""
	for time.Now().Before(deadline) {
		select {
		case <-p.done:
			return fmt.Errorf("%s exited before it served %s (see build/worker-test-*.log)", p.cmd.Path, url)
		default:
		}
		if resp, err := http.Get(url); err == nil {
			b, _ := io.ReadAll(io.LimitReader(resp.Body, 1024))
			resp.Body.Close()
			if resp.StatusCode < 500 {
				return nil
			}
			last = fmt.Sprintf(" (last answer %d: %s)", resp.StatusCode, b)
		}
		time.Sleep(200 * time.Millisecond)
	}
	return fmt.Errorf("%s did not answer within %v%s", url, limit, last)
}

func TestMain(m *testing.M) {
	if os.Getenv("WORKER_TEST") != "1" && os.Getenv("WORKER_BENCH") != "1" {
		fmt.Println("tests/worker: skipped (run ./build.sh test-worker, which builds the Worker and sets WORKER_TEST=1)")
		os.Exit(0)
	}
	code, err := run(m)
	if err != nil {
		fmt.Fprintln(os.Stderr, "tests/worker:", err)
		os.Exit(1)
	}
	os.Exit(code)
}

func run(m *testing.M) (int, error) {
	wd, _ := os.Getwd()
	env.root = filepath.Clean(filepath.Join(wd, "..", ".."))
	if _, err := os.Stat(filepath.Join(env.root, "build/worker/front.wasm")); err != nil {
		return 0, fmt.Errorf("build/worker is missing: run ./build.sh worker --demo first (the suite calls the example toolset)")
	}
	os.RemoveAll(filepath.Join(env.root, "build", "worker-test-state"))
	mport := freePort()
	env.mcpURL = fmt.Sprintf("http://127.0.0.1:%d/mcp", mport)
	p, err := start(env.root, "mcp", []string{fmt.Sprintf("PORT=%d", mport)}, "node",
		filepath.Join(env.root, "node_modules/@modelcontextprotocol/server-everything/dist/index.js"), "streamableHttp")
	if err != nil {
		return 0, err
	}
	env.mcp = p
	defer env.mcp.stop()
	if err := waitPort(mport, 30*time.Second); err != nil {
		return 0, err
	}
	env.config = fmt.Sprintf("{enabled: true, timeoutMs: %d, memoryLimitBytes: 33554432, maxSnapshotBytes: 4194304}", testTimeoutMs)
	env.port = freePort()
	env.proxy = fmt.Sprintf("http://127.0.0.1:%d", env.port)
	if err := startWrangler(); err != nil {
		env.wrangler.stop()
		return 0, err
	}
	defer func() { env.wrangler.stop() }()
	return m.Run(), nil
}

func waitPort(port int, limit time.Duration) error {
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) {
		if c, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", port)); err == nil {
			c.Close()
			return nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return fmt.Errorf("port %d not open within %v", port, limit)
}

// restartRuntime stops workerd and starts it again: every Durable Object loses
// its memory, as at an eviction or a deploy.
func restartRuntime(t *testing.T) {
	t.Helper()
	env.wrangler.stop()
	if err := startWrangler(); err != nil {
		t.Fatal(err)
	}
}

// post sends a JSON body with a bearer token and decodes the JSON answer.
func post(t testing.TB, token, path string, body any) (int, map[string]any) {
	t.Helper()
	b, _ := json.Marshal(body)
	req, _ := http.NewRequestWithContext(context.Background(), "POST", env.url+path, bytes.NewReader(b))
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := (&http.Client{Timeout: 3 * time.Minute, Transport: noKeepAlive}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatalf("%s: answer is not JSON (%d): %.300s", path, resp.StatusCode, raw)
	}
	for _, bad := range []string{"goroutine ", ".go:", "/root/", "/home/", "wasm://"} {
		if strings.Contains(string(raw), bad) {
			t.Errorf("%s: answer shows %q: %.300s", path, bad, raw)
		}
	}
	return resp.StatusCode, m
}

// noKeepAlive opens a connection per request: local workerd may close a
// kept-alive connection right after a long answer, and a POST sent on it in
// that instant fails with a reset (tests/internal/wranglerdev).
var noKeepAlive = &http.Transport{DisableKeepAlives: true}

type scope map[string]string

func sessionScope(t *testing.T) scope {
	return scope{"agentId": "worker-tests", "sessionId": strings.ReplaceAll(t.Name(), "/", "_"), "sessionKey": "k1", "agentRunId": "r1"}
}

func exec1(t *testing.T, token string, sc scope, code string) map[string]any {
	t.Helper()
	st, m := post(t, token, "/v1/exec", map[string]any{"code": code, "scope": sc})
	if st != 200 {
		t.Fatalf("exec: %d %v", st, m)
	}
	return m
}

func wait1(t *testing.T, token string, sc scope, runID string) map[string]any {
	t.Helper()
	st, m := post(t, token, "/v1/wait", map[string]any{"runId": runID, "scope": sc})
	if st != 200 {
		t.Fatalf("wait: %d %v", st, m)
	}
	return m
}
