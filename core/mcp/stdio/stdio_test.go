//go:build !js && !wasip1

package stdio_test

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/codemode-go/codemode/core/internal/mcptest"
	"github.com/codemode-go/codemode/core/mcp/stdio"
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
	s, err := stdio.Connect(ctx, "everything", stdio.Command{Path: node, Args: []string{script, "stdio"}})
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
		cmd          stdio.Command
		want         string
	}{
		{"bad server name", "a:b", stdio.Command{Path: "node"}, "server name"},
		{"empty path", "x", stdio.Command{}, "empty command path"},
		{"missing binary", "x", stdio.Command{Path: "/nonexistent/mcp-server"}, "connect"},
		{"not an MCP server", "x", stdio.Command{Path: "true"}, "connect"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := stdio.Connect(ctx, tc.server, tc.cmd)
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
