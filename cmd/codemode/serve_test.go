package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// everythingScript finds the real server-everything installed by ./build.sh deps.
func everythingScript(t *testing.T) (node, script string) {
	t.Helper()
	dir, _ := os.Getwd()
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		if parent := filepath.Dir(dir); parent != dir {
			dir = parent
		} else {
			t.Fatal("no go.mod above the test directory")
		}
	}
	script = filepath.Join(dir, "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js")
	if _, err := os.Stat(script); err != nil {
		t.Fatalf("%s is missing: run ./build.sh deps", script)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatal("node is not installed (need Node.js >= 20)")
	}
	return node, script
}

// lineWriter is a concurrency-safe buffer that reports its first line.
type lineWriter struct {
	mu    sync.Mutex
	buf   bytes.Buffer
	first chan string
	once  sync.Once
}

func newLineWriter() *lineWriter { return &lineWriter{first: make(chan string, 1)} }

func (w *lineWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(p)
	if i := bytes.IndexByte(w.buf.Bytes(), '\n'); i >= 0 {
		w.once.Do(func() { w.first <- string(w.buf.Bytes()[:i]) })
	}
	return len(p), nil
}

func (w *lineWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}

// startServe runs serveCmd in-process with args until ctx ends and waits for
// its first line, "codemode serving on <base>". It returns base, the channel
// serve's exit code arrives on, and its stderr; the test fails if serve exits
// first, stays silent for 60 s or serves anywhere but 127.0.0.1.
func startServe(t *testing.T, ctx context.Context, args ...string) (string, <-chan int, *lineWriter) {
	t.Helper()
	stdout, stderr := newLineWriter(), newLineWriter()
	exit := make(chan int, 1)
	go func() { exit <- serveCmd(ctx, args, stdout, stderr) }()
	select {
	case line := <-stdout.first:
		base := strings.TrimPrefix(line, "codemode serving on ")
		if !strings.HasPrefix(base, "http://127.0.0.1:") {
			t.Fatalf("first line %q", line)
		}
		return base, exit, stderr
	case code := <-exit:
		t.Fatalf("serve exited %d: %s", code, stderr.String())
	case <-time.After(60 * time.Second):
		t.Fatalf("serve did not start: %s", stderr.String())
	}
	return "", nil, nil
}

// childPIDs lists the processes whose parent is this test process.
func childPIDs(t *testing.T) []int {
	t.Helper()
	entries, _ := os.ReadDir("/proc")
	var out []int
	self := os.Getpid()
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...: comm may hold spaces, so cut after ')'.
		rest := string(b[bytes.LastIndexByte(b, ')')+2:])
		f := strings.Fields(rest)
		if len(f) > 1 && f[1] == strconv.Itoa(self) && f[0] != "Z" {
			out = append(out, pid)
		}
	}
	return out
}

func alive(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	rest := string(b[bytes.LastIndexByte(b, ')')+2:])
	return !strings.HasPrefix(rest, "Z") // a zombie has exited
}

func postJSON(t *testing.T, url, body string) map[string]any {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("%s: %s", url, b)
	}
	return m
}

