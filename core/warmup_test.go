package core_test

import (
	"context"
	"testing"

	"github.com/codemode-go/codemode/core"
	"github.com/codemode-go/codemode/internal/catalog"
	"github.com/codemode-go/codemode/internal/config"
	"github.com/codemode-go/codemode/internal/hostopts"
)

// The warm-up cell runs the exec path to completion, and neither the hooks
// nor the transcript see it; the next real exec is recorded as the first.
func TestWarmUpIsUnseen(t *testing.T) {
	hooked := 0
	cfg := config.Default()
	cfg.Enabled = true
	tr := &core.Transcript{}
	rt, err := core.New(context.Background(), core.Options{Config: cfg, Transcript: tr, Hooks: catalog.Hooks{Before: []catalog.BeforeToolCall{
		func(context.Context, catalog.HookEvent) (catalog.BeforeDecision, error) {
			hooked++
			return catalog.BeforeDecision{}, nil
		}}}})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2; i++ {
		res, err := hostopts.WarmUp(context.Background(), rt, testScope)
		if err != nil {
			t.Fatalf("warm-up %d: %v", i, err)
		}
		if r := res.(core.Result); r.Status != core.StatusCompleted {
			t.Fatalf("warm-up %d: %+v", i, r)
		}
	}
	if hooked != 0 || len(tr.Entries()) != 0 {
		t.Fatalf("the warm-up was seen: %d hook calls, transcript %+v", hooked, tr.Entries())
	}
	if value(t, exec(t, rt, "return 2")) != 2.0 || hooked != 1 || len(tr.Entries()) != 1 {
		t.Fatalf("a real exec after the warm-up: %d hook calls, transcript %+v", hooked, tr.Entries())
	}
	rt.Close(context.Background())
	if _, err := hostopts.WarmUp(context.Background(), rt, testScope); err == nil || err.Error() != "code mode runtime is closed." {
		t.Fatalf("warm-up of a closed runtime: %v", err)
	}
}
