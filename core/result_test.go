package core_test

import (
	"encoding/json"
	"testing"

	"github.com/codemode-go/codemode/core"
	"github.com/codemode-go/codemode/internal/catalog"
)

func TestResultJSONIsTheSpecUnion(t *testing.T) {
	tel := catalog.Telemetry{ModelVisibleTools: []string{"exec", "wait"}}
	tests := []struct {
		r    core.Result
		want string
	}{
		{core.Result{Status: core.StatusCompleted, Telemetry: tel},
			`{"status":"completed","value":null,"telemetry":{"catalogSize":0,"catalogBySource":{"openclaw":0,"mcp":0,"client":0},"searchCount":0,"describeCount":0,"callCount":0,"modelVisibleTools":["exec","wait"]}}`},
		{core.Result{Status: core.StatusWaiting, RunID: "cm_1", Reason: "yield", Error: "ignored", Telemetry: tel},
			`{"status":"waiting","runId":"cm_1","reason":"yield","telemetry":{"catalogSize":0,"catalogBySource":{"openclaw":0,"mcp":0,"client":0},"searchCount":0,"describeCount":0,"callCount":0,"modelVisibleTools":["exec","wait"]}}`},
		{core.Result{Status: core.StatusFailed, Error: "boom", Code: core.CodeTimeout, Value: json.RawMessage("1"), Telemetry: tel},
			`{"status":"failed","error":"boom","code":"timeout","telemetry":{"catalogSize":0,"catalogBySource":{"openclaw":0,"mcp":0,"client":0},"searchCount":0,"describeCount":0,"callCount":0,"modelVisibleTools":["exec","wait"]}}`},
	}
	for _, tc := range tests {
		b, err := json.Marshal(tc.r)
		if err != nil || string(b) != tc.want {
			t.Fatalf("got %s (%v)\nwant %s", b, err, tc.want)
		}
		var back core.Result
		if err := json.Unmarshal(b, &back); err != nil || back.Status != tc.r.Status {
			t.Fatalf("round trip: %+v %v", back, err)
		}
	}
}
