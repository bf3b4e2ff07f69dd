// Package httpapi is the black-box conformance suite of the Code Mode HTTP API:
// it speaks only HTTP, so the same tests run against any server that claims the
// wire contract. With CODEMODE_HTTP_URL (and CODEMODE_HTTP_TOKEN, plus
// CODEMODE_HTTP_TOKEN2 for a second principal) it tests that server, e.g. the
// Worker on local workerd; without, it builds and starts the real
// `codemode serve` on a free 127.0.0.1 port with two principals.
package httpapi

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// target is the server under test.
type target struct {
	url    string
	token  string
	token2 string
	// own is true when the suite started the server itself and so knows its
	// config: timeoutMs 1000 and the example toolset.
	own bool
}

var srv target

func TestMain(m *testing.M) {
	code, err := run(m)
	if err != nil {
		fmt.Fprintln(os.Stderr, "httpapi:", err)
		os.Exit(1)
	}
	os.Exit(code)
}

func run(m *testing.M) (int, error) {
	if u := os.Getenv("CODEMODE_HTTP_URL"); u != "" {
		srv = target{url: strings.TrimRight(u, "/"), token: os.Getenv("CODEMODE_HTTP_TOKEN"), token2: os.Getenv("CODEMODE_HTTP_TOKEN2")}
		return m.Run(), nil
	}
	stop, err := startServe()
	if err != nil {
		return 0, err
	}
	defer stop()
	return m.Run(), nil
}

const (
	ownToken  = "suite-token-alice-0123456789"
	ownToken2 = "suite-token-bob-9876543210"
)

// startServe builds cmd/codemode and runs `codemode serve` on a free port.
func startServe() (func(), error) {
	dir, err := os.MkdirTemp("", "httpapi-")
	if err != nil {
		return nil, err
	}
	bin := filepath.Join(dir, "codemode")
	build := exec.Command("go", "build", "-o", bin, "github.com/codemode-go/codemode/cmd/codemode")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		return nil, fmt.Errorf("go build: %w", err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	addr := ln.Addr().String()
	ln.Close()
	cfg := filepath.Join(dir, "server.json5")
	os.WriteFile(cfg, []byte(`{
  exampleTools: true,
  maxRunningCells: 2,
  tools: { codeMode: { enabled: true, timeoutMs: 1000 } },
  auth: { tokens: [
    { principal: "alice", tokenEnv: "SUITE_TOKEN_ALICE" },
    { principal: "bob", token: "`+ownToken2+`" },
  ] },
}`), 0o600)
	cmd := exec.Command(bin, "serve", "--addr", addr, "--config", cfg, "--static", dir)
	cmd.Env = append(os.Environ(), "SUITE_TOKEN_ALICE="+ownToken)
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	logf, _ := os.Create(filepath.Join(dir, "serve.log"))
	cmd.Stderr = logf
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	stop := func() {
		cmd.Process.Signal(os.Interrupt)
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			cmd.Process.Kill()
			<-done
		}
		logf.Close()
		os.RemoveAll(dir)
	}
	line := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		if sc.Scan() {
			line <- sc.Text()
		}
		for sc.Scan() {
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	select {
	case l := <-line:
		want := "codemode serving on http://" + addr
		if l != want {
			stop()
			return nil, fmt.Errorf("first line %q, want %q", l, want)
		}
	case <-ctx.Done():
		stop()
		return nil, fmt.Errorf("codemode serve did not print its URL within 90 s")
	}
	srv = target{url: "http://" + addr, token: ownToken, token2: ownToken2, own: true}
	return stop, nil
}
