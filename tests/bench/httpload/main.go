// Command httpload is the load run of the Code Mode HTTP API (./build.sh
// bench-http): it starts a real `codemode serve` on 127.0.0.1 and drives N
// concurrent sessions through M exec/wait cycles each, mixing fast tools, slow
// tools (random 50-500 ms, so runs suspend), failing tools and yields. It
// prints throughput, p50/p99 latency of exec and wait and the server's peak
// RSS, and checks that nothing was lost: every waiting run completes on its
// wait, every answer carries its own session's tag, and the server drops zero
// suspended runs at shutdown (its one "dropped suspended runs" log line).
// Then it runs the same plan straight into an in-process core.Runtime and
// prints what HTTP costs on top (wall clock and CPU).
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math/rand"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/codemode-go/codemode/core"
	"github.com/codemode-go/codemode/internal/catalog"
	"github.com/codemode-go/codemode/internal/config"
	"github.com/codemode-go/codemode/internal/toolset"
)

func main() {
	bin := flag.String("bin", "build/codemode", "the codemode binary")
	sessions := flag.Int("sessions", 50, "concurrent sessions")
	cycles := flag.Int("cycles", 20, "exec/wait cycles per session")
	timeoutMs := flag.Int("timeout-ms", 250, "the server's tools.codeMode.timeoutMs (slow tools above it suspend)")
	seed := flag.Int64("seed", 1, "random seed for the mix")
	soak := flag.Bool("soak", false, "run the load-and-fault soak (./build.sh soak) instead of the benchmark")
	flood := flag.Int("flood", 0, "run the admission-control flood instead: this many concurrent busy cells (timeoutMs 1000), with and without the bound")
	execs := flag.Int("execs", 10000, "soak: trivial execs of the flatness phase")
	ttl := flag.Int("ttl", 2, "soak: the server's snapshotTtlSeconds")
	rssTol := flag.Float64("rss-tol", 0.10, "soak: allowed RSS growth from the middle to the end sample")
	maxTime := flag.Duration("max-time", 5*time.Minute, "soak: give up (FAIL) after this long")
	gorTol := flag.Int("goroutine-tol", 10, "soak: goroutines the server may gain over the flatness phase")
	worker := flag.Bool("worker", false, "soak: run against the built Worker on local workerd (./build.sh soak-worker)")
	root := flag.String("root", ".", "soak -worker: the repository root (build/worker, node_modules)")
	flag.Parse()
	if *flood > 0 {
		if err := runFlood(*bin, *flood); err != nil {
			fmt.Fprintln(os.Stderr, "flood:", err)
			os.Exit(1)
		}
		return
	}
	if *soak {
		if err := runSoak(soakOptions{bin: *bin, sessions: *sessions, cycles: *cycles, timeoutMs: *timeoutMs, seed: *seed,
			execs: *execs, ttl: *ttl, rssTol: *rssTol, maxTime: *maxTime, goroutineTol: *gorTol, worker: *worker, root: *root}); err != nil {
			fmt.Fprintln(os.Stderr, "soak:", err)
			os.Exit(1)
		}
		return
	}
	if err := run(*bin, *sessions, *cycles, *timeoutMs, *seed); err != nil {
		fmt.Fprintln(os.Stderr, "bench-http:", err)
		os.Exit(1)
	}
}

type server struct {
	cmd  *exec.Cmd
	url  string
	logs *bytes.Buffer
	mu   sync.Mutex
	// metricsURL is the server's --metrics-addr endpoint, when started with one.
	metricsURL string
}

// benchConfig is bench-http's server config: the example toolset, no auth.
func benchConfig(timeoutMs int) string {
	return fmt.Sprintf(`{ exampleTools: true, tools: { codeMode: { enabled: true, timeoutMs: %d } } }`, timeoutMs)
}

