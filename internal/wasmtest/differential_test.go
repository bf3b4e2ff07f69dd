package wasmtest_test

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/codemode-go/codemode/tests/hostile"
)

// result is the part of a RunAnswer the differential compares.
type result struct {
	OK struct {
		Result struct {
			Status string          `json:"status"`
			Code   string          `json:"code"`
			Error  string          `json:"error"`
			Value  json.RawMessage `json:"value"`
			RunID  string          `json:"runId"`
		} `json:"result"`
	} `json:"ok"`
}

// TestDifferentialBatteryAndCorpus is the wasip1 leg of the differential test
// (issue 15): the hostile battery and the ordinary-cell corpus through the
// reactor module built deterministic (wasmtest.DeterministicReactor) under wazero, the same configuration as
// tests/hostile (timeoutMs 2000, 64 MiB, the example toolset), judged by the
// same expectations the native and GOOS=js runs must meet. Cases with a
// timeoutMs of their own (30 s bounds) are left to those runs: the core is
// interpreted inside the module here, and they would take minutes.
func TestDifferentialBatteryAndCorpus(t *testing.T) {
	x := newReactorOf(t, deterministicPath, true)
	x.do("create_runtime", `{"exampleTools":true,"config":{"timeoutMs":2000,"memoryLimitBytes":67108864}}`)
	start := time.Now()
	ran := 0
	run := func(rt int, c hostile.Case) {
		t.Run(c.Name, func(t *testing.T) {
			switch {
			case c.TimeoutMs != 0:
				t.Skipf("timeoutMs %d: run natively and under GOOS=js", c.TimeoutMs)
			case c.Heavy:
				t.Skip("needs more compute than the interpreted core does in timeoutMs: run natively and under GOOS=js")
			}
			req, _ := json.Marshal(map[string]any{"runtime": rt, "code": c.Code, "language": c.Language})
			var r result
			out := x.call("exec", string(req))
			if err := json.Unmarshal([]byte(out), &r); err != nil {
				t.Fatalf("exec answered %q", out)
			}
			res := r.OK.Result
			if res.Status == "waiting" {
				x.call("abort", fmt.Sprintf(`{"runtime":%d,"runId":%q}`, rt, res.RunID))
			}
			if m := c.Mismatch(res.Status, res.Code, res.Error, res.Value); m != "" {
				t.Errorf("%s: %.400s", m, out)
			}
			ran++
		})
	}
	for _, c := range hostile.Cases {
		run(1, c)
	}
	// The corpus on a fresh runtime in the native test's order: deterministic
	// mode seeds each VM from the runtime's own sequence, so the nth cell of a
	// fresh runtime sees the same Math.random everywhere.
	x.do("create_runtime", `{"exampleTools":true,"config":{"timeoutMs":2000,"memoryLimitBytes":67108864}}`)
	for _, c := range hostile.Ordinary {
		c.Status = "completed"
		run(2, c)
	}
	if a := x.do("exec", `{"runtime":1,"code":"return 20 + 22"}`); string(a.OK.Result.Value) != "42" {
		t.Fatalf("the module after the battery: %+v", a.OK.Result)
	}
	t.Logf("%d cells through the wasip1 module in %v", ran, time.Since(start).Round(time.Millisecond))
}
