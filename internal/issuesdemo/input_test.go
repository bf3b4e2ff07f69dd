package issuesdemo

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/codemode-go/codemode/internal/catalog"
)

// Bad input reaching the tools directly (not through the catalog's parameters
// check) is answered naming the field, never with a Go type name.
func TestBadInputNamesTheFieldNotAGoType(t *testing.T) {
	s, err := NewStore(Issue{Number: 1, Title: "t", State: "open", Labels: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	tools := map[string]catalog.Tool{}
	for _, tl := range s.Tools() {
		tools[tl.Spec().Name] = tl
	}
	for _, tc := range []struct{ tool, in, want string }{
		{ListTool, `{"state":5}`, `field "state"`},
		{ListTool, `{"nope":1}`, `unknown field "nope"`},
		{ListTool, `[1]`, `must be an object`},
		{UpdateTool, `{"number":"one","patch":{}}`, `field "number"`},
		{UpdateTool, `{"number":1,"patch":{"labels":"x"}}`, `field "patch.labels"`},
	} {
		_, err := tools[tc.tool].Execute(context.Background(), catalog.Call{Input: json.RawMessage(tc.in)})
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "Go value") || strings.Contains(err.Error(), "struct") {
			t.Errorf("%s %s: %v, want %q", tc.tool, tc.in, err, tc.want)
		}
	}
}
