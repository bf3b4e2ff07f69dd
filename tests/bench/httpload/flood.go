package main

import (
	"fmt"
	"net/http"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// runFlood measures admission control (./build.sh bench-flood): n concurrent
// busy cells (while (true) {}, timeoutMs 1000) against a real codemode serve,
// while /healthz is polled every 20 ms. It runs three servers in the same
// session: with no effective bound (maxRunningCells 4096, how the server
// behaved before admission control), with one running cell per core, and
// with the default bound (cores - 1). It prints how long each admitted cell took, how many were refused
// with 429 and Retry-After, and /healthz latency.
func runFlood(bin string, n int) error {
	const timeoutMs = 1000
	ok := true
	// For comparison: one running cell per core, the default's alternative.
	cores := runtime.GOMAXPROCS(0)
	configs := []struct{ name, extra string }{
		{"unbounded (maxRunningCells 4096)", "maxRunningCells: 4096,"},
		{fmt.Sprintf("maxRunningCells %d (one per core)", cores), fmt.Sprintf("maxRunningCells: %d,", cores)},
		{fmt.Sprintf("default bound (%d: cores - 1)", max(cores-1, 1)), ""},
	}
	for _, c := range configs {
		srv, err := start(bin, fmt.Sprintf(`{ %s tools: { codeMode: { enabled: true, timeoutMs: %d } } }`, c.extra, timeoutMs), false)
		if err != nil {
			return err
		}
		post(srv.url+"/v1/exec", `{"code":"return 1","scope":{"agentId":"warm","sessionId":"w"}}`)
		cells, refused, bad, health := flood(srv.url, n)
		srv.kill()
		slices.Sort(cells)
		slices.Sort(health)
		over := 0
		for _, d := range cells {
			if d > (timeoutMs+250)*time.Millisecond {
				over++
			}
		}
		fmt.Printf("flood: %d concurrent busy cells, timeoutMs %d, %s\n", n, timeoutMs, c.name)
		fmt.Printf("  admitted        %d: p50 %s  max %s  (%d over timeoutMs + 250 ms)\n", len(cells), ms(pct(cells, 0.5)), ms(pct(cells, 1)), over)
		fmt.Printf("  refused (429)   %d with Retry-After; %d other answers\n", refused, bad)
		fmt.Printf("  /healthz        p50 %s  p99 %s  max %s  (n=%d, every 20 ms during the flood)\n", ms(pct(health, 0.5)), ms(pct(health, 0.99)), ms(pct(health, 1)), len(health))
		if c.extra == "" {
			check := func(name string, pass bool) {
				mark := "PASS"
				if !pass {
					mark, ok = "FAIL", false
				}
				fmt.Printf("  %-4s %s\n", mark, name)
			}
			check("every admitted cell ended within timeoutMs + 250 ms", over == 0 && len(cells) > 0)
			check("/healthz answered within 50 ms", len(health) > 0 && pct(health, 1) <= 50*time.Millisecond)
			check("every request answered (run to its timeout or 429)", bad == 0 && len(cells)+refused == n)
		}
	}
	if !ok {
		return fmt.Errorf("the bounded flood failed its checks")
	}
	return nil
}

// flood sends n busy cells at once and polls /healthz until they are all
// answered; it returns the admitted cells' latencies, the 429 count, the
// count of any other answer and the /healthz latencies.
func flood(url string, n int) (cells []time.Duration, refused, bad int, health []time.Duration) {
	var mu sync.Mutex
	var wg sync.WaitGroup
	done := make(chan struct{})
	go func() {
		for {
			select {
			case <-done:
				return
			case <-time.After(20 * time.Millisecond):
			}
			t0 := time.Now()
			resp, err := http.Get(url + "/healthz")
			if err == nil {
				resp.Body.Close()
				mu.Lock()
				health = append(health, time.Since(t0))
				mu.Unlock()
			}
		}
	}()
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			body := `{"code":"while (true) {}","scope":{"agentId":"flood","sessionId":"s` + strconv.Itoa(i) + `"}}`
			req, _ := http.NewRequest(http.MethodPost, url+"/v1/exec", strings.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			t0 := time.Now()
			resp, err := httpClient.Do(req)
			d := time.Since(t0)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err != nil:
				bad++
			case resp.StatusCode == http.StatusTooManyRequests && resp.Header.Get("Retry-After") != "":
				refused++
			case resp.StatusCode == http.StatusOK:
				cells = append(cells, d)
			default:
				bad++
			}
			if err == nil {
				resp.Body.Close()
			}
		}()
	}
	wg.Wait()
	close(done)
	return cells, refused, bad, health
}
