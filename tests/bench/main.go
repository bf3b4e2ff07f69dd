// Command bench measures our QuickJS-WASI driver (wazero compiler and wazero
// interpreter) against the reference: quickjs-wasi's own JavaScript host on
// Node.js, from the pinned package in node_modules, in one run, on the same
// JavaScript sources (workloads.json). Run it with ./build.sh bench [-quick]
// [-out FILE]. It always exits 0 when it could measure: it is a report, and
// the targets it checks are printed as PASS/FAIL with a summary line.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strings"
	"time"
)

// stat is the result of one workload in one mode (times in milliseconds).
type stat struct {
	Median  float64   `json:"median_ms"`
	Min     float64   `json:"min_ms"`
	N       int       `json:"n"`
	Samples []float64 `json:"samples_ms"`
}

// step is how often a workload runs: warm-up runs, then measured runs.
type step struct{ Warm, N int }

func (s step) MarshalJSON() ([]byte, error) { return json.Marshal([2]int{s.Warm, s.N}) }

// plans: the compiler and the reference run the same plan; the interpreter
// skips loop 1e6 and fib(25) (about 9 s and 2 s a run) and runs the 1e5 and
// fib(20) variants, which the other two modes run as well so that every mode
// has a same-size comparison.
func plans(quick bool) (shared, interp map[string]step) {
	if quick {
		shared = map[string]step{
			"loop": {1, 3}, "loopSmall": {1, 3}, "fib": {1, 3}, "fibSmall": {1, 3},
			"hostCalls": {1, 5}, "freshVM": {5, 30}, "snapshot": {5, 30}, "restore": {5, 30},
		}
		interp = map[string]step{
			"loopSmall": {0, 1}, "fibSmall": {0, 1}, "hostCalls": {0, 1},
			"freshVM": {2, 10}, "snapshot": {2, 10}, "restore": {2, 10},
		}
		return
	}
	shared = map[string]step{
		"loop": {2, 9}, "loopSmall": {3, 15}, "fib": {3, 15}, "fibSmall": {3, 21},
		"hostCalls": {3, 15}, "freshVM": {20, 200}, "snapshot": {20, 200}, "restore": {20, 200},
	}
	interp = map[string]step{
		"loopSmall": {1, 5}, "fibSmall": {1, 5}, "hostCalls": {1, 5},
		"freshVM": {5, 50}, "snapshot": {5, 50}, "restore": {5, 50},
	}
	return
}

// measure runs f warm+n times; f returns the duration of its timed part.
func measure(s step, f func() (time.Duration, error)) (stat, error) {
	for range s.Warm {
		if _, err := f(); err != nil {
			return stat{}, err
		}
	}
	ds := make([]float64, 0, s.N)
	for range s.N {
		d, err := f()
		if err != nil {
			return stat{}, err
		}
		ds = append(ds, float64(d.Nanoseconds())/1e6)
	}
	return summarize(ds), nil
}

func summarize(ms []float64) stat {
	if len(ms) == 0 {
		return stat{}
	}
	s := slices.Clone(ms)
	slices.Sort(s)
	med := s[len(s)/2]
	if len(s)%2 == 0 {
		med = (s[len(s)/2-1] + s[len(s)/2]) / 2
	}
	return stat{Median: med, Min: s[0], N: len(s), Samples: ms}
}

// merge pools the samples of several rounds of the same mode.
func merge(rounds []*modeResult) *modeResult {
	if len(rounds) == 0 || rounds[0] == nil {
		return nil
	}
	out := *rounds[0]
	out.Stats = map[string]stat{}
	pool := func(get func(*modeResult) stat) stat {
		var all []float64
		for _, r := range rounds {
			all = append(all, get(r).Samples...)
		}
		return summarize(all)
	}
	for k := range rounds[0].Stats {
		out.Stats[k] = pool(func(r *modeResult) stat { return r.Stats[k] })
	}
	out.ColdFreshVM = pool(func(r *modeResult) stat { return r.ColdFreshVM })
	return &out
}

