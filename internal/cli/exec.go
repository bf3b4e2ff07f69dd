// Package cli is the `exec` subcommand shared by the native codemode command
// and the GOOS=wasip1 command module, so both parse the same flags, read the
// same config files and print the same JSON lines.
package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/codemode-go/codemode/core"
	json "github.com/goccy/go-json"
)

// Streams are a command's standard streams.
type Streams struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
}

// Start loads the config file ("" means the defaults) and starts a runtime
// over it. On failure it has written the reason to stderr and returns a nil
// runtime and the exit status (2 for a bad config, 1 when the runtime could not
// start); otherwise stop releases what the runtime holds.
type Start func(ctx context.Context, configFile string, stderr io.Writer) (rt *core.Runtime, stop func(), status int)

// Exec runs `exec [-e CODE | -f FILE] [--language L] [--config FILE] [--wait]`
// (args without the subcommand word) on the runtime start gives and writes
// each CodeModeResult as one JSON line to s.Stdout. It returns the exit
// status: 0 whenever a result was produced, whatever its status; 2 for usage
// errors (after calling usage); 1 when the runtime could not start.
func Exec(ctx context.Context, args []string, s Streams, usage func(io.Writer), start Start) int {
	fs := flag.NewFlagSet("exec", flag.ContinueOnError)
	fs.SetOutput(s.Stderr)
	code := fs.String("e", "", "the cell's source code")
	file := fs.String("f", "", "read the cell from FILE (- for standard input)")
	// No default of its own: an exec without --language takes the config's
	// default (config.DefaultLanguage), as the HTTP API does, so a
	// TypeScript-only config runs a bare cell as TypeScript.
	lang := fs.String("language", "", "javascript or typescript (default: the config's default language)")
	cfgFile := fs.String("config", "", "tools.codeMode config file (JSON or JSON5)")
	follow := fs.Bool("wait", false, "call wait until the run completes or fails")
	fs.Usage = func() { usage(s.Stderr) }
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if (*code == "") == (*file == "") || fs.NArg() > 0 {
		fmt.Fprintln(s.Stderr, "codemode: give exactly one of -e CODE or -f FILE")
		return 2
	}
	src := *code
	if *file != "" {
		var b []byte
		var err error
		if *file == "-" {
			b, err = io.ReadAll(s.Stdin)
		} else {
			b, err = os.ReadFile(*file)
		}
		if err != nil {
			fmt.Fprintf(s.Stderr, "codemode: %v\n", err)
			return 2
		}
		src = string(b)
	}
	rt, stop, status := start(ctx, *cfgFile, s.Stderr)
	if rt == nil {
		return status
	}
	defer stop()
	call := core.CallInfo{Scope: core.Scope{AgentID: "cli", SessionID: "cli", AgentRunID: "cli"}, CallID: "exec_1"}
	res := rt.Exec(ctx, call, core.ExecInput{Code: src, Language: *lang})
	enc := json.NewEncoder(s.Stdout)
	enc.Encode(res)
	for i := 2; *follow && res.Status == core.StatusWaiting; i++ {
		call.CallID = fmt.Sprintf("wait_%d", i)
		res = rt.Wait(ctx, call, core.WaitInput{RunID: res.RunID})
		enc.Encode(res)
	}
	return 0
}
