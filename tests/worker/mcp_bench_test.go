package worker

import (
	"fmt"
	"testing"
	"time"
)

// BenchmarkWorkerMCP: what one warm trivial exec costs in workerd CPU over
// /mcp (the stateless MCP server in the front, then the session's object),
// beside the same exec over /v1/exec in the same run (tests/bench/RESULTS.md).
func BenchmarkWorkerMCP(b *testing.B) {
	if b.N > 1 {
		b.Skip("run with -benchtime 1x")
	}
	const n = 40
	cs, _ := mcpConnect(b, tokenAlice)
	mustCall(b, cs, "exec", map[string]any{"code": "return 1"}) // the object's core starts
	var mcpWall []time.Duration
	c0 := cpuOf(b)
	for i := 0; i < n; i++ {
		start := time.Now()
		if r := mustCall(b, cs, "exec", map[string]any{"code": "return 1 + 1"}); r.Status != "completed" {
			b.Fatalf("exec: %+v", r)
		}
		mcpWall = append(mcpWall, time.Since(start))
	}
	mcpCPU := cpuOf(b).sub(c0).per(n)

	sc := scope{"agentId": "bench", "sessionId": fmt.Sprintf("mcp-ref-%d", time.Now().UnixNano())}
	exec1b(b, sc, "return 1")
	var v1Wall []time.Duration
	c0 = cpuOf(b)
	for i := 0; i < n; i++ {
		start := time.Now()
		exec1b(b, sc, "return 1 + 1")
		v1Wall = append(v1Wall, time.Since(start))
	}
	v1CPU := cpuOf(b).sub(c0).per(n)
	b.Logf("warm trivial exec over /mcp: CPU %v per exec (front + object; wrangler's proxy %v more), wall median %v; over /v1/exec in the same run: CPU %v, wall median %v; /mcp costs %.2fx",
		mcpCPU.worker, mcpCPU.proxy, median(mcpWall), v1CPU.worker, median(v1Wall), float64(mcpCPU.worker)/float64(max(v1CPU.worker, 1)))
}
