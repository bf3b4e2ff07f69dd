// Package cli is the `exec` subcommand shared by the native codemode command
// and the GOOS=wasip1 command module, so both parse the same flags, read the
// same config files and print the same JSON lines.
package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/codemode-go/codemode/core"
	"github.com/codemode-go/codemode/core/catalog"
	"github.com/codemode-go/codemode/core/config"
	"github.com/codemode-go/codemode/examples/toolset"
	json "github.com/goccy/go-json"
)

// Streams are a command's standard streams.
type Streams struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
}

// Exec runs `exec [-e CODE | -f FILE] [--language L] [--config FILE] [--wait]`
// (args without the subcommand word) against the example toolset and writes
// each CodeModeResult as one JSON line to s.Stdout. It returns the exit
// status: 0 whenever a result was produced, whatever its status; 2 for usage
// errors (after calling usage); 1 when the runtime could not start.
func Exec(ctx context.Context, args []string, s Streams, usage func(io.Writer)) int {
	fs := flag.NewFlagSet("exec", flag.ContinueOnError)
	fs.SetOutput(s.Stderr)
	code := fs.String("e", "", "the cell's source code")
	file := fs.String("f", "", "read the cell from FILE (- for standard input)")
	lang := fs.String("language", "javascript", "javascript or typescript")
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
	cfg, err := LoadConfig(*cfgFile)
	if err != nil {
		fmt.Fprintf(s.Stderr, "codemode: config: %v\n", err)
		return 2
	}
	if !cfg.Enabled {
		fmt.Fprintln(s.Stderr, "codemode: config: Code Mode is disabled (tools.codeMode.enabled is not true)")
		return 2
	}
	tools, err := toolset.Tools()
	if err != nil {
		fmt.Fprintf(s.Stderr, "codemode: %v\n", err)
		return 1
	}
	rt, err := core.New(ctx, core.Options{
		Config: cfg,
		Tools:  func(context.Context, core.Scope) ([]catalog.Tool, error) { return tools, nil },
	})
	if err != nil {
		fmt.Fprintf(s.Stderr, "codemode: %v\n", err)
		var ue *core.UnavailableError
		if errors.As(err, &ue) {
			return 1
		}
		return 2
	}
	defer rt.Close(ctx)
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

// LoadConfig reads tools.codeMode from file (JSON or JSON5: the value, or a
// whole {tools: {codeMode: ...}} document), or enables the defaults when file
// is "".
func LoadConfig(file string) (config.Config, error) {
	if file == "" {
		cfg := config.Default()
		cfg.Enabled = true
		return cfg, nil
	}
	b, err := os.ReadFile(file)
	if err != nil {
		return config.Config{}, err
	}
	return config.Parse(b)
}