// start runs `codemode serve` on a free 127.0.0.1 port with the config text
// cfgText and returns once it printed its URL line. With metrics it also
// serves its figures on a second free loopback port (--metrics-addr).
func start(bin, cfgText string, metrics bool) (*server, error) {
	dir, err := os.MkdirTemp("", "httpload-")
	if err != nil {
		return nil, err
	}
	cfg := filepath.Join(dir, "server.json5")
	os.WriteFile(cfg, []byte(cfgText), 0o600)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	addr := ln.Addr().String()
	ln.Close()
	s := &server{logs: &bytes.Buffer{}, url: "http://" + addr}
	args := []string{"serve", "--addr", addr, "--config", cfg, "--static", dir}
	if metrics {
		mln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, err
		}
		maddr := mln.Addr().String()
		mln.Close()
		args = append(args, "--metrics-addr", maddr)
		s.metricsURL = "http://" + maddr + "/metrics"
	}
	s.cmd = exec.Command(bin, args...)
	out, _ := s.cmd.StdoutPipe()
	errp, _ := s.cmd.StderrPipe()
	if err := s.cmd.Start(); err != nil {
		return nil, err
	}
	go func() {
		sc := bufio.NewScanner(errp)
		for sc.Scan() {
			s.mu.Lock()
			s.logs.WriteString(sc.Text() + "\n")
			s.mu.Unlock()
		}
	}()
	ready := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		if sc.Scan() {
			ready <- sc.Text()
		}
		io.Copy(io.Discard, out)
	}()
	select {
	case l := <-ready:
		if !strings.Contains(l, addr) {
			return nil, fmt.Errorf("unexpected first line %q", l)
		}
	case <-time.After(90 * time.Second):
		s.cmd.Process.Kill()
		return nil, fmt.Errorf("codemode serve did not start")
	}
	return s, nil
}

// cpu is the server's user+system CPU time so far.
func (s *server) cpu() time.Duration {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", s.cmd.Process.Pid))
	if err != nil {
		return 0
	}
	return statCPU(b)
}

// statCPU reads utime+stime (clock ticks, 100 per second on Linux) from a
// /proc/<pid>/stat line.
func statCPU(b []byte) time.Duration {
	f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+2:]))
	if len(f) < 13 {
		return 0
	}
	u, _ := strconv.ParseInt(f[11], 10, 64)
	s, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(u+s) * 10 * time.Millisecond
}

func selfCPU() time.Duration {
	b, err := os.ReadFile("/proc/self/stat")
	if err != nil {
		return 0
	}
	return statCPU(b)
}

// peakRSS is the server's VmHWM (peak resident set) in KiB.
func (s *server) peakRSS() int { return s.status(`VmHWM:\s+(\d+) kB`) }

// rss is the server's VmRSS (resident set now) in KiB.
func (s *server) rss() int { return s.status(`VmRSS:\s+(\d+) kB`) }

// threads is the server's OS thread count.
func (s *server) threads() int { return s.status(`Threads:\s+(\d+)`) }

// goroutines is the server's goroutine count from its --metrics-addr
// endpoint; -1 without one or when it does not answer.
func (s *server) goroutines() int {
	if s.metricsURL == "" {
		return -1
	}
	resp, err := http.Get(s.metricsURL)
	if err != nil {
		return -1
	}
	defer resp.Body.Close()
	var m struct {
		Goroutines *int `json:"goroutines"`
	}
	if json.NewDecoder(resp.Body).Decode(&m) != nil || m.Goroutines == nil {
		return -1
	}
	return *m.Goroutines
}

func (s *server) base() string { return s.url }

func (s *server) kill() { s.cmd.Process.Kill() }

// status reads the number the pattern's group matches in /proc/PID/status; -1
// when it cannot.
func (s *server) status(pattern string) int { return procStatus(s.cmd.Process.Pid, pattern) }

// procStatus reads the number the pattern's group matches in
// /proc/PID/status; -1 when it cannot.
func procStatus(pid int, pattern string) int {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return -1
	}
	m := regexp.MustCompile(pattern).FindSubmatch(b)
	if m == nil {
		return -1
	}
	n, _ := strconv.Atoi(string(m[1]))
	return n
}

// stop sends SIGINT and returns the suspended-run count of the shutdown line.
func (s *server) stop() (int, error) {
	s.cmd.Process.Signal(os.Interrupt)
	done := make(chan error, 1)
	go func() { done <- s.cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		s.cmd.Process.Kill()
		return -1, fmt.Errorf("server did not stop on SIGINT")
	}
	time.Sleep(100 * time.Millisecond)
	s.mu.Lock()
	defer s.mu.Unlock()
	m := regexp.MustCompile(`msg="dropped suspended runs" count=(\d+)`).FindStringSubmatch(s.logs.String())
	if m == nil {
		return -1, fmt.Errorf("no shutdown line in the server log")
	}
	n, _ := strconv.Atoi(m[1])
	return n, nil
}

type result struct {
	Status           string          `json:"status"`
	Value            json.RawMessage `json:"value"`
	RunID            string          `json:"runId"`
	Error            string          `json:"error"`
	Code             string          `json:"code"`
	PendingToolCalls []any           `json:"pendingToolCalls"`
}

