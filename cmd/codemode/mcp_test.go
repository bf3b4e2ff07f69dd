package main

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// structured is a tools/call answer's CodeModeResult.
func structured(t *testing.T, res *sdk.CallToolResult) map[string]any {
	t.Helper()
	b, _ := json.Marshal(res.StructuredContent)
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("structuredContent %s", b)
	}
	return m
}

// TestMCPOverStdio: codemode mcp speaks MCP on stdin/stdout to the Go SDK's
// client over the config's tools and a real stdio MCP server
// (server-everything) behind it, and ends (stopping that child) when the
// client closes stdin.
func TestMCPOverStdio(t *testing.T) {
	node, script := everythingScript(t)
	cfg := filepath.Join(t.TempDir(), "server.json5")
	os.WriteFile(cfg, []byte(`{
  tools: { codeMode: { enabled: true, timeoutMs: 3000 } },
  mcp: { servers: { everything: { command: `+strconv.Quote(node)+`, args: [`+strconv.Quote(script)+`, "stdio"] } } },
}`), 0o644)
	before := map[int]bool{}
	for _, p := range childPIDs(t) {
		before[p] = true
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	stderr := newLineWriter()
	exit := make(chan int, 1)
	go func() { exit <- run([]string{"mcp", "--config", cfg}, inR, outW, stderr); outW.Close() }()

	ctx := context.Background()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, &sdk.IOTransport{Reader: outR, Writer: inW}, nil)
	if err != nil {
		t.Fatalf("connect: %v\n%s", err, stderr.String())
	}
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range tools.Tools {
		names = append(names, tl.Name)
	}
	if strings.Join(names, ",") != "exec,screenshot,wait" {
		t.Fatalf("tools/list: %v", names)
	}
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "exec", Arguments: map[string]any{
		"code": `const r = await MCP.everything.echo({message: "via stdio"}); const e = await tools.callValue("openclaw:core:echo", {message: "x"}); return [r.content[0].text, typeof e]`,
	}})
	if err != nil {
		t.Fatal(err)
	}
	if m := structured(t, res); m["status"] != "completed" || !strings.Contains(jsonText(m["value"]), "Echo: via stdio") {
		t.Fatalf("exec: %v", m)
	}
	var children []int
	for _, p := range childPIDs(t) {
		if !before[p] {
			children = append(children, p)
		}
	}
	cs.Close() // closes stdin
	exitsZero(t, "codemode mcp", exit, stderr)
	for _, p := range children {
		deadline := time.Now().Add(10 * time.Second)
		for alive(p) && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		if alive(p) {
			t.Errorf("MCP child %d still runs after codemode mcp ended", p)
		}
	}
}

// exitsZero waits (30 s at most) for a subcommand's exit code and wants 0.
func exitsZero(t *testing.T, what string, exit <-chan int, stderr *lineWriter) {
	t.Helper()
	select {
	case code := <-exit:
		if code != 0 {
			t.Fatalf("%s exited %d: %s", what, code, stderr.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("%s did not stop", what)
	}
}

func jsonText(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// TestServeServesMCPAtSlashMCP: codemode serve answers MCP over Streamable
// HTTP at /mcp, and shuts down promptly with a session's event stream open.
func TestServeServesMCPAtSlashMCP(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	base, exit, stderr := startServe(t, ctx, "--addr", "127.0.0.1:0", "--static", t.TempDir())
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, nil).Connect(context.Background(),
		&sdk.StreamableClientTransport{Endpoint: base + "/mcp"}, nil)
	if err != nil {
		t.Fatalf("connect: %v\n%s", err, stderr.String())
	}
	defer cs.Close()
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "exec", Arguments: map[string]any{"code": "return 40 + 2"}})
	if err != nil {
		t.Fatal(err)
	}
	if m := structured(t, res); m["status"] != "completed" || m["value"] != float64(42) {
		t.Fatalf("exec over /mcp: %v", m)
	}
	start := time.Now()
	cancel()
	exitsZero(t, "serve", exit, stderr)
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("shutdown with an open MCP session took %s (the grace period is 15s)", d)
	}
}
