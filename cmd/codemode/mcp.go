package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/codemode-go/codemode/edge/mcpserver"
)

// mcpCmd is codemode mcp: Code Mode as an MCP server over stdio (stdin and
// stdout carry the protocol; logs go to stderr) over the same config and
// runtime as serve, until the client closes stdin or a signal arrives.
func mcpCmd(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("mcp", flag.ContinueOnError)
	cfgFile := fs.String("config", "", "server config file (JSON or JSON5)")
	cfg, ok := parseServerArgs(fs, cfgFile, args, stderr)
	if !ok {
		return 2
	}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	env, code := startRuntime(ctx, cfg, log, stderr)
	if env == nil {
		return code
	}
	defer env.close(context.Background())
	srv := mcpserver.New(env.rt, mcpserver.Options{Version: version(), Logger: log})
	defer srv.Close()
	t := &sdk.IOTransport{Reader: io.NopCloser(stdin), Writer: nopWriteCloser{stdout}}
	if err := srv.Run(ctx, t); err != nil && ctx.Err() == nil {
		fmt.Fprintf(stderr, "codemode mcp: %v\n", err)
		return 1
	}
	return 0
}

// nopWriteCloser leaves stdout open when the transport closes.
type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }
