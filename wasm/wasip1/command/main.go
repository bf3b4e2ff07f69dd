//go:build wasip1

// Command command is the GOOS=wasip1 command module codemode.wasip1.wasm: the
// native command's exec subcommand (shared through internal/cli) for any WASI
// host. Files (-f, --config) are read through the host's preopened
// directories.
//
//	wazero run -mount .:/data codemode.wasip1.wasm exec -e 'return 1+1'
package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/codemode-go/codemode/internal/cli"
)

func usage(w io.Writer) {
	fmt.Fprintln(w, `usage: codemode.wasip1.wasm exec [-e CODE | -f FILE] [--language javascript|typescript] [--config FILE] [--wait]

Runs one Code Mode cell against the example toolset and prints each result as
one JSON line. Files are read through the WASI host's preopened directories.`)
}

func main() {
	args := os.Args[1:]
	if len(args) == 0 || args[0] != "exec" {
		usage(os.Stderr)
		os.Exit(2)
	}
	os.Exit(cli.Exec(context.Background(), args[1:], cli.Streams{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr}, usage))
}
