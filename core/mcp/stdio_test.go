//go:build !js && !wasip1

package mcp_test

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/codemode-go/codemode/core/mcp"
	"github.com/codemode-go/codemode/internal/catalog"
	"github.com/codemode-go/codemode/internal/mcptest"
)

// children lists the test process's direct child pids (Linux /proc), to prove that
// Close stops the spawned server.
func children(t *testing.T) map[string]bool {
	t.Helper()
	tasks, err := os.ReadDir("/proc/self/task")
	if err != nil {
		t.Skipf("no /proc: %v", err)
	}
	out := map[string]bool{}
	for _, task := range tasks {
		b, _ := os.ReadFile("/proc/self/task/" + task.Name() + "/children")
		for _, pid := range strings.Fields(string(b)) {
			out[pid] = true
		}
	}
	return out
}

func TestStdioEverything(t *testing.T) {
	node, script := mcptest.Script(t)
	before := children(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s, err := mcp.ConnectStdio(ctx, "everything", mcp.StdioCommand{Path: node, Args: []string{script, "stdio"}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var spawned []string
	for pid := range children(t) {
		if !before[pid] {
			spawned = append(spawned, pid)
		}
	}
	if len(spawned) == 0 {
		t.Fatalf("no child process after Connect")
	}
	mcptest.Exercise(t, s)
	mcptest.Closed(t, s)
	after := children(t)
	for _, pid := range spawned {
		if after[pid] {
			t.Errorf("server process %s still running after Close", pid)
		}
	}
}

func TestStdioConnectErrors(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for _, tc := range []struct {
		name, server string
		cmd          mcp.StdioCommand
		want         string
	}{
		{"bad server name", "a:b", mcp.StdioCommand{Path: "node"}, "server name"},
		{"empty path", "x", mcp.StdioCommand{}, "empty command path"},
		{"missing binary", "x", mcp.StdioCommand{Path: "/nonexistent/mcp-server"}, "connect"},
		{"not an MCP server", "x", mcp.StdioCommand{Path: "true"}, "connect"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := mcp.ConnectStdio(ctx, tc.server, tc.cmd)
			if err == nil {
				s.Close()
				t.Fatalf("Connect succeeded")
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want it to mention %q", err, tc.want)
			}
		})
	}
}

// A stdio server gets the allowlisted host variables, PassEnv and Env, never the
// rest of the host's environment: server-everything's get-env prints what the
// process really got.
func TestStdioEnvironmentIsAnAllowlist(t *testing.T) {
	t.Setenv("CODEMODE_TEST_HOST_SECRET", "hunter2")
	t.Setenv("CODEMODE_TEST_PASSED", "passed-value")
	t.Setenv("CODEMODE_TEST_FUNC", "() { echo pwned; }")
	node, script := mcptest.Script(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s, err := mcp.ConnectStdio(ctx, "everything", mcp.StdioCommand{Path: node, Args: []string{script, "stdio"},
		PassEnv: []string{"CODEMODE_TEST_PASSED", "CODEMODE_TEST_FUNC", "CODEMODE_TEST_UNSET"},
		Env:     []string{"CODEMODE_TEST_SET=set-value", "HOME=/nowhere"}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var getEnv catalog.Tool
	for _, tl := range s.Tools() {
		if tl.Spec().Name == "get-env" {
			getEnv = tl
		}
	}
	if getEnv == nil {
		t.Fatal("server-everything has no get-env tool")
	}
	res, err := getEnv.Execute(ctx, catalog.Call{ID: "c1", Input: json.RawMessage(`{}`)})
	if err != nil || len(res.Content) != 1 {
		t.Fatalf("get-env = %+v, %v", res, err)
	}
	var block struct{ Text string }
	if err := json.Unmarshal(res.Content[0], &block); err != nil {
		t.Fatal(err)
	}
	var env map[string]string
	if err := json.Unmarshal([]byte(block.Text), &env); err != nil {
		t.Fatalf("get-env text %q: %v", block.Text, err)
	}
	want := map[string]string{"PATH": os.Getenv("PATH"), "CODEMODE_TEST_PASSED": "passed-value",
		"CODEMODE_TEST_SET": "set-value", "HOME": "/nowhere"}
	for k, v := range want {
		if env[k] != v {
			t.Errorf("server env %s = %q, want %q", k, env[k], v)
		}
	}
	allowed := map[string]bool{"CODEMODE_TEST_PASSED": true, "CODEMODE_TEST_SET": true}
	for _, k := range mcp.StdioAllowedEnv() {
		allowed[k] = true
	}
	for k := range env {
		// Node adds a few of its own (e.g. NODE_CHANNEL_FD is not set over stdio); any
		// host variable outside the allowlist is a leak.
		if _, onHost := os.LookupEnv(k); onHost && !allowed[k] {
			t.Errorf("host variable %s reached the server", k)
		}
	}
	for _, k := range []string{"CODEMODE_TEST_HOST_SECRET", "CODEMODE_TEST_FUNC", "CODEMODE_TEST_UNSET"} {
		if _, ok := env[k]; ok {
			t.Errorf("%s reached the server", k)
		}
	}
}

func TestStdioRefusesMalformedEnv(t *testing.T) {
	_, err := mcp.ConnectStdio(context.Background(), "x", mcp.StdioCommand{Path: "true", Env: []string{"OK=1", "TOKEN-secret-value"}})
	if err == nil || !strings.Contains(err.Error(), "Env[1] is not KEY=VALUE") || strings.Contains(err.Error(), "secret-value") {
		t.Fatalf("err = %v", err)
	}
}