// modeResult is everything measured in one mode.
type modeResult struct {
	Stats       map[string]stat
	SetupMs     float64
	SnapBytes   int // ours: snap.Bytes(); reference: serialized snapshot
	SnapGzip    int // reference only
	SnapMemory  int // linear memory the snapshot restores
	ColdFreshVM stat
	Info        string
}

// runOurs measures one engine mode of our driver.
func runOurs(ctx context.Context, interpreter bool, plan map[string]step, w map[string]workload, logf func(string, ...any)) (*modeResult, error) {
	h, err := newHarness(ctx, interpreter, 0, w)
	if err != nil {
		return nil, err
	}
	defer h.rt.Close(ctx)
	res := &modeResult{Stats: map[string]stat{}, SetupMs: ms(h.setup)}
	logf("ours/%s: runtime ready in %.1f ms (template %d bytes)", h.name, res.SetupMs, h.rt.TemplateBytes())
	for _, name := range []string{"loop", "loopSmall", "fib", "fibSmall", "hostCalls"} {
		s, ok := plan[name]
		if !ok {
			continue
		}
		st, err := measure(s, func() (time.Duration, error) { return h.evalOnce(ctx, name) })
		if err != nil {
			return nil, err
		}
		res.Stats[name] = st
		logf("ours/%s: %-10s median %s ms (n=%d)", h.name, name, fmtMs(st.Median), st.N)
	}
	if st, err := measure(plan["freshVM"], func() (time.Duration, error) { return h.freshVM(ctx) }); err != nil {
		return nil, err
	} else {
		res.Stats["freshVM"] = st
		logf("ours/%s: freshVM    median %s ms", h.name, fmtMs(st.Median))
	}
	// The same, without instance reuse: every VM is a new wazero instance
	// loaded with the template image.
	cold, err := newHarness(ctx, interpreter, -1, w)
	if err != nil {
		return nil, err
	}
	if st, err := measure(plan["freshVM"], func() (time.Duration, error) { return cold.freshVM(ctx) }); err != nil {
		return nil, err
	} else {
		res.ColdFreshVM = st
		logf("ours/%s: freshVM (new instance) median %s ms", h.name, fmtMs(st.Median))
	}
	cold.rt.Close(ctx)

	sus, err := h.suspend(ctx)
	if err != nil {
		return nil, err
	}
	defer sus.vm.Close()
	var snap = func() (time.Duration, error) { d, _, err := sus.snapshotOnce(); return d, err }
	if res.Stats["snapshot"], err = measure(plan["snapshot"], snap); err != nil {
		return nil, err
	}
	_, s, err := sus.snapshotOnce()
	if err != nil {
		return nil, err
	}
	res.SnapBytes, res.SnapMemory = s.Bytes(), s.MemoryBytes()
	if res.Stats["restore"], err = measure(plan["restore"], func() (time.Duration, error) { return h.restoreOnce(ctx, s) }); err != nil {
		return nil, err
	}
	if err := h.verifyRestore(ctx, s, sus); err != nil {
		return nil, fmt.Errorf("ours/%s: restore check: %w", h.name, err)
	}
	logf("ours/%s: snapshot %s ms, restore %s ms, %d bytes (restore verified)", h.name,
		fmtMs(res.Stats["snapshot"].Median), fmtMs(res.Stats["restore"].Median), res.SnapBytes)
	return res, nil
}

// refOutput is what reference.mjs prints.
type refOutput struct {
	Node       string          `json:"node"`
	Package    string          `json:"package"`
	SHA256     string          `json:"sha256"`
	CompileMs  float64         `json:"compile_ms"`
	Results    map[string]stat `json:"results"`
	SnapBytes  int             `json:"snapshot_bytes"`
	SnapGzip   int             `json:"snapshot_gzip_bytes"`
	SnapMemory int             `json:"snapshot_memory_bytes"`
	Verified   bool            `json:"restore_verified"`
}

