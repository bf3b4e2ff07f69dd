//go:build wasip1

// Command command is the GOOS=wasip1 command module codemode.wasip1.wasm: the
// native command's exec subcommand (shared through internal/cli) for any WASI
// host. Files (-f, --config) are read through the host's preopened
// directories. --config takes the native command's server config file; its
// MCP servers are refused, since a WASI program can neither start processes
// nor open sockets.
//
//	wazero run -mount .:/data codemode.wasip1.wasm exec -e 'return 1+1'
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/codemode-go/codemode/core"
	"github.com/codemode-go/codemode/internal/catalog"
	"github.com/codemode-go/codemode/internal/cli"
	"github.com/codemode-go/codemode/internal/demo"
	"github.com/codemode-go/codemode/internal/serverconfig"
)

func usage(w io.Writer) {
	fmt.Fprintln(w, `usage: codemode.wasip1.wasm exec [-e CODE | -f FILE] [--language javascript|typescript] [--config FILE] [--wait]

Runs one Code Mode cell and prints each result as one JSON line (the demo
build, -tags codemode_demo, has the example toolset). Files are read through the WASI host's preopened directories.`)
}

func main() {
	args := os.Args[1:]
	if len(args) == 0 || args[0] != "exec" {
		usage(os.Stderr)
		os.Exit(2)
	}
	os.Exit(cli.Exec(context.Background(), args[1:], cli.Streams{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr}, usage, start))
}

// exampleTools is the example toolset: nil in the shipped module, set by
// demo.go in the demo build.
var exampleTools demo.Tools

// start is exec's cli.Start under WASI: the config file, the example toolset
// in the demo build, no MCP servers.
func start(ctx context.Context, file string, stderr io.Writer) (*core.Runtime, func(), int) {
	cfg := serverconfig.Default()
	var err error
	if file != "" {
		cfg, err = serverconfig.Load(file)
	}
	if err == nil {
		err = cfg.RequireEnabled()
	}
	if err == nil && len(cfg.MCPServers) > 0 {
		err = fmt.Errorf("%s: mcpServers cannot be used under WASI (no processes, no sockets); remove them", file)
	}
	if err == nil && len(cfg.OpenAPI) > 0 {
		err = fmt.Errorf("%s: openapi cannot be used under WASI (no sockets for its requests); remove it", file)
	}
	if err != nil {
		fmt.Fprintf(stderr, "codemode: config: %v\n", err)
		return nil, nil, 2
	}
	tools, ns, err := exampleTools.Select(cfg.ExampleTools)
	if err != nil { // only a config file can ask for them: name it
		fmt.Fprintf(stderr, "codemode: config: %s: %v\n", file, err)
		return nil, nil, 2
	}
	rt, err := core.New(ctx, core.Options{Config: cfg.CodeMode, Namespaces: ns,
		Tools: func(context.Context, core.Scope) ([]catalog.Tool, error) { return tools, nil }})
	if err != nil {
		fmt.Fprintf(stderr, "codemode: %v\n", err)
		var ue *core.UnavailableError
		if errors.As(err, &ue) {
			return nil, nil, 1
		}
		return nil, nil, 2
	}
	return rt, func() { rt.Close(ctx) }, 0
}
