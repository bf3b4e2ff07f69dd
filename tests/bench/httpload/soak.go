package main

// The load-and-fault soak (./build.sh soak, issue 15 "Load and faults"): the
// same tool, the same server start/stop, HTTP client and exec/wait cycle as
// bench-http, plus the faults a long-running server meets. Three phases:
//
//  1. mixed load on server A (small snapshotTtlSeconds, two bearer tokens):
//     sessions run fast, slow (50-500 ms), failing and yielding cells through
//     bench-http's cycle, and the soak's own kinds: a panicking tool (caught
//     and uncaught), a tool failing in Execute (at once, or after the run
//     suspended so the failure arrives on wait), a client that cancels its HTTP request while exec runs
//     (then the same session must be served), a run left suspended past its
//     TTL (its wait must answer failed/invalid_input "unavailable or
//     expired"), and a run another principal tries to wait on (refused as
//     unknown, then completed by its owner);
//  2. capacity on server B (long TTL): 64 suspended runs held, the 65th
//     refused with "too many suspended code mode runs.", all 64 completed on
//     wait, capacity back;
//  3. flatness on server A: N trivial execs with the server's VmRSS sampled
//     at the start, middle and end, and its goroutines (from the opt-in
//     --metrics-addr endpoint) before and after, with idle client
//     connections closed so only the server's own goroutines count.
//
// With -worker (./build.sh soak-worker) the same phases run against the
// built Worker on local workerd (worker.go), scaled down (about 134 ms of
// CPU per warm exec there): RSS is workerd's, goroutines are the session
// objects' Go cores' (the Worker's debug route sums their stats()),
// the Worker has no fault tools (no panic/toolerror cells) and its 64-run
// limit is per Durable Object, so the capacity phase holds 64 runs in one
// session.
//
// Each phase prints its figures; each check prints PASS or FAIL and any
// failed check makes the run exit non-zero.

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/codemode-go/codemode/core"
)

type soakOptions struct {
	bin                   string
	sessions, cycles      int
	timeoutMs, execs, ttl int
	seed                  int64
	rssTol                float64
	maxTime               time.Duration
	// goroutineTol is how many goroutines the server may gain over the
	// flatness phase.
	goroutineTol int
	// slowMax bounds the slow tool's random sleep (50 ms to slowMax).
	slowMax int
	// worker runs against local workerd from the repository root root.
	worker bool
	root   string
}

// target is a server under the soak: codemode serve or workerd.
type target interface {
	base() string
	// rss and threads are the serving process's VmRSS (KiB) and OS threads.
	rss() int
	threads() int
	// goroutines is -1 when the target exposes no count.
	goroutines() int
	// stop ends it and returns the suspended runs it dropped (-1: not reported).
	stop() (int, error)
	kill()
}

func startTarget(o soakOptions, ttl int) (target, error) {
	if o.worker {
		return startWorkerd(o.root, o.timeoutMs, ttl)
	}
	return start(o.bin, soakConfig(o.timeoutMs, ttl), true)
}

// settledGoroutines closes the soak's idle client connections (each holds a
// server goroutine) and reads the target's goroutines once they are gone.
func settledGoroutines(t target) int {
	httpClient.CloseIdleConnections()
	time.Sleep(300 * time.Millisecond)
	return t.goroutines()
}

// coreObjects is how many session cores a Worker target counts (0 elsewhere).
func coreObjects(t target) int {
	if w, ok := t.(*workerdTarget); ok {
		s, _ := w.instances()
		return s.Objects
	}
	return 0
}

// principal is one bearer token of the soak's server config.
type principal struct{ name, token string }

var principals = [2]principal{{"alice", "soak-token-alice-7f3a9c"}, {"bob", "soak-token-bob-41d2e8"}}