func runReference(ctx context.Context, node, script string, plan map[string]step) (*modeResult, string, error) {
	p, _ := json.Marshal(plan)
	ctx, cancel := context.WithTimeout(ctx, 4*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, script, "--plan", string(p))
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, "", fmt.Errorf("%s %s: %v: %s", node, script, err, strings.TrimSpace(stderr.String()))
	}
	var out refOutput
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
		return nil, "", fmt.Errorf("reference output: %v: %.200s", err, stdout.String())
	}
	if !out.Verified {
		return nil, "", fmt.Errorf("reference: restored run did not complete as expected")
	}
	res := &modeResult{Stats: out.Results, SetupMs: out.CompileMs, SnapBytes: out.SnapBytes, SnapGzip: out.SnapGzip, SnapMemory: out.SnapMemory}
	return res, fmt.Sprintf("Node.js %s, %s (quickjs.wasm sha256 %.12s…)", out.Node, out.Package, out.SHA256), nil
}

func ms(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e6 }

func fmtMs(v float64) string {
	switch {
	case v == 0:
		return "-"
	case v < 1:
		return fmt.Sprintf("%.3f", v)
	case v < 100:
		return fmt.Sprintf("%.2f", v)
	default:
		return fmt.Sprintf("%.0f", v)
	}
}

