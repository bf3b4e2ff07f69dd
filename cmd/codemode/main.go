// Command codemode serves the Code Mode HTTP API, or runs one cell natively,
// against the built-in example toolset and the MCP servers of a server config.
//
//	codemode serve [--addr 127.0.0.1:8787] [--config FILE] [--static DIR]
//	codemode exec [-e CODE | -f FILE] [--language typescript] [--config FILE] [--wait]
//	codemode surface [--config FILE] [--format plain|anthropic|openai|openai-responses]
//	codemode mcp [--config FILE]
//
// serve, exec and mcp take the same config file (internal/serverconfig), so the server
// and the command line see the same tools. exec prints each CodeModeResult as
// one JSON line; its exit status is 0 whenever a result was produced, whatever
// its status. Every subcommand exits 2 for usage and config errors and 1 when
// the runtime could not start.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"

	"github.com/codemode-go/codemode/core"
	"github.com/codemode-go/codemode/core/mcp"
	"github.com/codemode-go/codemode/internal/catalog"
	"github.com/codemode-go/codemode/internal/cli"
	"github.com/codemode-go/codemode/internal/demo"
	"github.com/codemode-go/codemode/internal/namespace"
	"github.com/codemode-go/codemode/internal/serverconfig"
	"github.com/codemode-go/codemode/internal/surface"
	"github.com/codemode-go/codemode/internal/toolset"
	json "github.com/goccy/go-json"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func usage(w io.Writer) {
	fmt.Fprintln(w, `usage: codemode serve [--addr 127.0.0.1:8787] [--config FILE] [--static DIR] [--grace 15s] [--metrics-addr 127.0.0.1:PORT]
       codemode exec [-e CODE | -f FILE] [--language javascript|typescript] [--config FILE] [--wait]
       codemode surface [--config FILE] [--format plain|anthropic|openai|openai-responses]
       codemode mcp [--config FILE]

serve answers the HTTP API (POST /v1/exec, /v1/wait, /v1/surface, /v1/tools/call,
GET /v1/catalog, /healthz), Code Mode as an MCP server over Streamable HTTP at /mcp,
and serves the web IDE from build/web at / when it exists.
Beyond loopback it needs auth.tokens in the config. --metrics-addr (off by default,
loopback only) serves goroutines, heap and suspended runs as JSON at GET /metrics.

exec runs one Code Mode cell against the example toolset (shipping_list, echo, sleep_ms,
github_list_issues, github_update_issue and the Issues namespace) and prints the
result as JSON. With --wait, keeps calling wait until the run ends, one JSON line
per result. -f - reads the cell from standard input.

--config takes the server config file, JSON or JSON5 (see examples/codemode.json5):
tools.codeMode, mcp.servers, exampleTools, auth, cors, listen.

mcp serves Code Mode as an MCP server over stdio (for an MCP host's config): tools/list
is exec (with the quick index), wait and the direct-only tools. Logs go to stderr.

surface prints the model-visible tool list for the example toolset (exec, wait and
the direct-only tools when Code Mode is enabled; the untouched list when it is not),
in the shape a model API takes (openai is Chat Completions, openai-responses the
Responses API).`)
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "surface" {
		return surfaceCmd(args[1:], stdout, stderr)
	}
	if len(args) > 0 && args[0] == "serve" {
		return serveCmd(context.Background(), args[1:], stdout, stderr)
	}
	if len(args) > 0 && args[0] == "mcp" {
		return mcpCmd(context.Background(), args[1:], stdin, stdout, stderr)
	}
	if len(args) == 0 || args[0] != "exec" {
		usage(stderr)
		return 2
	}
	return cli.Exec(context.Background(), args[1:], cli.Streams{Stdin: stdin, Stdout: stdout, Stderr: stderr}, usage, startExec)
}

// startExec is exec's cli.Start: the server config file and its MCP servers.
func startExec(ctx context.Context, file string, stderr io.Writer) (*core.Runtime, func(), int) {
	cfg, ok := loadEnabledConfig(file, stderr)
	if !ok {
		return nil, nil, 2
	}
	env, status := startRuntime(ctx, cfg, nil, stderr)
	if env == nil {
		return nil, nil, status
	}
	return env.rt, func() { env.close(ctx) }, 0
}

// parseArgs parses a subcommand's flags and refuses stray arguments; false
// means exit 2 (the reason is printed).
func parseArgs(fs *flag.FlagSet, args []string, stderr io.Writer) bool {
	fs.SetOutput(stderr)
	fs.Usage = func() { usage(stderr) }
	if err := fs.Parse(args); err != nil || fs.NArg() > 0 {
		if fs.NArg() > 0 {
			fmt.Fprintf(stderr, "codemode %s: unexpected argument %q\n", fs.Name(), fs.Arg(0))
		}
		return false
	}
	return true
}

// parseServerArgs parses the flags of a server subcommand (serve, mcp) and
// loads the config file its --config flag (cfgFile) names.
func parseServerArgs(fs *flag.FlagSet, cfgFile *string, args []string, stderr io.Writer) (*serverconfig.Config, bool) {
	if !parseArgs(fs, args, stderr) {
		return nil, false
	}
	return loadEnabledConfig(*cfgFile, stderr)
}

