//go:build !js && !wasip1

package mcp_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/codemode-go/codemode/core/mcp"
	"github.com/codemode-go/codemode/internal/mcptest"
)

func TestStreamableHTTPEverything(t *testing.T) {
	endpoint := mcptest.StartHTTP(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s, err := mcp.ConnectHTTP(ctx, "everything", endpoint, &http.Client{Timeout: 30 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	mcptest.Exercise(t, s)
	mcptest.Closed(t, s)
}

func TestHTTPConnectErrors(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for _, tc := range []struct{ name, server, endpoint, want string }{
		{"bad server name", "", "http://127.0.0.1:1/mcp", "server name"},
		{"not a URL", "x", "::", "not an http(s) URL"},
		{"wrong scheme", "x", "file:///etc/passwd", "not an http(s) URL"},
		{"nothing listening", "x", "http://127.0.0.1:1/mcp", "connect"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := mcp.ConnectHTTP(ctx, tc.server, tc.endpoint, nil)
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
