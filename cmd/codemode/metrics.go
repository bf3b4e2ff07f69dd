package main

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"runtime"
	"time"
)

// metrics is the JSON body of the opt-in runtime figures endpoint
// (codemode serve --metrics-addr): what a soak or an operator needs to see that
// a long-running server is flat (goroutines, heap) and how many runs it holds.
type metrics struct {
	// Goroutines is runtime.NumGoroutine: the figure a leak moves first.
	Goroutines int `json:"goroutines"`
	// HeapAllocBytes is the live heap (runtime.MemStats.HeapAlloc).
	HeapAllocBytes uint64 `json:"heapAllocBytes"`
	// HeapSysBytes is the heap memory obtained from the OS.
	HeapSysBytes uint64 `json:"heapSysBytes"`
	// SysBytes is all memory the Go runtime obtained from the OS.
	SysBytes uint64 `json:"sysBytes"`
	// NumGC counts completed garbage collections.
	NumGC uint32 `json:"numGC"`
	// SuspendedRuns is the number of Code Mode runs waiting for a wait call.
	SuspendedRuns int `json:"suspendedRuns"`
	// UptimeSeconds is the time since the endpoint started.
	UptimeSeconds float64 `json:"uptimeSeconds"`
}

// metricsHandler answers GET /metrics with the process's figures as JSON.
// suspended reports the runtime's suspended-run count. It is a small handler
// of its own rather than expvar: expvar registers /debug/vars on
// http.DefaultServeMux and its Publish is process-global (a second server or
// test in the same process panics on the duplicate name).
func metricsHandler(suspended func() int) http.Handler {
	began := time.Now()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/metrics" {
			http.Error(w, "not found: the metrics listener serves GET /metrics only", http.StatusNotFound)
			return
		}
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed: use GET /metrics", http.StatusMethodNotAllowed)
			return
		}
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		m := metrics{
			Goroutines: runtime.NumGoroutine(), HeapAllocBytes: ms.HeapAlloc, HeapSysBytes: ms.HeapSys,
			SysBytes: ms.Sys, NumGC: ms.NumGC, SuspendedRuns: suspended(), UptimeSeconds: time.Since(began).Seconds(),
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "no-store")
		json.NewEncoder(w).Encode(m)
	})
}

// checkMetricsAddr accepts only a loopback host:port for --metrics-addr: the
// figures are for the operator on the machine, never for API callers (the
// endpoint has no auth), so it never shares the public listener and never
// binds beyond loopback.
func checkMetricsAddr(addr string) error {
	host, port, err := net.SplitHostPort(addr)
	if err != nil || port == "" {
		return fmt.Errorf("--metrics-addr %q must be host:port, e.g. 127.0.0.1:9090", addr)
	}
	if !isLoopback(host) {
		return fmt.Errorf("refusing --metrics-addr %s: the metrics endpoint has no auth and listens on loopback only (use 127.0.0.1, [::1] or localhost)", addr)
	}
	return nil
}
