package toolset_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/codemode-go/codemode/internal/catalog"
	"github.com/codemode-go/codemode/internal/toolset"
)

// The fault tools are never part of the default toolset: a model sees them
// only when a test config turns faultTools on.
func TestFaultToolsStayOutOfTheDefaultToolset(t *testing.T) {
	tools, err := toolset.Tools()
	if err != nil {
		t.Fatal(err)
	}
	for _, tl := range tools {
		if n := tl.Spec().Name; n == "panic_now" || n == "fail_after" {
			t.Fatal(n + " is in toolset.Tools()")
		}
	}
	if f := toolset.FaultTools(); len(f) != 2 || f[0].Spec().Name != "panic_now" || f[1].Spec().Name != "fail_after" {
		t.Fatalf("FaultTools() = %v", f)
	}
}

// panic_now really panics (so the soak's recovery check can fail).
func TestPanicNowPanics(t *testing.T) {
	defer func() {
		p := recover()
		if p == nil || !strings.Contains(p.(string), "deliberate panic") {
			t.Fatalf("recovered %v", p)
		}
	}()
	toolset.FaultTools()[0].Execute(context.Background(), catalog.Call{})
	t.Fatal(errors.New("panic_now returned"))
}

func TestFailAfterFailsAfterItsDelay(t *testing.T) {
	_, err := toolset.FaultTools()[1].Execute(context.Background(), catalog.Call{Input: []byte(`{"ms":20}`)})
	if err == nil || err.Error() != "fail_after: failed after 20 ms, as asked" {
		t.Fatalf("err = %v", err)
	}
}