// soakConfig is the soak's own server config: the example toolset plus the
// test-only fault tools, two principals, and the TTL under test.
func soakConfig(timeoutMs, ttl int) string {
	return fmt.Sprintf(`{ exampleTools: true, faultTools: true,
  auth: { tokens: [ { principal: %q, token: %q }, { principal: %q, token: %q } ] },
  tools: { codeMode: { enabled: true, timeoutMs: %d, snapshotTtlSeconds: %d } } }`,
		principals[0].name, principals[0].token, principals[1].name, principals[1].token, timeoutMs, ttl)
}

// authRunner is bench-http's httpRunner with a bearer token, so the shared
// cycle drives an authenticated server.
type authRunner struct {
	url   string
	token string
}

func (a authRunner) exec(_ core.Scope, sc, code string) (result, time.Duration, error) {
	return a.execCtx(context.Background(), sc, code)
}

func (a authRunner) wait(_ core.Scope, sc, id string) (result, time.Duration, error) {
	return postAs(context.Background(), a.url+"/v1/wait", a.token, `{"runId":"`+id+`",`+sc+`}`)
}

func (a authRunner) execCtx(ctx context.Context, sc, code string) (result, time.Duration, error) {
	cb, _ := json.Marshal(code)
	return postAs(ctx, a.url+"/v1/exec", a.token, `{"code":`+string(cb)+`,`+sc+`}`)
}

func scopeJSON(session int) string {
	return fmt.Sprintf(`"scope":{"agentId":"soak","sessionId":"s%d","sessionKey":"k%d","agentRunId":"r%d"}`, session, session, session)
}

// tally counts the outcomes of the soak's own kinds.
type tally struct {
	mu       sync.Mutex
	n        map[string]int
	problems []string
}

func (t *tally) ok(kind string) {
	t.mu.Lock()
	t.n[kind]++
	t.mu.Unlock()
}

func (t *tally) bad(format string, a ...any) {
	t.mu.Lock()
	t.problems = append(t.problems, fmt.Sprintf(format, a...))
	t.mu.Unlock()
}

