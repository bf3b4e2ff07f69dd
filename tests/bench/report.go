package main

import (
	"fmt"
	"strings"
	"text/tabwriter"
	"time"
)

type row struct {
	label              string
	bytes              bool
	comp, intr, ref    float64
	compNote, intrNote string
}

type target struct {
	name   string
	status string // PASS, FAIL, SKIP
	detail string
}

type report struct {
	rows    []row
	targets []target
	notes   []string
}

func get(m *modeResult, k string) float64 {
	if m == nil {
		return 0
	}
	return m.Stats[k].Median
}

func buildReport(comp, intr, ref *modeResult, quick bool, rounds int) *report {
	r := &report{}
	add := func(label, key string) {
		r.rows = append(r.rows, row{label: label, comp: get(comp, key), intr: get(intr, key), ref: get(ref, key)})
	}
	add("loop 1e6 (ms)", "loop")
	add("loop 1e5 (ms)", "loopSmall")
	add("fib(25) (ms)", "fib")
	add("fib(20) (ms)", "fibSmall")
	add("10k host calls (ms)", "hostCalls")
	add("fresh VM (ms)", "freshVM")
	cold := row{label: "fresh VM, new instance (ms)", comp: comp.ColdFreshVM.Median, ref: get(ref, "freshVM")}
	if intr != nil {
		cold.intr = intr.ColdFreshVM.Median
	}
	r.rows = append(r.rows, cold)
	add("snapshot, suspended run (ms)", "snapshot")
	add("restore into a fresh VM (ms)", "restore")
	sr := row{label: "snapshot + restore (ms)", comp: get(comp, "snapshot") + get(comp, "restore"), ref: get(ref, "snapshot") + get(ref, "restore")}
	if intr != nil {
		sr.intr = get(intr, "snapshot") + get(intr, "restore")
	}
	r.rows = append(r.rows, sr)
	sz := row{label: "suspended-run snapshot (bytes)", bytes: true, comp: float64(comp.SnapBytes)}
	if intr != nil {
		sz.intr = float64(intr.SnapBytes)
	}
	if ref != nil {
		sz.ref = float64(ref.SnapBytes)
	}
	r.rows = append(r.rows, sz)
	setup := row{label: "setup: compile + template (ms, 1 run)", comp: comp.SetupMs}
	if intr != nil {
		setup.intr = intr.SetupMs
	}
	if ref != nil {
		setup.ref = ref.SetupMs
	}
	r.rows = append(r.rows, setup)

	ratio := func(a, b float64) float64 {
		if a == 0 || b == 0 {
			return 0
		}
		return a / b
	}
	check := func(name string, ok bool, detail string) {
		st := "FAIL"
		if ok {
			st = "PASS"
		}
		if ref == nil && !strings.Contains(name, "64 KiB") {
			st, detail = "SKIP", "reference unavailable"
		}
		r.targets = append(r.targets, target{name, st, detail})
	}
	for _, c := range []struct{ name, key string }{{"loop 1e6", "loop"}, {"fib(25)", "fib"}} {
		x := ratio(get(comp, c.key), get(ref, c.key))
		check(fmt.Sprintf("compute %s <= 2.5x reference (compiler)", c.name), x > 0 && x <= 2.5, fmt.Sprintf("%.2fx", x))
	}
	x := ratio(get(comp, "freshVM"), get(ref, "freshVM"))
	check("fresh VM no slower than reference (compiler)", x > 0 && x <= 1, fmt.Sprintf("%.2fx", x))
	x = ratio(sr.comp, sr.ref)
	check("snapshot + restore no slower than reference (compiler)", x > 0 && x <= 1,
		fmt.Sprintf("%.2fx (snapshot %.2fx, restore %.2fx)", x, ratio(get(comp, "snapshot"), get(ref, "snapshot")), ratio(get(comp, "restore"), get(ref, "restore"))))
	check("suspended-run snapshot <= 64 KiB", comp.SnapBytes <= 64<<10, fmt.Sprintf("%d bytes", comp.SnapBytes))

	if ref != nil {
		r.notes = append(r.notes, fmt.Sprintf("reference snapshot: %d bytes serialized (whole linear memory, %d bytes), %d bytes gzipped", ref.SnapBytes, ref.SnapMemory, ref.SnapGzip))
	}
	r.notes = append(r.notes, fmt.Sprintf("ours: snap.Bytes() = the byte runs that differ from the template (changed 4 KiB chunks scanned), plus a header; restores %d bytes of linear memory", comp.SnapMemory))
	if intr != nil {
		r.notes = append(r.notes, "interpreter: loop 1e6 and fib(25) not run (about 9 s and 2 s per run); compare the 1e5 and fib(20) rows")
	}
	r.notes = append(r.notes, fmt.Sprintf("compiler and reference: %d alternating round(s), samples pooled; interpreter: one round", rounds))
	r.notes = append(r.notes, "medians; compute rows time one eval + reading the result in a VM created (untimed) for that run")
	r.notes = append(r.notes, "fresh VM: ours NewVM+Close (instance reused from the pool, reset to the template on Close); reference QuickJS.create from a compiled WebAssembly.Module + dispose")
	r.notes = append(r.notes, "snapshot: ours vm.Snapshot() (diff against the template); reference vm.snapshot() (memory copy, not serialized). restore: ours Restore+re-register+Close; reference QuickJS.restore+registerHostCallback+dispose")
	if quick {
		r.notes = append(r.notes, "-quick: few iterations, treat as a smoke run")
	}
	return r
}

