// Package buildsh tests the front door, ./build.sh: its help, its answer to
// an unknown subcommand, and (after a build, BUILDSH_NOCHANGE=1, as
// `./build.sh test-buildsh` runs it) that a rebuild with nothing changed skips
// its long steps.
package buildsh

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

const script = "../../build.sh"

// run runs build.sh with args: stdout, stderr, exit code.
func run(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command("bash", append([]string{script}, args...)...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		return out.String(), errb.String(), ee.ExitCode()
	case err != nil:
		t.Fatal(err)
	}
	return out.String(), errb.String(), 0
}

// TestHelpListsEveryUserSubcommand: help, -h and --help print one line per
// subcommand and exit 0; every function of build.sh is listed there or is an
// internal helper (INTERNAL, or a name starting with _), and no internal
// helper is listed.
func TestHelpListsEveryUserSubcommand(t *testing.T) {
	src, err := os.ReadFile(script)
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]string{}
	for _, arg := range []string{"help", "-h", "--help"} {
		out, stderr, code := run(t, arg)
		if code != 0 {
			t.Fatalf("build.sh %s: exit %d, stderr %q", arg, code, stderr)
		}
		for _, line := range strings.Split(out, "\n") {
			f := strings.Fields(line)
			if len(f) >= 2 && strings.HasPrefix(line, "  ") {
				listed[f[0]] = strings.Join(f[1:], " ")
			}
		}
	}
	m := regexp.MustCompile(`(?m)^INTERNAL='([^']*)'`).FindSubmatch(src)
	if m == nil {
		t.Fatal("build.sh has no INTERNAL list")
	}
	internal := map[string]bool{}
	for _, f := range strings.Fields(string(m[1])) {
		internal[f] = true
	}
	for _, fn := range regexp.MustCompile(`(?m)^([A-Za-z_][A-Za-z0-9_]*)\(\) \{`).FindAllSubmatch(src, -1) {
		name := string(fn[1])
		sub := strings.ReplaceAll(strings.TrimSuffix(name, "_"), "_", "-")
		switch {
		case strings.HasPrefix(name, "_"), internal[name]:
			if _, ok := listed[sub]; ok {
				t.Errorf("help lists the internal helper %s", sub)
			}
		case listed[sub] == "":
			t.Errorf("the subcommand %s (function %s) has no help line: add it to HELP or INTERNAL in build.sh", sub, name)
		}
	}
	for sub := range listed {
		fn := strings.ReplaceAll(sub, "-", "_")
		if sub == "test" {
			fn = "test_"
		}
		if !regexp.MustCompile(`(?m)^` + fn + `\(\) \{`).Match(src) {
			t.Errorf("help lists %s, which build.sh does not define", sub)
		}
	}
	for _, want := range []string{"run", "test", "build", "help"} {
		if listed[want] == "" {
			t.Errorf("help does not list %s", want)
		}
	}
}

// TestUnknownSubcommandIsNamed: a typo exits 2 and names what was typed.
func TestUnknownSubcommandIsNamed(t *testing.T) {
	for _, arg := range []string{"frobnicate", "tset", "log", "_wrangler_dev", "stale"} {
		out, stderr, code := run(t, arg)
		if code != 2 || !strings.Contains(stderr, `"`+arg+`"`) || !strings.Contains(stderr, "help") || out != "" {
			t.Errorf("build.sh %s: exit %d, stdout %q, stderr %q", arg, code, out, stderr)
		}
	}
}

// TestNoChangeRebuildSkipsItsSteps: with everything built and nothing
// changed, build-web, web and `run surface` skip the go build, the GOOS=js
// build and the compression of the 31 MB wasm (their outputs keep their
// times). Needs a build first: ./build.sh test-buildsh sets BUILDSH_NOCHANGE=1.
func TestNoChangeRebuildSkipsItsSteps(t *testing.T) {
	if os.Getenv("BUILDSH_NOCHANGE") != "1" {
		t.Skip("needs a finished build: run ./build.sh test-buildsh")
	}
	outs := []string{"build/codemode", "build/web/codemode.wasm", "build/web/codemode.wasm.br", "build/web/codemode.wasm.gz", "build/web/ide.js", "build/web/ts.worker.js.br"}
	before := map[string]time.Time{}
	for _, o := range outs {
		st, err := os.Stat(filepath.Join("../..", o))
		if err != nil {
			t.Fatalf("%s is missing after the build: %v", o, err)
		}
		before[o] = st.ModTime()
	}
	t0 := time.Now()
	for _, args := range [][]string{{"build-web"}, {"web"}, {"run", "surface"}} {
		_, stderr, code := run(t, args...)
		if code != 0 {
			t.Fatalf("build.sh %v: exit %d\n%s", args, code, stderr)
		}
		if strings.Contains(stderr, "go build") || strings.Contains(stderr, "GOOS=js, ") || strings.Contains(stderr, "MiB)") {
			t.Errorf("build.sh %v with nothing changed still built or compressed:\n%s", args, stderr)
		}
		if !strings.Contains(stderr, "up to date") {
			t.Errorf("build.sh %v does not say what it skipped:\n%s", args, stderr)
		}
	}
	t.Logf("three no-change rebuilds took %s", time.Since(t0).Round(time.Millisecond))
	for _, o := range outs {
		st, _ := os.Stat(filepath.Join("../..", o))
		if !st.ModTime().Equal(before[o]) {
			t.Errorf("%s was rewritten by a no-change rebuild", o)
		}
	}
}
