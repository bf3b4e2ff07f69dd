package demo_test

import (
	"errors"
	"testing"

	"github.com/codemode-go/codemode/internal/catalog"
	"github.com/codemode-go/codemode/internal/demo"
	"github.com/codemode-go/codemode/internal/namespace"
)

// one is a stand-in for a demo build's toolset: one tool, one registry.
func one() ([]catalog.Tool, *namespace.Registry, error) {
	return []catalog.Tool{nil}, namespace.NewRegistry(), nil
}

func TestSelect(t *testing.T) {
	yes, no := true, false
	for _, c := range []struct {
		name    string
		tools   demo.Tools
		asked   *bool
		want    int
		wantErr error
	}{
		{"demo build, left out: on", one, nil, 1, nil},
		{"demo build, true", one, &yes, 1, nil},
		{"demo build, false", one, &no, 0, nil},
		{"shipped build, left out: off, no error", nil, nil, 0, nil},
		{"shipped build, false", nil, &no, 0, nil},
		{"shipped build, true: refused", nil, &yes, 0, demo.ErrNotInThisBuild},
	} {
		tools, ns, err := c.tools.Select(c.asked)
		if !errors.Is(err, c.wantErr) || len(tools) != c.want || (ns != nil) != (c.want > 0) {
			t.Errorf("%s: %d tools, registry %v, err %v", c.name, len(tools), ns != nil, err)
		}
	}
}
