// Command codemode runs Code Mode cells natively against the built-in example
// toolset and prints each CodeModeResult as one JSON line.
//
//	codemode exec [-e CODE | -f FILE] [--language typescript] [--config FILE] [--wait]
//	codemode surface [--config FILE] [--format plain|anthropic|openai]
//
// The exit status is 0 whenever a result was produced, whatever its status; it is
// 2 for usage errors and 1 when the runtime could not start.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/codemode-go/codemode/core"
	"github.com/codemode-go/codemode/core/catalog"
	"github.com/codemode-go/codemode/core/surface"
	"github.com/codemode-go/codemode/examples/toolset"
	"github.com/codemode-go/codemode/internal/cli"
	json "github.com/goccy/go-json"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func usage(w io.Writer) {
	fmt.Fprintln(w, `usage: codemode exec [-e CODE | -f FILE] [--language javascript|typescript] [--config FILE] [--wait]
       codemode surface [--config FILE] [--format plain|anthropic|openai]

Runs one Code Mode cell against the example toolset (shipping_list, echo, sleep_ms,
github_list_issues, github_update_issue and the Issues namespace) and prints the
result as JSON. With --wait, keeps calling wait until the run ends, one JSON line
per result. -f - reads the cell from standard input. --config takes tools.codeMode
as JSON or JSON5 (the value, or a whole {tools: {codeMode: ...}} document).

surface prints the model-visible tool list for the example toolset (exec, wait and
the direct-only tools when Code Mode is enabled; the untouched list when it is not),
in the shape a model API takes.`)
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "surface" {
		return surfaceCmd(args[1:], stdout, stderr)
	}
	if len(args) == 0 || args[0] != "exec" {
		usage(stderr)
		return 2
	}
	return cli.Exec(context.Background(), args[1:], cli.Streams{Stdin: stdin, Stdout: stdout, Stderr: stderr}, usage)
}

func surfaceCmd(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("surface", flag.ContinueOnError)
	fs.SetOutput(stderr)
	cfgFile := fs.String("config", "", "tools.codeMode config file (JSON or JSON5)")
	format := fs.String("format", "plain", "plain, anthropic or openai")
	fs.Usage = func() { usage(stderr) }
	if err := fs.Parse(args); err != nil || fs.NArg() > 0 {
		return 2
	}
	cfg, err := cli.LoadConfig(*cfgFile)
	if err != nil {
		fmt.Fprintf(stderr, "codemode: config: %v\n", err)
		return 2
	}
	tools, err := toolset.Tools()
	if err != nil {
		fmt.Fprintf(stderr, "codemode: %v\n", err)
		return 1
	}
	// Enabled, the runtime builds the surface (it knows the visible namespaces);
	// disabled, there is no runtime and the list stays untouched.
	var s surface.Surface
	if cfg.Enabled {
		ctx := context.Background()
		var rt *core.Runtime
		rt, err = core.New(ctx, core.Options{Config: cfg,
			Tools: func(context.Context, core.Scope) ([]catalog.Tool, error) { return tools, nil }})
		if err == nil {
			defer rt.Close(ctx)
			s, err = rt.Surface(ctx, core.Scope{AgentID: "cli"}, false)
		}
	} else {
		s, err = surface.Apply(tools, surface.Options{Config: cfg})
	}
	if err != nil {
		fmt.Fprintf(stderr, "codemode: %v\n", err)
		return 1
	}
	var out any
	switch *format {
	case "plain":
		out = s.Tools
	case "anthropic":
		out = s.Anthropic()
	case "openai":
		out = s.OpenAI()
	default:
		fmt.Fprintf(stderr, "codemode: unknown --format %q (plain, anthropic or openai)\n", *format)
		return 2
	}
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	enc.Encode(out)
	return 0
}