func (r *report) summary() string {
	var pass, fail, skip int
	var failed []string
	for _, t := range r.targets {
		switch t.status {
		case "PASS":
			pass++
		case "FAIL":
			fail++
			failed = append(failed, t.name)
		default:
			skip++
		}
	}
	s := fmt.Sprintf("SUMMARY: %d/%d targets PASS", pass, len(r.targets))
	if fail > 0 {
		s += fmt.Sprintf(", %d FAIL (%s)", fail, strings.Join(failed, "; "))
	}
	if skip > 0 {
		s += fmt.Sprintf(", %d SKIP", skip)
	}
	return s
}

func cell(v float64, bytes bool) string {
	if v == 0 {
		return "-"
	}
	if bytes {
		return fmt.Sprintf("%d", int(v))
	}
	return fmtMs(v)
}

func ratioCell(a, b float64) string {
	if a == 0 || b == 0 {
		return "-"
	}
	if x := a / b; x < 0.01 {
		return fmt.Sprintf("%.4fx", x)
	}
	return fmt.Sprintf("%.2fx", a/b)
}

var header = []string{"workload", "ours-compiler", "ours-interpreter", "reference (Node)", "compiler/ref", "interpreter/ref"}

func (r *report) cells() [][]string {
	var out [][]string
	for _, x := range r.rows {
		out = append(out, []string{x.label, cell(x.comp, x.bytes), cell(x.intr, x.bytes), cell(x.ref, x.bytes), ratioCell(x.comp, x.ref), ratioCell(x.intr, x.ref)})
	}
	return out
}

func (r *report) text() string {
	var b strings.Builder
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, strings.Join(header, "\t")+"\t")
	for _, c := range r.cells() {
		fmt.Fprintln(tw, strings.Join(c, "\t")+"\t")
	}
	tw.Flush()
	b.WriteString("\n")
	for _, n := range r.notes {
		b.WriteString("  * " + n + "\n")
	}
	b.WriteString("\nTargets:\n")
	for _, t := range r.targets {
		fmt.Fprintf(&b, "  %s  %s: %s\n", t.status, t.name, t.detail)
	}
	b.WriteString("\n" + r.summary() + "\n")
	return b.String()
}

func (r *report) markdown(env string, quick bool) string {
	var b strings.Builder
	cmd := "./build.sh bench"
	if quick {
		cmd += " -quick"
	}
	fmt.Fprintf(&b, "## Measured %s\n\n", time.Now().UTC().Format("2006-01-02 15:04 UTC"))
	fmt.Fprintf(&b, "Command: `%s` (this section written with `-out`).  \nMachine: %s.\n\n", cmd, env)
	b.WriteString("| " + strings.Join(header, " | ") + " |\n")
	b.WriteString("|---|---:|---:|---:|---:|---:|\n")
	for _, c := range r.cells() {
		b.WriteString("| " + strings.Join(c, " | ") + " |\n")
	}
	b.WriteString("\n")
	for _, n := range r.notes {
		b.WriteString("- " + n + "\n")
	}
	b.WriteString("\nTargets:\n\n")
	for _, t := range r.targets {
		fmt.Fprintf(&b, "- **%s** %s: %s\n", t.status, t.name, t.detail)
	}
	b.WriteString("\n**" + r.summary() + "**\n")
	return b.String()
}