type stats struct {
	mu                        sync.Mutex
	exec, wait                []time.Duration
	runs, waiting, waits      int
	completed, failedExpected int
	// starved counts cells that ended as timeout because the loaded machine
	// gave them no CPU within timeoutMs: a correct answer, not a loss.
	starved                    int
	lost, wrongSession, errors []string
}

func (st *stats) add(kind string, d time.Duration) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if kind == "exec" {
		st.exec = append(st.exec, d)
	} else {
		st.wait = append(st.wait, d)
	}
}

func (st *stats) note(list *[]string, msg string) {
	st.mu.Lock()
	*list = append(*list, msg)
	st.mu.Unlock()
}

// atCapacity counts 429 answers (the server at its bound of running cells),
// each retried after its Retry-After.
var atCapacity atomic.Int64

var httpClient = &http.Client{Timeout: 60 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 200}}

func post(url, body string) (result, time.Duration, error) {
	return postAs(context.Background(), url, "", body)
}

// postAs posts body with the bearer token (none when empty) under ctx, so a
// caller can cancel the request mid-flight.
func postAs(ctx context.Context, url, token, body string) (result, time.Duration, error) {
	start := time.Now()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		return result{}, 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := httpClient.Do(req)
	if err != nil {
		return result{}, 0, err
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	d := time.Since(start)
	if resp.StatusCode == http.StatusTooManyRequests && resp.Header.Get("Retry-After") != "" {
		// At capacity: a client waits as told and sends it again (a refused
		// wait left its run suspended). Counted, and part of the latency.
		atCapacity.Add(1)
		secs, _ := strconv.Atoi(resp.Header.Get("Retry-After"))
		time.Sleep(min(time.Duration(secs)*time.Second, 250*time.Millisecond))
		r, d2, err := postAs(ctx, url, token, body)
		return r, d + d2, err
	}
	if resp.StatusCode != 200 {
		return result{}, d, fmt.Errorf("status %d: %.200s", resp.StatusCode, b)
	}
	var r result
	if err := json.Unmarshal(b, &r); err != nil {
		return result{}, d, err
	}
	return r, d, nil
}

// runner sends exec and wait: over HTTP to the server, or straight into an
// in-process core.Runtime (the reference the HTTP cost is measured against).
type runner interface {
	exec(scope core.Scope, scopeJSON, code string) (result, time.Duration, error)
	wait(scope core.Scope, scopeJSON, runID string) (result, time.Duration, error)
}

type httpRunner struct{ url string }

func (h httpRunner) exec(_ core.Scope, sc, code string) (result, time.Duration, error) {
	cb, _ := json.Marshal(code)
	return post(h.url+"/v1/exec", `{"code":`+string(cb)+`,`+sc+`}`)
}

func (h httpRunner) wait(_ core.Scope, sc, id string) (result, time.Duration, error) {
	return post(h.url+"/v1/wait", `{"runId":"`+id+`",`+sc+`}`)
}

type localRunner struct{ rt *core.Runtime }

func decode(res core.Result, start time.Time) (result, time.Duration, error) {
	b, err := json.Marshal(res)
	d := time.Since(start)
	var r result
	if err == nil {
		err = json.Unmarshal(b, &r)
	}
	return r, d, err
}

func (l localRunner) exec(scope core.Scope, _, code string) (result, time.Duration, error) {
	start := time.Now()
	return decode(retried(func() core.Result {
		return l.rt.Exec(context.Background(), core.CallInfo{Scope: scope, CallID: "exec"}, core.ExecInput{Code: code})
	}), start)
}

// retried calls f again after a refusal at capacity, as the HTTP client does
// after a 429.
func retried(f func() core.Result) core.Result {
	for {
		res := f()
		if res.RetryAfter == 0 {
			return res
		}
		atCapacityLocal.Add(1)
		time.Sleep(min(res.RetryAfter, 250*time.Millisecond))
	}
}

// atCapacityLocal counts the in-process runtime's refusals at capacity.
var atCapacityLocal atomic.Int64

func (l localRunner) wait(scope core.Scope, _, id string) (result, time.Duration, error) {
	start := time.Now()
	return decode(retried(func() core.Result {
		return l.rt.Wait(context.Background(), core.CallInfo{Scope: scope, CallID: "wait"}, core.WaitInput{RunID: id})
	}), start)
}

// cycle runs one cell of kind and follows it with waits until it ends.
func cycle(rn runner, st *stats, session, i int, kind string, slowMs int) {
	tag := fmt.Sprintf("s%d-c%d", session, i)
	var code, want string
	expectFail := false
	switch kind {
	case "fast":
		code = fmt.Sprintf(`return (await tools.echo({message: %q})).message`, tag)
		want = strconv.Quote(tag)
	case "slow":
		code = fmt.Sprintf(`const s = await tools.sleep_ms({ms: %d}); return %q + ":" + s.slept`, slowMs, tag)
		want = strconv.Quote(fmt.Sprintf("%s:%d", tag, slowMs))
	case "failing":
		if i%2 == 0 {
			code = fmt.Sprintf(`try { await tools.echo({}) } catch (e) { return %q + ":caught" }`, tag)
			want = strconv.Quote(tag + ":caught")
		} else {
			code = fmt.Sprintf(`text(%q); await tools.echo({}); return "unreachable"`, tag)
			expectFail = true
		}
	case "yield":
		code = fmt.Sprintf(`text(%q); await yield_control("check"); return %q`, tag, tag)
		want = strconv.Quote(tag)
	}
	sc := fmt.Sprintf(`"scope":{"agentId":"bench","sessionId":"s%d","sessionKey":"k%d","agentRunId":"r%d"}`, session, session, session)
	scope := core.Scope{AgentID: "bench", SessionID: fmt.Sprintf("s%d", session), SessionKey: fmt.Sprintf("k%d", session), AgentRunID: fmt.Sprintf("r%d", session)}
	r, d, err := rn.exec(scope, sc, code)
	st.add("exec", d)
	st.mu.Lock()
	st.runs++
	st.mu.Unlock()
	if err != nil {
		st.note(&st.errors, tag+" exec: "+err.Error())
		return
	}
	for n := 0; r.Status == "waiting"; n++ {
		st.mu.Lock()
		st.waiting++
		st.mu.Unlock()
		if n > 50 {
			st.note(&st.lost, tag+": still waiting after 50 waits")
			return
		}
		id := r.RunID
		r, d, err = rn.wait(scope, sc, id)
		st.add("wait", d)
		st.mu.Lock()
		st.waits++
		st.mu.Unlock()
		if err != nil {
			st.note(&st.errors, tag+" wait: "+err.Error())
			return
		}
		if r.Status == "failed" && r.Code == "invalid_input" {
			st.note(&st.lost, tag+": waiting run lost on wait: "+r.Error)
			return
		}
	}
	switch {
	// The runtime checks tool inputs against parameters before echo runs, so
	// the failure names echo's missing field; older builds had echo refuse it.
	case expectFail && r.Status == "failed" && strings.Contains(r.Error, "echo") &&
		(strings.Contains(r.Error, "missing property 'message'") || strings.Contains(r.Error, "echo needs")):
		st.mu.Lock()
		st.failedExpected++
		st.mu.Unlock()
	case !expectFail && r.Status == "completed" && string(r.Value) == want:
		st.mu.Lock()
		st.completed++
		st.mu.Unlock()
	case r.Status == "failed" && r.Code == "timeout":
		st.mu.Lock()
		st.starved++
		st.mu.Unlock()
	case r.Status == "completed" && strings.Contains(string(r.Value), "-c"):
		st.note(&st.wrongSession, fmt.Sprintf("%s got %s", tag, r.Value))
	default:
		st.note(&st.errors, fmt.Sprintf("%s (%s): %s %s %s", tag, kind, r.Status, r.Value, r.Error))
	}
}

func pct(ds []time.Duration, p float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	i := int(float64(len(s)-1) * p)
	return s[i]
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000) }

