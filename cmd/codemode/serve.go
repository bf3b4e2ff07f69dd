package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"runtime/debug"
	"sync"
	"syscall"
	"time"

	"github.com/codemode-go/codemode/edge"
	"github.com/codemode-go/codemode/edge/mcpserver"
	"github.com/codemode-go/codemode/internal/serverconfig"
)

// defaultStaticDir is where ./build.sh build writes the web IDE; serve uses it
// when it exists and no other directory is configured.
const defaultStaticDir = "build/web"

// defaultGrace bounds how long in-flight requests may finish after a signal.
const defaultGrace = 15 * time.Second

// abortWait bounds how long requests cut off after the grace period take to
// notice: their contexts are canceled, so a running cell ends as aborted.
const abortWait = 5 * time.Second

// serveCmd is codemode serve: it runs until ctx ends or SIGINT/SIGTERM, then
// shuts down gracefully (in-flight requests finish within the grace period,
// suspended runs are dropped with one log line, MCP stdio children stop).
func serveCmd(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	addr := fs.String("addr", "", "listen address host:port (default: the config's listen, else "+serverconfig.DefaultListen+")")
	cfgFile := fs.String("config", "", "server config file (JSON or JSON5)")
	static := fs.String("static", "", "directory served at / (default: the config's staticDir, else "+defaultStaticDir+" when it exists)")
	grace := fs.Duration("grace", defaultGrace, "how long in-flight requests may finish after SIGINT/SIGTERM")
	metricsAddr := fs.String("metrics-addr", "", "opt-in: serve runtime figures (goroutines, heap, suspended runs) as JSON at GET /metrics on this loopback host:port; off by default")
	cfg, ok := parseServerArgs(fs, cfgFile, args, stderr)
	if !ok {
		return 2
	}
	listen := cfg.Listen
	if *addr != "" {
		listen = *addr
	}
	if err := checkExposure(listen, len(cfg.Tokens) > 0); err != nil {
		fmt.Fprintf(stderr, "codemode serve: %v\n", err)
		return 2
	}
	if *metricsAddr != "" {
		if err := checkMetricsAddr(*metricsAddr); err != nil {
			fmt.Fprintf(stderr, "codemode serve: %v\n", err)
			return 2
		}
	}
	dir := cfg.StaticDir
	if *static != "" {
		dir = *static
	} else if dir == "" {
		if fi, err := os.Stat(defaultStaticDir); err == nil && fi.IsDir() {
			dir = defaultStaticDir
		}
	}
	log := slog.New(slog.NewTextHandler(stderr, nil))

	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	env, code := startRuntime(ctx, cfg, log, stderr)
	if env == nil {
		return code
	}
	mcpSrv := mcpserver.New(env.rt, mcpserver.Options{Version: version(), Logger: log, MaxBodyBytes: cfg.MaxBodyBytes})
	defer mcpSrv.Close()
	h, err := edge.New(env.rt, edge.Options{
		Tokens: cfg.Tokens, AllowedOrigins: cfg.AllowedOrigins, MaxBodyBytes: cfg.MaxBodyBytes,
		StaticDir: dir, Logger: log, Version: version(), MCP: mcpSrv.HTTPHandler(),
		// checkExposure allowed no tokens only on loopback: then answer only
		// loopback names, so a web page cannot reach the API by DNS rebinding.
		LoopbackHostsOnly: len(cfg.Tokens) == 0,
	})
	if err != nil {
		env.close(context.Background())
		fmt.Fprintf(stderr, "codemode serve: %v\n", err)
		return 2
	}
	ln, err := net.Listen("tcp", listen)
	if err != nil {
		env.close(context.Background())
		fmt.Fprintf(stderr, "codemode serve: cannot listen on %s: %v\n", listen, err)
		return 1
	}
	if *metricsAddr != "" {
		mln, err := net.Listen("tcp", *metricsAddr)
		if err != nil {
			ln.Close()
			env.close(context.Background())
			fmt.Fprintf(stderr, "codemode serve: cannot listen on --metrics-addr %s: %v\n", *metricsAddr, err)
			return 1
		}
		msrv := &http.Server{Handler: metricsHandler(env.rt.Suspended), ReadHeaderTimeout: 10 * time.Second}
		go msrv.Serve(mln)
		defer msrv.Close()
		log.Info("metrics listening", "url", "http://"+mln.Addr().String()+"/metrics")
	}
	var inflight sync.WaitGroup
	counted := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		inflight.Add(1)
		defer inflight.Done()
		h.ServeHTTP(w, r)
	})
	srv := &http.Server{Handler: counted, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute,
		ErrorLog: slog.NewLogLogger(log.Handler(), slog.LevelWarn)}
	fmt.Fprintf(stdout, "codemode serving on http://%s\n", ln.Addr())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()

	select {
	case err := <-done:
		env.close(context.Background())
		fmt.Fprintf(stderr, "codemode serve: %v\n", err)
		return 1
	case <-ctx.Done():
	}
	log.Info("shutting down", "grace", *grace)
	mcpSrv.Close() // ends the MCP sessions' open event streams, which would hold Shutdown to the grace period
	sctx, cancel := context.WithTimeout(context.Background(), *grace)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		log.Warn("in-flight requests cut off after the grace period", "grace", *grace)
		srv.Close() // cancels their contexts: running cells end as aborted
		waited := make(chan struct{})
		go func() { inflight.Wait(); close(waited) }()
		select {
		case <-waited:
		case <-time.After(abortWait):
			log.Warn("requests still running after the cut-off", "waited", abortWait)
		}
	}
	log.Info("dropped suspended runs", "count", env.rt.Suspended())
	env.close(context.Background())
	log.Info("stopped", "mcpServers", len(env.servers))
	return 0
}

// checkExposure refuses to serve beyond loopback without a token: the API runs
// code and calls tools for whoever reaches it.
func checkExposure(listen string, haveTokens bool) error {
	host, _, err := net.SplitHostPort(listen)
	if err != nil {
		return fmt.Errorf("listen address %q must be host:port", listen)
	}
	if haveTokens || isLoopback(host) {
		return nil
	}
	return fmt.Errorf("refusing to listen on %s without a token: beyond loopback every caller could run code and call tools; add auth.tokens to the config (see examples/codemode.json5) or listen on 127.0.0.1", listen)
}

func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// version is the module version the binary was built from, or "dev".
func version() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "dev"
}