// loadEnabledConfig is the config of a Code Mode server (serve, mcp, exec):
// loadConfig, refused unless Code Mode is on; false means exit 2 (printed).
func loadEnabledConfig(file string, stderr io.Writer) (*serverconfig.Config, bool) {
	cfg, err := loadConfig(file)
	if err == nil {
		err = cfg.RequireEnabled()
	}
	if err != nil {
		fmt.Fprintf(stderr, "codemode: config: %v\n", err)
		return nil, false
	}
	return cfg, true
}

// loadConfig reads the server config file, or gives the defaults (Code Mode on,
// the example toolset) when file is "".
func loadConfig(file string) (*serverconfig.Config, error) {
	if file == "" {
		return serverconfig.Default(), nil
	}
	return serverconfig.Load(file)
}

// runtimeEnv is a started runtime and what it holds open.
type runtimeEnv struct {
	rt      *core.Runtime
	servers []*mcp.Server
}

func (e *runtimeEnv) close(ctx context.Context) {
	e.rt.Close(ctx)
	for _, s := range e.servers {
		s.Close()
	}
}

// startRuntime connects the config's MCP servers (one that fails is logged and
// left out) and starts the runtime over them and the example toolset when it is
// on. On failure it returns nil and the exit status.
func startRuntime(ctx context.Context, cfg *serverconfig.Config, log *slog.Logger, stderr io.Writer) (*runtimeEnv, int) {
	if log == nil {
		log = slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	}
	// The example Issues namespace rides with the example tools.
	tools, ns, status := configTools(cfg, log, stderr)
	if status != 0 {
		return nil, status
	}
	servers := serverconfig.Connect(ctx, cfg.MCPServers, log, nil)
	rt, err := core.New(ctx, core.Options{
		Config:     cfg.CodeMode,
		Tools:      func(context.Context, core.Scope) ([]catalog.Tool, error) { return tools, nil },
		Namespaces: ns,
		MCPServers: servers,
		// One runtime per process: its bound is the process's.
		MaxRunningCells: cfg.MaxRunningCells,
	})
	if err != nil {
		for _, s := range servers {
			s.Close()
		}
		fmt.Fprintf(stderr, "codemode: %v\n", err)
		var ue *core.UnavailableError
		if errors.As(err, &ue) {
			return nil, 1
		}
		return nil, 2
	}
	return &runtimeEnv{rt: rt, servers: servers}, 0
}

func surfaceCmd(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("surface", flag.ContinueOnError)
	fs.SetOutput(stderr)
	cfgFile := fs.String("config", "", "server config file (JSON or JSON5)")
	format := fs.String("format", "plain", strings.Join(surface.Formats, ", "))
	fs.Usage = func() { usage(stderr) }
	if err := fs.Parse(args); err != nil || fs.NArg() > 0 {
		return 2
	}
	cfg, err := loadConfig(*cfgFile)
	if err != nil {
		fmt.Fprintf(stderr, "codemode: config: %v\n", err)
		return 2
	}
	// Enabled, the runtime builds the surface (it knows the visible namespaces);
	// disabled, there is no runtime and the list stays untouched.
	var s surface.Surface
	if cfg.CodeMode.Enabled {
		ctx := context.Background()
		env, code := startRuntime(ctx, cfg, nil, stderr)
		if env == nil {
			return code
		}
		defer env.close(ctx)
		s, err = env.rt.Surface(ctx, core.Scope{AgentID: "cli"}, false)
	} else {
		tools, _, status := configTools(cfg, nil, stderr)
		if status != 0 {
			return status
		}
		s, err = surface.Apply(tools, surface.Options{Config: cfg.CodeMode})
	}
	if err != nil {
		fmt.Fprintf(stderr, "codemode: %v\n", err)
		return 1
	}
	out, err := s.Format(*format)
	if err != nil {
		fmt.Fprintf(stderr, "codemode: unknown --format: %v\n", err)
		return 2
	}
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	enc.Encode(out)
	return 0
}

// configTools is the config's own tools: the built-in ones (with the
// namespaces that ride with them) and the operations of its OpenAPI
// documents. A document that cannot be loaded is a config error (status 2),
// naming the key, the document and the JSON pointer.
func configTools(cfg *serverconfig.Config, log *slog.Logger, stderr io.Writer) ([]catalog.Tool, *namespace.Registry, int) {
	tools, ns, err := exampleTools.Select(cfg.ExampleTools)
	if err != nil {
		fmt.Fprintf(stderr, "codemode: %v\n", err)
		return nil, nil, 1
	}
	if cfg.FaultTools {
		tools = append(tools, toolset.FaultTools()...)
	}
	more, err := serverconfig.OpenAPITools(cfg.OpenAPI, log)
	if err != nil {
		fmt.Fprintf(stderr, "codemode: config: %v\n", err)
		return nil, nil, 2
	}
	return append(tools, more...), ns, 0
}

// exampleTools: this CLI keeps the demo packages in every build, since it is
// the binary that serves the demo (./build.sh run: the web IDE over the
// example toolset) and the one every native suite starts; a program that
// embeds Code Mode builds its own main over core and links none of them.
var exampleTools demo.Tools = toolset.Demo