func main() {
	quick := flag.Bool("quick", false, "fewer iterations (a smoke run, noisier)")
	out := flag.String("out", "", "also write the results as a Markdown section to FILE")
	node := flag.String("node", "node", "Node.js binary for the reference")
	ref := flag.String("ref", "tests/bench/reference.mjs", "the reference script (run from the repository root)")
	noInterp := flag.Bool("no-interp", false, "skip the wazero interpreter")
	roundsFlag := flag.Int("rounds", 3, "alternating compiler/reference rounds whose samples are pooled (1 with -quick)")
	only := flag.String("only", "", `"e2e" runs only the end-to-end workloads, "driver" only the driver's`)
	flag.Parse()
	if err := run(*quick, *out, *node, *ref, !*noInterp, *roundsFlag, *only); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

func run(quick bool, outFile, node, refScript string, withInterp bool, roundsWanted int, only string) error {
	ctx := context.Background()
	began := time.Now()
	logf := func(f string, a ...any) { fmt.Fprintf(os.Stderr, "  "+f+"\n", a...) }
	w, err := loadWorkloads()
	if err != nil {
		return err
	}
	shared, interpPlan := plans(quick)

	// The compiler and the reference alternate over rounds (samples pooled), so
	// a noisy stretch of the machine hits both; the interpreter runs once.
	rounds := max(roundsWanted, 1)
	if quick {
		rounds = 1
	}
	var comps, refs []*modeResult
	var intr *modeResult
	var refInfo string
	var refErr error
	e2eText, e2eMD, err := runE2E(ctx, quick, rounds, node, strings.TrimSuffix(refScript, "reference.mjs")+"e2e.mjs", only, logf)
	if err != nil {
		return err
	}
	if only == "e2e" {
		fmt.Println()
		fmt.Print(e2eText)
		nodeV, _ := exec.Command(node, "--version").Output()
		fmt.Printf("\n(%s; whole run %.0f s)\n", environment(node, "Node.js "+strings.TrimSpace(string(nodeV))+", OpenClaw-style host over quickjs-wasi", nil), time.Since(began).Seconds())
		if outFile != "" {
			return os.WriteFile(outFile, []byte(e2eMD), 0o644)
		}
		return nil
	}
	for round := 1; round <= rounds; round++ {
		fmt.Fprintf(os.Stderr, "round %d/%d: ours, wazero compiler (compilation cache on):\n", round, rounds)
		comp, err := runOurs(ctx, false, shared, w, logf)
		if err != nil {
			return err
		}
		comps = append(comps, comp)
		if refErr == nil {
			fmt.Fprintf(os.Stderr, "round %d/%d: reference, quickjs-wasi on Node.js:\n", round, rounds)
			var ref *modeResult
			ref, refInfo, refErr = runReference(ctx, node, refScript, shared)
			if refErr != nil {
				fmt.Fprintln(os.Stderr, "  reference unavailable:", refErr)
				refs = nil
			} else {
				refs = append(refs, ref)
				logf("%s", refInfo)
				for _, k := range []string{"loop", "fib", "hostCalls", "freshVM", "snapshot", "restore"} {
					logf("reference: %-10s median %s ms (n=%d)", k, fmtMs(ref.Stats[k].Median), ref.Stats[k].N)
				}
			}
		}
		if withInterp && round == 1 {
			fmt.Fprintln(os.Stderr, "ours, wazero interpreter (loop 1e6 and fib(25) skipped: too slow; see loop 1e5, fib(20)):")
			if intr, err = runOurs(ctx, true, interpPlan, w, logf); err != nil {
				return err
			}
		}
	}
	comp, refRes := merge(comps), merge(refs)

	rep := buildReport(comp, intr, refRes, quick, rounds)
	env := environment(node, refInfo, refErr)
	fmt.Println()
	fmt.Print(rep.text())
	fmt.Println()
	fmt.Print(e2eText)
	fmt.Printf("\n(%s; whole run %.0f s)\n", env, time.Since(began).Seconds())
	if outFile != "" {
		if err := os.WriteFile(outFile, []byte(rep.markdown(env, quick)+"\n"+e2eMD), 0o644); err != nil {
			return err
		}
		fmt.Fprintln(os.Stderr, "wrote", outFile)
	}
	return nil
}

// runE2E alternates ours and the reference over rounds (unless only is
// "driver") and returns the text and Markdown tables.
func runE2E(ctx context.Context, quick bool, rounds int, node, script, only string, logf func(string, ...any)) (string, string, error) {
	if only == "driver" {
		return "", "", nil
	}
	plan := e2ePlan(quick)
	var ours, refs []map[string]e2eStat
	for round := 1; round <= rounds; round++ {
		fmt.Fprintf(os.Stderr, "round %d/%d: end to end, ours (core.Runtime, wazero compiler):\n", round, rounds)
		o, err := runE2EOurs(ctx, plan, logf)
		if err != nil {
			return "", "", err
		}
		ours = append(ours, o)
		fmt.Fprintf(os.Stderr, "round %d/%d: end to end, reference (OpenClaw-style host on Node.js):\n", round, rounds)
		r, err := runE2EReference(ctx, node, script, plan)
		if err != nil {
			fmt.Fprintln(os.Stderr, "  e2e reference unavailable:", err)
			continue
		}
		for _, k := range e2eOrder {
			logf("reference/e2e: %-11s wall median %s ms, cpu %s ms/op", k, fmtMs(r[k].Wall.Median), fmtMs(r[k].CPU))
		}
		refs = append(refs, r)
	}
	o, r := mergeE2E(ours), mergeE2E(refs)
	md := "### End to end (issue 8, section 4)\n\nWall: median per op over pooled rounds; CPU: process user+system time per op (ours includes Go's GC and wazero; the reference Node's JIT and GC).\n\n" + e2eTable(o, r, true)
	return e2eTable(o, r, false), md, nil
}

func environment(node, refInfo string, refErr error) string {
	nodeV := "node unavailable"
	if refErr == nil {
		nodeV = refInfo
	} else if b, err := exec.Command(node, "--version").Output(); err == nil {
		nodeV = "Node.js " + strings.TrimSpace(string(b)) + " (reference failed)"
	}
	return fmt.Sprintf("%s/%s, %d CPUs (GOMAXPROCS %d), %s, %s", runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), runtime.GOMAXPROCS(0), runtime.Version(), nodeV)
}