// TestServeWithServerEverythingAndGracefulShutdown starts codemode serve on a
// config that wires the real server-everything over stdio (and one server that
// cannot start), runs an MCP call through HTTP, then shuts down while a slow
// exec is in flight: the exec finishes, the suspended run is dropped with one
// log line, and the MCP child's PID is gone from /proc.
func TestServeWithServerEverythingAndGracefulShutdown(t *testing.T) {
	node, script := everythingScript(t)
	cfg := filepath.Join(t.TempDir(), "server.json5")
	os.WriteFile(cfg, []byte(`{
  listen: "127.0.0.1:0",
  tools: { codeMode: { enabled: true, timeoutMs: 3000 } },
  mcp: { servers: {
    everything: { command: `+strconv.Quote(node)+`, args: [`+strconv.Quote(script)+`, "stdio"] },
    broken: { command: "/nonexistent/mcp-server" },
  } },
}`), 0o644)
	before := map[int]bool{}
	for _, p := range childPIDs(t) {
		before[p] = true
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	base, exit, stderr := startServe(t, ctx, "--config", cfg, "--static", t.TempDir())
	var children []int
	for _, p := range childPIDs(t) {
		if !before[p] {
			children = append(children, p)
		}
	}
	if len(children) == 0 {
		t.Fatal("no MCP child process found")
	}
	if !strings.Contains(stderr.String(), "MCP server left out") || !strings.Contains(stderr.String(), "server=broken") {
		t.Errorf("the broken server's failure is not logged:\n%s", stderr.String())
	}

	sc := `"scope":{"agentId":"a","sessionId":"s"}`
	r := postJSON(t, base+"/v1/exec", `{"code":"const r = await MCP.everything.echo({message: 'via http'}); return JSON.stringify(r)",`+sc+`}`)
	if r["status"] != "completed" || !strings.Contains(r["value"].(string), "via http") {
		t.Fatalf("MCP call: %v", r)
	}
	relay := postJSON(t, base+"/v1/tools/call", `{"id":"mcp:everything:echo","input":{"message":"relayed"},`+sc+`}`)
	if b, _ := json.Marshal(relay); !strings.Contains(string(b), "Echo: relayed") {
		t.Fatalf("relayed MCP call: %s", b)
	}
	resp, err := http.Get(base + "/v1/catalog")
	if err != nil {
		t.Fatal(err)
	}
	var cat struct {
		MCPServers []struct {
			Name, Namespace string
			Declarations    []struct{ Path, Content string }
		} `json:"mcpServers"`
	}
	json.NewDecoder(resp.Body).Decode(&cat)
	resp.Body.Close()
	if len(cat.MCPServers) != 1 || cat.MCPServers[0].Namespace != "MCP.everything" || len(cat.MCPServers[0].Declarations) == 0 ||
		!strings.Contains(cat.MCPServers[0].Declarations[0].Content, "echo") {
		t.Fatalf("catalog's MCP servers: %+v", cat.MCPServers)
	}
	if r := postJSON(t, base+"/v1/exec", `{"code":"await yield_control(); return 1",`+sc+`}`); r["status"] != "waiting" {
		t.Fatalf("yield: %v", r)
	}
	inflight := make(chan map[string]any, 1)
	go func() {
		inflight <- postJSON(t, base+"/v1/exec", `{"code":"const s = await tools.sleep_ms({ms: 800}); return s.slept",`+sc+`}`)
	}()
	time.Sleep(300 * time.Millisecond)
	cancel() // what SIGINT/SIGTERM do
	select {
	case r := <-inflight:
		if r["status"] != "completed" || r["value"] != 800.0 {
			t.Errorf("in-flight exec: %v", r)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the in-flight exec never answered")
	}
	exitsZero(t, "serve", exit, stderr)
	logs := stderr.String()
	if strings.Count(logs, "dropped suspended runs") != 1 || !strings.Contains(logs, "count=1") {
		t.Errorf("want one log line dropping 1 suspended run:\n%s", logs)
	}
	for _, p := range children {
		if alive(p) {
			t.Errorf("MCP child %d is still running after shutdown", p)
		}
	}
	if _, err := http.Get(base + "/healthz"); err == nil {
		t.Error("the server still answers after shutdown")
	}
}

func TestServeRefusesNonLoopbackWithoutToken(t *testing.T) {
	var out, errb bytes.Buffer
	code := serveCmd(context.Background(), []string{"--addr", "0.0.0.0:0"}, &out, &errb)
	if code == 0 || !strings.Contains(errb.String(), "refusing to listen on 0.0.0.0:0 without a token") || out.Len() != 0 {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out.String(), errb.String())
	}
	for _, c := range []struct {
		listen string
		tokens bool
		ok     bool
	}{
		{"127.0.0.1:1", false, true}, {"[::1]:1", false, true}, {"localhost:1", false, true},
		{":8787", false, false}, {"192.168.1.5:1", false, false}, {"[::]:1", false, false}, {"0.0.0.0:1", true, true},
	} {
		if err := checkExposure(c.listen, c.tokens); (err == nil) != c.ok {
			t.Errorf("checkExposure(%q, tokens=%v) = %v", c.listen, c.tokens, err)
		}
	}
}

func TestServeRefusesBadConfig(t *testing.T) {
	cfg := filepath.Join(t.TempDir(), "bad.json5")
	os.WriteFile(cfg, []byte("{\n  listn: 'x' }"), 0o644)
	var out, errb bytes.Buffer
	if code := serveCmd(context.Background(), []string{"--config", cfg}, &out, &errb); code != 2 || !strings.Contains(errb.String(), "bad.json5:2:3: listn is not a known key") {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
}

// TestExecConfigSeesTheServersTools: exec --config takes the server config
// file, so the command line reaches the same MCP servers as serve.
func TestExecConfigSeesTheServersTools(t *testing.T) {
	node, script := everythingScript(t)
	cfg := filepath.Join(t.TempDir(), "server.json5")
	os.WriteFile(cfg, []byte(`{ exampleTools: false, mcp: { servers: { everything: { command: `+strconv.Quote(node)+`, args: [`+strconv.Quote(script)+`, "stdio"] } } } }`), 0o644)
	var out, errb bytes.Buffer
	code := run([]string{"exec", "--config", cfg, "-e", `const r = await MCP.everything.echo({message: "cli"}); return {mcp: JSON.stringify(r), shipping: "shipping_list" in tools}`}, strings.NewReader(""), &out, &errb)
	if code != 0 || !strings.Contains(out.String(), `Echo: cli`) || !strings.Contains(out.String(), `"shipping":false`) {
		t.Fatalf("exit %d: %s %s", code, out.String(), errb.String())
	}
}

// TestServeBoundsInFlightRequests: a request still running after --grace is
// cut off (its cell ends as aborted) and serve still stops promptly.
func TestServeBoundsInFlightRequests(t *testing.T) {
	cfg := filepath.Join(t.TempDir(), "server.json5")
	os.WriteFile(cfg, []byte(`{ listen: "127.0.0.1:0", tools: { codeMode: { enabled: true, timeoutMs: 20000 } } }`), 0o644)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	base, exit, stderr := startServe(t, ctx, "--config", cfg, "--grace", "300ms", "--static", t.TempDir())
	go http.Post(base+"/v1/exec", "application/json", strings.NewReader(`{"code":"await tools.sleep_ms({ms: 15000}); return 1","scope":{}}`))
	time.Sleep(300 * time.Millisecond)
	start := time.Now()
	cancel()
	select {
	case code := <-exit:
		if code != 0 {
			t.Fatalf("exit %d", code)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("serve waited for the 15 s request")
	}
	if d := time.Since(start); d > 6*time.Second {
		t.Errorf("shutdown took %v with a 300 ms grace", d)
	}
	if !strings.Contains(stderr.String(), "in-flight requests cut off") {
		t.Errorf("no cut-off line:\n%s", stderr.String())
	}
}