// leaks reports whether a model-visible text shows host internals.
func leaks(s string) bool {
	for _, w := range []string{"goroutine", ".go:", "deliberate", "runtime/", "*catalog."} {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// faultCycle runs one cell of the soak's own kinds for session (owned by
// principals[session%2]).
func faultCycle(url string, t *tally, session, i int, kind string, ttl int) {
	tag := fmt.Sprintf("s%d-c%d", session, i)
	sc := scopeJSON(session)
	own := authRunner{url, principals[session%2].token}
	other := authRunner{url, principals[(session+1)%2].token}
	switch kind {
	case "panic":
		code := fmt.Sprintf(`try { await tools.panic_now({}) } catch (e) { return %q + ":" + e.message }`, tag)
		uncaught := i%2 == 1
		if uncaught {
			code = fmt.Sprintf(`text(%q); await tools.panic_now({}); return "unreachable"`, tag)
		}
		r, _, err := own.exec(core.Scope{}, sc, code)
		switch {
		case err != nil:
			t.bad("%s panic: %v", tag, err)
		case leaks(string(r.Value)) || leaks(r.Error):
			t.bad("%s panic leaked internals: %s %s", tag, r.Value, r.Error)
		case !uncaught && r.Status == "completed" && strings.HasPrefix(string(r.Value), `"`+tag+":") && strings.Contains(string(r.Value), "failed unexpectedly"):
			t.ok("panic caught")
		case uncaught && r.Status == "failed" && strings.Contains(r.Error, "failed unexpectedly"):
			t.ok("panic uncaught")
		default:
			t.bad("%s panic: %s %s %s %s", tag, r.Status, r.Code, r.Value, r.Error)
		}
	case "toolerror":
		// A tool that fails in Execute; half the cells wait on it long enough to
		// suspend first, so the failure arrives on wait.
		delay := 10
		if i%2 == 1 {
			delay = 300 + rand.Intn(200)
		}
		r, _, err := own.exec(core.Scope{}, sc, fmt.Sprintf(`text(%q); await tools.fail_after({ms: %d}); return "unreachable"`, tag, delay))
		for n := 0; err == nil && r.Status == "waiting" && n < 50; n++ {
			r, _, err = own.wait(core.Scope{}, sc, r.RunID)
		}
		if err != nil || r.Status != "failed" || !strings.Contains(r.Error, "failed after") || leaks(r.Error) {
			t.bad("%s toolerror: %v %s %s %s", tag, err, r.Status, r.Code, r.Error)
		} else {
			t.ok("tool error as documented")
		}
	case "disconnect":
		// Cancel the request while the slow tool runs (before timeoutMs turns it
		// into a waiting result), then prove the session is still served.
		ctx, cancel := context.WithTimeout(context.Background(), time.Duration(60+rand.Intn(120))*time.Millisecond)
		r, _, err := own.execCtx(ctx, sc, fmt.Sprintf(`await tools.sleep_ms({ms: 400}); return %q`, tag))
		cancel()
		if err == nil {
			// The answer beat the cancel (a loaded machine): still a correct answer.
			if r.Status == "waiting" {
				own.wait(core.Scope{}, sc, r.RunID)
			}
			t.ok("disconnect answered first")
		} else {
			t.ok("disconnected")
		}
		after, _, err := own.exec(core.Scope{}, sc, fmt.Sprintf(`return %q`, tag+":after"))
		if err != nil || after.Status != "completed" || string(after.Value) != `"`+tag+`:after"` {
			t.bad("%s: not served after a disconnect: %v %s %s %s", tag, err, after.Status, after.Value, after.Error)
		} else {
			t.ok("served after disconnect")
		}
	case "expire":
		r, _, err := own.exec(core.Scope{}, sc, fmt.Sprintf(`text(%q); await yield_control("expire"); return %q`, tag, tag))
		if err != nil || r.Status != "waiting" {
			t.bad("%s expire: exec did not suspend: %v %s %s", tag, err, r.Status, r.Error)
			return
		}
		time.Sleep(time.Duration(ttl)*time.Second + 1200*time.Millisecond)
		w, _, err := own.wait(core.Scope{}, sc, r.RunID)
		if err != nil || w.Status != "failed" || w.Code != "invalid_input" || !strings.Contains(w.Error, "unavailable or expired") {
			t.bad("%s: wait after TTL: %v %s %s %s", tag, err, w.Status, w.Code, w.Error)
		} else {
			t.ok("expired as documented")
		}
	case "cross":
		r, _, err := own.exec(core.Scope{}, sc, fmt.Sprintf(`await yield_control("cross"); return %q`, tag))
		if err != nil || r.Status != "waiting" {
			t.bad("%s cross: exec did not suspend: %v %s %s", tag, err, r.Status, r.Error)
			return
		}
		// The other principal, same scope and runId: must look unknown and
		// must not consume the run.
		x, _, err := other.wait(core.Scope{}, sc, r.RunID)
		if err != nil || x.Status != "failed" || !strings.Contains(x.Error, "unavailable or expired") || strings.Contains(string(x.Value), tag) {
			t.bad("%s: other principal's wait answered %v %s %s %s", tag, err, x.Status, x.Value, x.Error)
		} else {
			t.ok("other principal refused")
		}
		w, _, err := own.wait(core.Scope{}, sc, r.RunID)
		if err != nil || w.Status != "completed" || string(w.Value) != `"`+tag+`"` {
			t.bad("%s: owner's wait after the other's: %v %s %s %s", tag, err, w.Status, w.Value, w.Error)
		} else {
			t.ok("owner completed")
		}
	}
}

type checker struct{ failed bool }

func (c *checker) check(name string, pass bool, detail string) {
	mark := "PASS"
	if !pass {
		mark, c.failed = "FAIL", true
	}
	fmt.Printf("  %-4s %s %s\n", mark, name, detail)
}

func printSome(list []string) {
	for i, m := range list {
		if i == 5 {
			fmt.Printf("    ... %d more\n", len(list)-5)
			return
		}
		fmt.Println("    " + m)
	}
}

// flagSet reports whether the flag name was given on the command line.
func flagSet(name string) bool {
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

func runSoak(o soakOptions) error {
	// bench-http's defaults (50 x 20) would hold close to the 64-run limit with
	// the soak's suspending kinds; the soak's own default is 16 x 24. On
	// workerd every exec costs ~134 ms of CPU, so its defaults are a few
	// minutes' worth.
	defaults := map[string]*int{"sessions": &o.sessions, "cycles": &o.cycles, "execs": &o.execs, "timeout-ms": &o.timeoutMs, "ttl": &o.ttl}
	want := map[string]int{"sessions": 16, "cycles": 24}
	// The Worker's snapshot TTL runs on the Durable Object's clock, which
	// stands still during CPU work (it moves on I/O), so a run that suspends at
	// the end of a long exec starts its TTL at the exec's start; 2 s is too
	// short for workerd's multi-second execs under load, 6 s is not.
	workers := 8
	o.slowMax = 500
	if o.worker {
		want = map[string]int{"sessions": 6, "cycles": 10, "execs": 600, "timeout-ms": 2000, "ttl": 6}
		// timeoutMs 2000 (the Worker tests' value: a loaded workerd needs it);
		// slow tools up to 4 s so a good share still suspends.
		o.slowMax, workers = 4000, 4
	}
	if o.worker && !flagSet("max-time") {
		o.maxTime = 12 * time.Minute
	}
	for name, v := range want {
		if !flagSet(name) {
			*defaults[name] = v
		}
	}
	host := "codemode serve"
	if o.worker {
		host = "the Worker on local workerd"
	}
	began := time.Now()
	var live sync.Map // servers to kill if the watchdog fires
	watchdog := time.AfterFunc(o.maxTime, func() {
		fmt.Printf("  FAIL soak finished within %s (it did not; servers killed)\n", o.maxTime)
		live.Range(func(k, _ any) bool { k.(target).kill(); return true })
		os.Exit(1)
	})
	defer watchdog.Stop()
	c := &checker{}

	// Phase 1: mixed load with faults on server A.
	a, err := startTarget(o, o.ttl)
	if err != nil {
		return err
	}
	live.Store(a, true)
	kinds := []string{"fast", "slow", "failing", "yield", "panic", "toolerror", "disconnect", "expire", "cross"}
	if o.worker {
		kinds = []string{"fast", "slow", "failing", "yield", "disconnect", "expire", "cross"}
	}
	rng := rand.New(rand.NewSource(o.seed))
	type job struct {
		kind string
		ms   int
	}
	plan := make([][]job, o.sessions)
	for s := range plan {
		for i := 0; i < o.cycles; i++ {
			plan[s] = append(plan[s], job{kinds[rng.Intn(len(kinds))], 50 + rng.Intn(o.slowMax-49)})
		}
	}
	var warm time.Duration
	var warmProblems []string
	if o.worker {
		warm, warmProblems = warmObjects(a.base(), o.sessions)
	}
	st := &stats{}
	t := &tally{n: map[string]int{}}
	mixStart := time.Now()
	rssBefore, gorFresh := a.rss(), a.goroutines()
	var wg sync.WaitGroup
	for s := range plan {
		wg.Add(1)
		go func(s int) {
			defer wg.Done()
			rn := authRunner{a.base(), principals[s%2].token}
			for i, j := range plan[s] {
				switch j.kind {
				case "fast", "slow", "failing", "yield":
					cycle(rn, st, s, i, j.kind, j.ms)
				default:
					faultCycle(a.base(), t, s, i, j.kind, o.ttl)
				}
			}
		}(s)
	}
	wg.Wait()
	mixTime := time.Since(mixStart)
	fmt.Printf("soak: load and faults against %s on 127.0.0.1 (timeoutMs %d, snapshotTtlSeconds %d, principals alice/bob)\n", host, o.timeoutMs, o.ttl)
	fmt.Printf("  %-34s %10s  %s\n", "phase / outcome", "count", "figures")
	fmt.Printf("  %-34s %10d  %d sessions x %d cycles in %.1f s; exec p50 %s p99 %s, wait p50 %s p99 %s\n", "mixed load: cells", o.sessions*o.cycles,
		o.sessions, o.cycles, mixTime.Seconds(), ms(pct(st.exec, 0.5)), ms(pct(st.exec, 0.99)), ms(pct(st.wait, 0.5)), ms(pct(st.wait, 0.99)))
	fmt.Printf("  %-34s %10d  (%d waiting results, %d wait calls)\n", "  fast/slow/failing/yield cells", st.runs, st.waiting, st.waits)
	fmt.Printf("  %-34s %10d\n", "    completed as expected", st.completed)
	fmt.Printf("  %-34s %10d\n", "    failed as expected (tool error)", st.failedExpected)
	fmt.Printf("  %-34s %10d\n", "    timed out (no CPU in timeoutMs)", st.starved)
	for _, k := range []string{"panic caught", "panic uncaught", "tool error as documented", "disconnected", "disconnect answered first", "served after disconnect", "expired as documented", "other principal refused", "owner completed"} {
		fmt.Printf("  %-34s %10d\n", "  "+k, t.n[k])
	}
	if o.worker {
		fmt.Printf("  %-34s %10d  %.1f s before the mixed load, all at once (cold Durable Objects, outside the TTL-sensitive cells); %d did not complete\n",
			"  warm-up: one exec per object", 2*o.sessions, warm.Seconds(), len(warmProblems))
	}
	fmt.Printf("  %-34s %10s  %.1f -> %.1f MiB\n", "  server RSS over the mixed load", "", float64(rssBefore)/1024, float64(a.rss())/1024)

	// Let the runs of cancelled requests (if the server kept any) expire, so
	// the goroutine baseline holds no suspended run; then phase 3 runs on A
	// (phase 2 needs its own long-TTL server) and A stops: nothing may be
	// left suspended.
	time.Sleep(time.Duration(o.ttl)*time.Second + 1200*time.Millisecond)
	if o.worker {
		// On the Worker the count is the session objects' cores: start the
		// flatness phase's objects first, so before and after count the same.
		flatWarm(a, workers)
	}
	gorBefore, objBefore := settledGoroutines(a), coreObjects(a)
	flat := flatPhase(a, o.execs, workers)
	gorAfter, objAfter := settledGoroutines(a), coreObjects(a)
	droppedA, stopErrA := a.stop()
	live.Delete(a)

	// Phase 2: capacity on server B.
	b, err := startTarget(o, 600)
	if err != nil {
		return err
	}
	live.Store(b, true)
	if o.worker {
		// Load the one object's core first: the phase measures the limit, the
		// warm-up above measures concurrent cold starts.
		r, _, err := authRunner{b.base(), principals[0].token}.exec(core.Scope{}, scopeJSON(2000), `return 1`)
		if err != nil || r.Status != "completed" {
			warmProblems = append(warmProblems, fmt.Sprintf("warm-up of the capacity object: %v %s %s", err, r.Status, r.Error))
		}
	}
	capRes := capacityPhase(b.base(), o.worker)
	droppedB, stopErrB := b.stop()
	live.Delete(b)

	fmt.Printf("  %-34s %10d  %d concurrent clients, %.1f s = %.1f execs/s\n", "flatness: trivial execs", flat.n, workers, flat.elapsed.Seconds(), float64(flat.n)/flat.elapsed.Seconds())
	fmt.Printf("  %-34s %10s  start %.1f  middle %.1f  end %.1f MiB (end/middle %.3f); OS threads %d / %d / %d\n", "  server VmRSS", "",
		float64(flat.rss[0])/1024, float64(flat.rss[1])/1024, float64(flat.rss[2])/1024, float64(flat.rss[2])/float64(flat.rss[1]), flat.threads[0], flat.threads[1], flat.threads[2])
	if len(flat.trace) > 0 {
		var tr []string
		for _, k := range flat.trace {
			tr = append(tr, fmt.Sprintf("%.1f", float64(k)/1024))
		}
		fmt.Printf("  %-34s %10s  %s MiB\n", "  VmRSS after each tenth", "", strings.Join(tr, " "))
	}
	if o.worker {
		fmt.Printf("  %-34s %10s  before the flatness phase %d in %d cores, after it %d in %d (the live session objects' Go cores in workerd's isolate, by GET /debug/front-instances; idle objects are evicted)\n",
			"  server goroutines", "", gorBefore, objBefore, gorAfter, objAfter)
	} else {
		fmt.Printf("  %-34s %10s  fresh %d, before the flatness phase %d, after it %d (GET /metrics of --metrics-addr, idle client connections closed)\n",
			"  server goroutines", "", gorFresh, gorBefore, gorAfter)
	}
	fmt.Printf("  %-34s %10d  suspended (held), 65th: %q\n", "capacity: held runs", capRes.held, capRes.refusal)
	fmt.Printf("  %-34s %10d  completed on wait; capacity back: %v\n", "  completed after the refusal", capRes.completed, capRes.back)
	if o.worker {
		fmt.Printf("  %-34s %10s  not reported by the Worker (checked instead: every run completed or failed as documented)\n", "shutdown: dropped suspended runs", "")
	} else {
		fmt.Printf("  %-34s %10s  server A %d, server B %d\n", "shutdown: dropped suspended runs", "", droppedA, droppedB)
	}
	fmt.Printf("  total %.1f s\n", time.Since(began).Seconds())

	c.check("every bench cell answered as expected", len(st.errors) == 0 && st.completed+st.failedExpected+st.starved == st.runs, fmt.Sprintf("(%d problems)", len(st.errors)))
	c.check("at most 5% of bench cells starved into timeout", st.starved*20 <= st.runs, fmt.Sprintf("(%d)", st.starved))
	c.check("every waiting run completed on its wait", len(st.lost) == 0, fmt.Sprintf("(%d lost)", len(st.lost)))
	c.check("no answer went to the wrong session", len(st.wrongSession) == 0, fmt.Sprintf("(%d misrouted)", len(st.wrongSession)))
	if o.worker {
		c.check("disconnect, TTL and principal cells answered as documented, no internals shown", len(t.problems) == 0, fmt.Sprintf("(%d problems)", len(t.problems)))
	} else {
		c.check("faulty tools (panic, Execute error) answered as documented, no internals shown", len(t.problems) == 0, fmt.Sprintf("(%d problems)", len(t.problems)))
	}
	c.check("served after every disconnect", t.n["served after disconnect"] == t.n["disconnected"]+t.n["disconnect answered first"], fmt.Sprintf("(%d of %d)", t.n["served after disconnect"], t.n["disconnected"]+t.n["disconnect answered first"]))
	c.check("waits after the TTL failed with invalid_input \"unavailable or expired\"", len(t.problems) == 0 && t.n["expired as documented"] > 0, fmt.Sprintf("(%d)", t.n["expired as documented"]))
	c.check("no answer went to the wrong principal", t.n["other principal refused"] == t.n["owner completed"] && len(t.problems) == 0, fmt.Sprintf("(%d refused, %d completed by owner)", t.n["other principal refused"], t.n["owner completed"]))
	c.check("64 suspended runs held, the 65th refused", capRes.held == 64 && capRes.refusal == "too many suspended code mode runs.", "")
	c.check("all 64 completed on wait and capacity came back", capRes.completed == 64 && capRes.back && len(capRes.problems) == 0, fmt.Sprintf("(%d problems)", len(capRes.problems)))
	c.check("every trivial exec completed", flat.bad == 0, fmt.Sprintf("(%d bad)", flat.bad))
	c.check(fmt.Sprintf("RSS flat: end within %.0f%% of middle", o.rssTol*100), flat.rss[1] > 0 && float64(flat.rss[2]) <= float64(flat.rss[1])*(1+o.rssTol),
		fmt.Sprintf("(%.1f -> %.1f MiB)", float64(flat.rss[1])/1024, float64(flat.rss[2])/1024))
	c.check(fmt.Sprintf("goroutines flat: at most %d more after the %d execs than before", o.goroutineTol, flat.n),
		gorBefore > 0 && gorAfter > 0 && gorAfter <= gorBefore+o.goroutineTol, fmt.Sprintf("(%d -> %d)", gorBefore, gorAfter))
	if !o.worker {
		c.check("nothing left suspended at shutdown", stopErrA == nil && stopErrB == nil && droppedA == 0 && droppedB == 0, fmt.Sprintf("(A %d, B %d)", droppedA, droppedB))
	} else {
		c.check("every warm-up exec (cold Durable Objects, concurrent) completed", len(warmProblems) == 0, fmt.Sprintf("(%d did not)", len(warmProblems)))
		c.check("workerd stopped cleanly", stopErrA == nil && stopErrB == nil, "")
	}
	for _, l := range [][]string{warmProblems, st.errors, st.lost, st.wrongSession, t.problems, capRes.problems, flat.problems} {
		printSome(l)
	}
	for _, e := range []error{stopErrA, stopErrB} {
		if e != nil {
			fmt.Println("    " + e.Error())
		}
	}
	if c.failed {
		return fmt.Errorf("the soak failed a check")
	}
	return nil
}

type flatResult struct {
	n, bad       int
	elapsed      time.Duration
	rss, threads [3]int
	// trace is VmRSS (KiB) after every tenth of the execs.
	trace    []int
	problems []string
}

// flatWarm sends one trivial exec from each of flatPhase's clients' sessions.
func flatWarm(s target, workers int) {
	for w := 0; w < workers; w++ {
		authRunner{s.base(), principals[w%2].token}.exec(core.Scope{}, scopeJSON(1000+w), `return 0`)
	}
}

// flatPhase sends n trivial execs from workers clients (alternating
// principals) and samples the server's VmRSS at the start, middle and end.
func flatPhase(s target, n, workers int) flatResult {
	var fr flatResult
	fr.n = n
	fr.rss[0], fr.threads[0] = s.rss(), s.threads()
	var next, bad atomic.Int64
	var mu sync.Mutex
	half := make(chan struct{})
	var once sync.Once
	startAt := time.Now()
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			rn := authRunner{s.base(), principals[w%2].token}
			sc := scopeJSON(1000 + w)
			for {
				i := int(next.Add(1))
				if i > n {
					return
				}
				if n >= 10 && i%(n/10) == 0 {
					r := s.rss()
					mu.Lock()
					fr.trace = append(fr.trace, r)
					mu.Unlock()
				}
				if i == n/2 {
					once.Do(func() {
						mu.Lock()
						fr.rss[1], fr.threads[1] = s.rss(), s.threads()
						mu.Unlock()
						close(half)
					})
				}
				r, _, err := rn.exec(core.Scope{}, sc, fmt.Sprintf(`return %d + 1`, i))
				if err != nil || r.Status != "completed" || string(r.Value) != fmt.Sprint(i+1) {
					if bad.Add(1) <= 5 {
						mu.Lock()
						fr.problems = append(fr.problems, fmt.Sprintf("trivial exec %d: %v %s %s %s", i, err, r.Status, r.Value, r.Error))
						mu.Unlock()
					}
				}
			}
		}(w)
	}
	wg.Wait()
	fr.elapsed = time.Since(startAt)
	fr.rss[2], fr.threads[2] = s.rss(), s.threads()
	fr.bad = int(bad.Load())
	return fr
}

type capacityResult struct {
	held, completed int
	refusal         string
	back            bool
	problems        []string
}

// capacityPhase holds 64 suspended runs (both principals), checks the 65th is
// refused, completes all 64 on wait and checks one more run suspends again.
// oneObject puts them all in one session of one principal: the Worker's
// limit is per Durable Object, which is one per principal and session.
func capacityPhase(url string, oneObject bool) capacityResult {
	who := func(i int) (authRunner, string) {
		if oneObject {
			return authRunner{url, principals[0].token}, scopeJSON(2000)
		}
		return authRunner{url, principals[i%2].token}, scopeJSON(2000 + i)
	}
	var cr capacityResult
	var mu sync.Mutex
	ids := make([]string, 64)
	var wg sync.WaitGroup
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := w; i < 64; i += 8 {
				rn, sc := who(i)
				r, _, err := rn.exec(core.Scope{}, sc, fmt.Sprintf(`await yield_control("hold"); return "held-%d"`, i))
				mu.Lock()
				if err == nil && r.Status == "waiting" {
					ids[i] = r.RunID
					cr.held++
				} else {
					cr.problems = append(cr.problems, fmt.Sprintf("hold %d: %v %s %s", i, err, r.Status, r.Error))
				}
				mu.Unlock()
			}
		}(w)
	}
	wg.Wait()
	rn65, sc65 := who(64)
	r, _, err := rn65.exec(core.Scope{}, sc65, `await yield_control("one too many"); return 65`)
	if err != nil {
		cr.problems = append(cr.problems, "65th: "+err.Error())
	} else if r.Status == "failed" {
		cr.refusal = r.Error
	} else {
		cr.problems = append(cr.problems, "65th answered "+r.Status)
		if r.Status == "waiting" {
			rn65.wait(core.Scope{}, sc65, r.RunID)
		}
	}
	for i, id := range ids {
		if id == "" {
			continue
		}
		rn, sc := who(i)
		w, _, err := rn.wait(core.Scope{}, sc, id)
		if err == nil && w.Status == "completed" && string(w.Value) == fmt.Sprintf(`"held-%d"`, i) {
			cr.completed++
		} else {
			cr.problems = append(cr.problems, fmt.Sprintf("held %d on wait: %v %s %s %s", i, err, w.Status, w.Value, w.Error))
		}
	}
	rn, sc := who(65)
	r, _, err = rn.exec(core.Scope{}, sc, `await yield_control("again"); return "again"`)
	if err == nil && r.Status == "waiting" {
		w, _, err := rn.wait(core.Scope{}, sc, r.RunID)
		cr.back = err == nil && w.Status == "completed" && string(w.Value) == `"again"`
	}
	return cr
}

// warmObjects sends one trivial exec per session and principal at once, so
// the Worker's Durable Objects (one per principal and session) have their
// cores loaded before the timed cells; it returns how long that took and any
// exec that did not complete.
func warmObjects(url string, sessions int) (time.Duration, []string) {
	began := time.Now()
	var wg sync.WaitGroup
	var mu sync.Mutex
	var problems []string
	for s := 0; s < sessions; s++ {
		for _, p := range principals {
			wg.Add(1)
			go func() {
				defer wg.Done()
				r, _, err := authRunner{url, p.token}.exec(core.Scope{}, scopeJSON(s), `return 1`)
				if err != nil || r.Status != "completed" {
					mu.Lock()
					problems = append(problems, fmt.Sprintf("warm-up s%d %s: %v %s %s", s, p.name, err, r.Status, r.Error))
					mu.Unlock()
				}
			}()
		}
	}
	wg.Wait()
	return time.Since(began), problems
}
