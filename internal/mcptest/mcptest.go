//go:build !js && !wasip1

// Package mcptest starts the real @modelcontextprotocol/server-everything from the
// repository's node_modules for the transport tests and checks a connected Server
// against it. It is test support only and spawns processes, so it is native-only.
package mcptest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/codemode-go/codemode/core/mcp"
	"github.com/codemode-go/codemode/internal/catalog"
)

// Script returns node's path and the server's entry script, failing the test with
// a fix when the npm dependencies are not installed.
func Script(t testing.TB) (node, script string) {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatalf("no go.mod above the test directory")
		}
		dir = parent
	}
	script = filepath.Join(dir, "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js")
	if _, err := os.Stat(script); err != nil {
		t.Fatalf("%s is missing: run ./build.sh deps", script)
	}
	node, err = exec.LookPath("node")
	if err != nil {
		t.Fatalf("node is not installed (need Node.js >= 20): %v", err)
	}
	return node, script
}

// lockedBuffer collects a child's output for failure messages.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// StartHTTP runs the server in streamableHttp mode on a free loopback port and
// returns its /mcp endpoint; the process is stopped when the test ends.
func StartHTTP(t testing.TB) string {
	t.Helper()
	node, script := Script(t)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	var logs lockedBuffer
	cmd := exec.Command(node, script, "streamableHttp")
	cmd.Env = append(os.Environ(), fmt.Sprintf("PORT=%d", port))
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if err := cmd.Start(); err != nil {
		t.Fatalf("start server-everything: %v", err)
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(5 * time.Second):
			_ = cmd.Process.Kill()
			<-exited
		}
	})
	endpoint := fmt.Sprintf("http://127.0.0.1:%d/mcp", port)
	deadline := time.Now().Add(20 * time.Second)
	for {
		select {
		case <-exited:
			t.Fatalf("server-everything exited early:\n%s", logs.String())
		default:
		}
		if strings.Contains(logs.String(), "listening on port") {
			return endpoint
		}
		if time.Now().After(deadline) {
			t.Fatalf("server-everything did not listen within 20s:\n%s", logs.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// findTool returns the named catalog tool of s.
func findTool(t testing.TB, s *mcp.Server, name string) catalog.Tool {
	t.Helper()
	for _, tl := range s.Tools() {
		if tl.Spec().Name == name {
			return tl
		}
	}
	t.Fatalf("tool %q not listed by %s", name, s.Name())
	return nil
}

// Exercise runs the shared checks against a Server connected to server-everything:
// list tools, call echo and get-sum (this server's "add"), a structured result, an
// error result, a bad input, read a resource, get a prompt.
func Exercise(t *testing.T, s *mcp.Server) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	t.Run("ListTools", func(t *testing.T) {
		tools := s.Tools()
		if len(tools) < 5 {
			t.Fatalf("got %d tools, want the everything set", len(tools))
		}
		spec := findTool(t, s, "echo").Spec()
		if spec.Source != catalog.SourceMCP || spec.Owner != s.Name() || spec.Origin != catalog.OriginMCP {
			t.Errorf("echo spec = %+v, want source mcp, owner %q, origin mcp", spec, s.Name())
		}
		var schema struct {
			Type       string                     `json:"type"`
			Properties map[string]json.RawMessage `json:"properties"`
		}
		if err := json.Unmarshal(spec.Parameters, &schema); err != nil || schema.Type != "object" || schema.Properties["message"] == nil {
			t.Errorf("echo parameters = %s (%v), want an object schema with message", spec.Parameters, err)
		}
		if sc := findTool(t, s, "get-structured-content").Spec(); len(sc.OutputSchema) == 0 {
			t.Errorf("get-structured-content has no output schema claim")
		}
		for _, d := range s.Dropped() {
			t.Logf("dropped %s %q: %s", d.Kind, d.Name, d.Reason)
		}
	})

	call := func(t *testing.T, name, input string) (catalog.Result, map[string]any) {
		t.Helper()
		res, err := findTool(t, s, name).Execute(ctx, catalog.Call{ID: "c1", Input: json.RawMessage(input)})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var details map[string]any
		if err := json.Unmarshal(res.Details, &details); err != nil {
			t.Fatalf("%s details %s: %v", name, res.Details, err)
		}
		return res, details
	}
	text := func(details map[string]any) string {
		content, _ := details["content"].([]any)
		if len(content) == 0 {
			return ""
		}
		block, _ := content[0].(map[string]any)
		s, _ := block["text"].(string)
		return s
	}

	t.Run("CallEcho", func(t *testing.T) {
		res, details := call(t, "echo", `{"message":"hi */ there"}`)
		if res.IsError || text(details) != "Echo: hi */ there" || len(res.Content) != 1 {
			t.Errorf("echo = %+v details %v", res, details)
		}
		if _, ok := details["isError"]; ok {
			t.Errorf("details has isError on success: %v", details)
		}
	})
	t.Run("CallAdd", func(t *testing.T) {
		_, details := call(t, "get-sum", `{"a":2,"b":40}`)
		if got := text(details); !strings.Contains(got, "is 42") {
			t.Errorf("get-sum text = %q", got)
		}
	})
	t.Run("StructuredContent", func(t *testing.T) {
		_, details := call(t, "get-structured-content", `{"location":"New York"}`)
		if _, ok := details["structuredContent"].(map[string]any); !ok {
			t.Errorf("no structuredContent object in %v", details)
		}
	})
	t.Run("BadInput", func(t *testing.T) {
		if _, err := findTool(t, s, "echo").Execute(ctx, catalog.Call{Input: json.RawMessage(`[1]`)}); err == nil || !strings.Contains(err.Error(), "JSON object") {
			t.Errorf("array input: err = %v, want a JSON object error", err)
		}
		res, err := findTool(t, s, "get-sum").Execute(ctx, catalog.Call{Input: json.RawMessage(`{"a":"x"}`)})
		if err == nil && !res.IsError {
			t.Errorf("invalid arguments succeeded: %+v", res)
		}
	})
	t.Run("ReadResource", func(t *testing.T) {
		raw, err := s.ReadResource(ctx, "demo://resource/dynamic/text/1")
		if err != nil {
			t.Fatal(err)
		}
		var got struct {
			Contents []struct {
				URI  string `json:"uri"`
				Text string `json:"text"`
			} `json:"contents"`
		}
		if err := json.Unmarshal(raw, &got); err != nil || len(got.Contents) != 1 || got.Contents[0].Text == "" {
			t.Errorf("resource = %s (%v)", raw, err)
		}
		if _, err := s.ReadResource(ctx, ""); err == nil {
			t.Errorf("empty uri accepted")
		}
	})
	t.Run("GetPrompt", func(t *testing.T) {
		var names []string
		for _, p := range s.Prompts() {
			names = append(names, p.Name)
		}
		if !strings.Contains(strings.Join(names, ","), "args-prompt") {
			t.Errorf("prompts = %v, want args-prompt", names)
		}
		raw, err := s.GetPrompt(ctx, "args-prompt", map[string]string{"city": "Berlin"})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(raw), "weather in Berlin") {
			t.Errorf("prompt = %s", raw)
		}
		if _, err := s.GetPrompt(ctx, "no-such-prompt", nil); err == nil {
			t.Errorf("unknown prompt accepted")
		}
	})
}

// errClosed is core/mcp's refusal after Close.
const errClosed = "mcp: server is closed"

// Closed checks that a closed Server refuses calls with core/mcp's closed error.
func Closed(t *testing.T, s *mcp.Server) {
	t.Helper()
	if err := s.Close(); err != nil {
		t.Logf("close: %v", err)
	}
	_ = s.Close() // idempotent
	tl := s.Tools()[0]
	if _, err := tl.Execute(context.Background(), catalog.Call{Input: json.RawMessage(`{}`)}); err == nil || err.Error() != errClosed {
		t.Errorf("Execute after Close: err = %v, want ErrClosed", err)
	}
	if _, err := s.ReadResource(context.Background(), "demo://x"); err == nil || err.Error() != errClosed {
		t.Errorf("ReadResource after Close: err = %v, want ErrClosed", err)
	}
}
