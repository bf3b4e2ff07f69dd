package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"strings"
	"time"
)

// runE2EReference runs e2e.mjs with the same plan.
func runE2EReference(ctx context.Context, node, script string, plan map[string]step) (map[string]e2eStat, error) {
	p, _ := json.Marshal(plan)
	ctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, script, "--plan", string(p))
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("%s %s: %v: %s", node, script, err, strings.TrimSpace(stderr.String()))
	}
	var out struct {
		Results map[string]e2eStat `json:"results"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
		return nil, fmt.Errorf("e2e reference output: %v", err)
	}
	return out.Results, nil
}

// mergeE2E pools the wall samples of several rounds and averages CPU.
func mergeE2E(rounds []map[string]e2eStat) map[string]e2eStat {
	if len(rounds) == 0 {
		return nil
	}
	out := map[string]e2eStat{}
	for k := range rounds[0] {
		var all []float64
		cpu := 0.0
		for _, r := range rounds {
			all = append(all, r[k].Wall.Samples...)
			cpu += r[k].CPU
		}
		out[k] = e2eStat{Wall: summarize(all), CPU: cpu / float64(len(rounds))}
	}
	return out
}

// e2eTarget is issue 8's per-call target: 20 sequential tool calls at most
// 0.8x the reference.
const e2eTarget = 0.8

// e2eTable renders ours vs the reference; markdown picks the format.
func e2eTable(ours, ref map[string]e2eStat, markdown bool) string {
	var b strings.Builder
	label := map[string]string{
		"freshExec": "fresh exec (`return 1`)", "oneCall50": "one tool call on 50 rows", "seq20": "20 sequential tool calls",
		"par10": "10 parallel tool calls", "yieldWait": "yield + wait", "sessions100": "100 concurrent sessions (one op = all 100)",
	}
	if markdown {
		b.WriteString("| workload | ours wall ms | ref wall ms | wall ratio | ours CPU ms/op | ref CPU ms/op | CPU ratio |\n|---|---|---|---|---|---|---|\n")
	} else {
		fmt.Fprintf(&b, "%-44s %10s %10s %7s %10s %10s %7s\n", "end to end (exec/wait through core.Runtime)", "ours wall", "ref wall", "ratio", "ours CPU", "ref CPU", "ratio")
	}
	for _, k := range e2eOrder {
		o, ok := ours[k]
		if !ok {
			continue
		}
		r, hasRef := ref[k]
		wr, cr := "-", "-"
		if hasRef && r.Wall.Median > 0 {
			wr = fmt.Sprintf("%.2fx", o.Wall.Median/r.Wall.Median)
			cr = fmt.Sprintf("%.2fx", o.CPU/r.CPU)
		}
		if markdown {
			fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s |\n", label[k], fmtMs(o.Wall.Median), fmtMs(r.Wall.Median), wr, fmtMs(o.CPU), fmtMs(r.CPU), cr)
		} else {
			fmt.Fprintf(&b, "%-44s %10s %10s %7s %10s %10s %7s\n", label[k], fmtMs(o.Wall.Median), fmtMs(r.Wall.Median), wr, fmtMs(o.CPU), fmtMs(r.CPU), cr)
		}
	}
	if r, ok := ref["seq20"]; ok && r.Wall.Median > 0 {
		o := ours["seq20"]
		w, c := o.Wall.Median/r.Wall.Median, o.CPU/r.CPU
		verdict := "PASS"
		if w > e2eTarget || c > e2eTarget {
			verdict = "FAIL"
		}
		fmt.Fprintf(&b, "\n%s: 20 sequential tool calls at most %.1fx the reference: wall %.2fx, CPU %.2fx\n", verdict, e2eTarget, w, c)
	}
	return b.String()
}
