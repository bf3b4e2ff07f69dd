package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCheckMetricsAddrAcceptsLoopbackOnly(t *testing.T) {
	for _, c := range []struct {
		addr, wantErr string
	}{
		{"127.0.0.1:9090", ""}, {"127.0.0.1:0", ""}, {"[::1]:9090", ""}, {"localhost:9090", ""},
		{"0.0.0.0:9090", "listens on loopback only"}, {":9090", "listens on loopback only"},
		{"192.168.1.5:9090", "listens on loopback only"}, {"[::]:9090", "listens on loopback only"},
		{"example.com:9090", "listens on loopback only"},
		{"127.0.0.1", "must be host:port"}, {"127.0.0.1:", "must be host:port"}, {"", "must be host:port"},
	} {
		err := checkMetricsAddr(c.addr)
		if (c.wantErr == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), c.wantErr)) {
			t.Errorf("checkMetricsAddr(%q) = %v, want error containing %q", c.addr, err, c.wantErr)
		}
	}
}

func TestMetricsHandlerServesFiguresAndNothingElse(t *testing.T) {
	h := metricsHandler(func() int { return 7 })
	for _, c := range []struct {
		method, path string
		status       int
	}{
		{"GET", "/metrics", 200}, {"HEAD", "/metrics", 200}, {"POST", "/metrics", 405},
		{"GET", "/", 404}, {"GET", "/debug/vars", 404}, {"GET", "/v1/exec", 404},
	} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(c.method, c.path, nil))
		if rec.Code != c.status {
			t.Errorf("%s %s: status %d, want %d", c.method, c.path, rec.Code, c.status)
		}
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	var m metrics
	if err := json.Unmarshal(rec.Body.Bytes(), &m); err != nil {
		t.Fatalf("body is not JSON: %v: %s", err, rec.Body)
	}
	if m.Goroutines < 1 || m.HeapAllocBytes == 0 || m.SysBytes == 0 || m.SuspendedRuns != 7 {
		t.Errorf("figures %+v", m)
	}
	if ct := rec.Header().Get("Content-Type"); ct != "application/json" {
		t.Errorf("Content-Type %q", ct)
	}
}

func TestServeRefusesNonLoopbackMetricsAddr(t *testing.T) {
	var out, errb bytes.Buffer
	code := serveCmd(context.Background(), []string{"--addr", "127.0.0.1:0", "--metrics-addr", "0.0.0.0:9090"}, &out, &errb)
	if code != 2 || !strings.Contains(errb.String(), "refusing --metrics-addr 0.0.0.0:9090") || out.Len() != 0 {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out.String(), errb.String())
	}
}

// TestServeMetricsAddrServesFiguresApartFromTheAPI: with --metrics-addr the
// figures answer on their own loopback listener and count suspended runs;
// the public listener has no /metrics.
func TestServeMetricsAddrServesFiguresApartFromTheAPI(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	maddr := ln.Addr().String()
	ln.Close()
	cfg := filepath.Join(t.TempDir(), "server.json5")
	os.WriteFile(cfg, []byte(`{ listen: "127.0.0.1:0", tools: { codeMode: { enabled: true } } }`), 0o644)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	base, exit, stderr := startServe(t, ctx, "--config", cfg, "--static", t.TempDir(), "--metrics-addr", maddr)
	r := postJSON(t, base+"/v1/exec", `{"code":"await yield_control('hold'); return 1","scope":{}}`)
	if r["status"] != "waiting" {
		t.Fatalf("exec answered %v", r)
	}
	resp, err := http.Get("http://" + maddr + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	var m metrics
	err = json.NewDecoder(resp.Body).Decode(&m)
	resp.Body.Close()
	if err != nil || m.Goroutines < 1 || m.SuspendedRuns != 1 {
		t.Errorf("metrics %+v, %v", m, err)
	}
	if !strings.Contains(stderr.String(), `msg="metrics listening" url=http://`+maddr+"/metrics") {
		t.Errorf("no metrics log line:\n%s", stderr.String())
	}
	resp, err = http.Get(base + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if strings.Contains(string(body), "goroutines") {
		t.Errorf("the public listener serves the figures: %d %s", resp.StatusCode, body)
	}
	cancel()
	if code := <-exit; code != 0 {
		t.Fatalf("exit %d", code)
	}
	if _, err := http.Get("http://" + maddr + "/metrics"); err == nil {
		t.Error("the metrics listener is still open after shutdown")
	}
}
