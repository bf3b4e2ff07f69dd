package mcp

import (
	"context"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestToolsFollowListChanged: after the server's tools change (the official
// SDK's server announces notifications/tools/list_changed), Tools lists the
// new set, bounds applied, and every watcher hears of it until it stops.
func TestToolsFollowListChanged(t *testing.T) {
	up := sdk.NewServer(&sdk.Implementation{Name: "up", Version: "1"}, nil)
	noop := func(context.Context, *sdk.CallToolRequest, struct{}) (*sdk.CallToolResult, any, error) {
		return &sdk.CallToolResult{}, nil, nil
	}
	sdk.AddTool(up, &sdk.Tool{Name: "a"}, noop)
	ct, st := sdk.NewInMemoryTransports()
	if _, err := up.Connect(context.Background(), st, nil); err != nil {
		t.Fatal(err)
	}
	s, err := Connect(context.Background(), "up", ct)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	heard := make(chan struct{}, 8)
	stop := s.OnToolsChanged(func() { heard <- struct{}{} })
	names := func() (out []string) {
		for _, tl := range s.Tools() {
			out = append(out, tl.Spec().Name)
		}
		return out
	}
	if got := names(); len(got) != 1 || got[0] != "a" {
		t.Fatalf("tools %v", got)
	}
	sdk.AddTool(up, &sdk.Tool{Name: "b"}, noop)
	sdk.AddTool(up, &sdk.Tool{Name: "bad name"}, noop) // dropped by the bounds, as at Connect
	deadline := time.After(10 * time.Second)
	for len(names()) != 2 {
		select {
		case <-heard:
		case <-deadline:
			t.Fatalf("tools after the change: %v", names())
		}
	}
	if got := names(); got[0] != "a" || got[1] != "b" {
		t.Fatalf("tools %v", got)
	}
	stop()
	for len(heard) > 0 {
		<-heard
	}
	up.RemoveTools("a")
	for deadline := time.Now().Add(10 * time.Second); len(names()) != 1 && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	if got := names(); len(got) != 1 || got[0] != "b" {
		t.Fatalf("tools after the removal: %v", got)
	}
	if len(heard) != 0 {
		t.Fatal("a stopped watcher was called")
	}
}