func run(bin string, sessions, cycles, timeoutMs int, seed int64) error {
	srv, err := start(bin, benchConfig(timeoutMs), false)
	if err != nil {
		return err
	}
	kinds := []string{"fast", "slow", "failing", "yield"}
	rng := rand.New(rand.NewSource(seed))
	type job struct {
		kind string
		ms   int
	}
	plan := make([][]job, sessions)
	for s := range plan {
		for i := 0; i < cycles; i++ {
			plan[s] = append(plan[s], job{kinds[rng.Intn(len(kinds))], 50 + rng.Intn(451)})
		}
	}
	drive := func(rn runner) (*stats, time.Duration) {
		st := &stats{}
		startAt := time.Now()
		var wg sync.WaitGroup
		for s := range plan {
			wg.Add(1)
			go func(s int) {
				defer wg.Done()
				for i, j := range plan[s] {
					cycle(rn, st, s, i, j.kind, j.ms)
				}
			}(s)
		}
		wg.Wait()
		return st, time.Since(startAt)
	}
	cpu0 := srv.cpu()
	st, elapsed := drive(httpRunner{srv.url})
	httpCPU := srv.cpu() - cpu0
	rss := srv.peakRSS()
	dropped, stopErr := srv.stop()

	// The same plan straight into an in-process runtime with the same config.
	cfg := config.Default()
	cfg.Enabled, cfg.TimeoutMs = true, timeoutMs
	tools, err := toolset.Tools()
	if err != nil {
		return err
	}
	rt, err := core.New(context.Background(), core.Options{Config: cfg,
		Tools: func(context.Context, core.Scope) ([]catalog.Tool, error) { return tools, nil }})
	if err != nil {
		return err
	}
	defer rt.Close(context.Background())
	localRunner{rt}.exec(core.Scope{}, "", "return 1") // warm the pool like the server's first requests did
	lcpu0 := selfCPU()
	lst, lelapsed := drive(localRunner{rt})
	localCPU := selfCPU() - lcpu0

	fmt.Printf("bench-http: %d sessions x %d cycles against codemode serve (timeoutMs %d), mix fast/slow 50-500 ms/failing/yield\n", sessions, cycles, timeoutMs)
	fmt.Printf("  runs            %d in %.2f s = %.1f runs/s (%d waiting results, %d wait calls)\n", st.runs, elapsed.Seconds(), float64(st.runs)/elapsed.Seconds(), st.waiting, st.waits)
	fmt.Printf("  exec latency    p50 %s  p99 %s  (n=%d)\n", ms(pct(st.exec, 0.5)), ms(pct(st.exec, 0.99)), len(st.exec))
	fmt.Printf("  wait latency    p50 %s  p99 %s  (n=%d)\n", ms(pct(st.wait, 0.5)), ms(pct(st.wait, 0.99)), len(st.wait))
	fmt.Printf("  server peak RSS %.1f MiB, server CPU %.2f s\n", float64(rss)/1024, httpCPU.Seconds())
	fmt.Printf("  in-process      %d runs in %.2f s = %.1f runs/s, exec p50 %s p99 %s, CPU %.2f s (%d timed out, %d problems, %d left suspended)\n", lst.runs, lelapsed.Seconds(),
		float64(lst.runs)/lelapsed.Seconds(), ms(pct(lst.exec, 0.5)), ms(pct(lst.exec, 0.99)), localCPU.Seconds(), lst.starved, len(lst.errors)+len(lst.lost)+len(lst.wrongSession), rt.Suspended())
	for _, l := range [][]string{lst.errors, lst.lost, lst.wrongSession} {
		for i, m := range l {
			if i < 3 {
				fmt.Println("    in-process: " + m)
			}
		}
	}
	fmt.Printf("  in-process at capacity %d refusals, retried\n", atCapacityLocal.Load())
	fmt.Printf("  HTTP vs in-process: wall %.2fx, CPU %.2fx\n", elapsed.Seconds()/lelapsed.Seconds(), httpCPU.Seconds()/localCPU.Seconds())
	fmt.Printf("  outcomes        %d completed as expected, %d failed as expected, %d timed out (no CPU within timeoutMs)\n", st.completed, st.failedExpected, st.starved)
	fmt.Printf("  at capacity     %d requests answered 429 and retried after Retry-After\n", atCapacity.Load())
	ok := true
	check := func(name string, pass bool, detail string) {
		mark := "PASS"
		if !pass {
			mark, ok = "FAIL", false
		}
		fmt.Printf("  %-4s %s %s\n", mark, name, detail)
	}
	check("every run answered as expected", len(st.errors) == 0 && st.completed+st.failedExpected+st.starved == st.runs, fmt.Sprintf("(%d problems)", len(st.errors)))
	check("at most 5% of cells starved into timeout", st.starved*20 <= st.runs, fmt.Sprintf("(%d)", st.starved))
	check("every waiting run completed on its wait", len(st.lost) == 0, fmt.Sprintf("(%d lost)", len(st.lost)))
	check("no answer went to the wrong session", len(st.wrongSession) == 0, fmt.Sprintf("(%d misrouted)", len(st.wrongSession)))
	check("suspended-run count back to 0", stopErr == nil && dropped == 0, fmt.Sprintf("(shutdown dropped %d)", dropped))
	for _, l := range [][]string{st.errors, st.lost, st.wrongSession} {
		for i, m := range l {
			if i == 5 {
				fmt.Printf("    ... %d more\n", len(l)-5)
				break
			}
			fmt.Println("    " + m)
		}
	}
	if stopErr != nil {
		fmt.Println("    " + stopErr.Error())
	}
	if !ok {
		return fmt.Errorf("load run failed its checks")
	}
	return nil
}
