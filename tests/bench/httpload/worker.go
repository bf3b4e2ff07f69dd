package main

// The soak's Worker target (./build.sh soak-worker): the built Worker
// (build/worker) on local workerd through `wrangler dev --local`, started and
// stopped like tests/worker's harness, with workerd's own process read from
// /proc for RSS.

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// workerdTarget is one wrangler dev process group and the workerd in it.
type workerdTarget struct {
	cmd     *exec.Cmd
	url     string
	workerd int // pid of workerd, the process whose memory is measured
	done    chan struct{}
	logf    *os.File
}

func freeLoopbackPort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// workerCodeMode is the Worker's CODEMODE_CONFIG for the soak.
func workerCodeMode(timeoutMs, ttl int) string {
	return fmt.Sprintf(`{tools: {codeMode: {enabled: true, timeoutMs: %d, snapshotTtlSeconds: %d}}}`, timeoutMs, ttl)
}

// startWorkerd runs the Worker on local workerd (offline, quiet) with the
// soak's two principals, timeoutMs and snapshot TTL, and returns once
// /healthz answers and workerd's pid is known.
func startWorkerd(root string, timeoutMs, ttl int) (*workerdTarget, error) {
	if _, err := os.Stat(filepath.Join(root, "build/worker/front.wasm")); err != nil {
		return nil, fmt.Errorf("build/worker is missing: run ./build.sh worker first")
	}
	port, err := freeLoopbackPort()
	if err != nil {
		return nil, err
	}
	insp, err := freeLoopbackPort()
	if err != nil {
		return nil, err
	}
	tokens, _ := json.Marshal([]map[string]string{
		{"principal": principals[0].name, "token": principals[0].token},
		{"principal": principals[1].name, "token": principals[1].token}})
	state := filepath.Join(root, "build", "soak-worker-state")
	os.RemoveAll(state)
	logName := fmt.Sprintf("soak-worker-wrangler-ttl%d.log", ttl)
	logf, err := os.Create(filepath.Join(root, "build", logName))
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(filepath.Join(root, "node_modules/.bin/wrangler"), "dev", "--local", "-c", "edge/worker/wrangler.jsonc",
		"--ip", "127.0.0.1", "--port", fmt.Sprint(port), "--inspector-port", fmt.Sprint(insp),
		"--show-interactive-dev-session=false", "--log-level", "log", "--compatibility-date", "2026-05-03",
		"--persist-to", state, "--var", "CODEMODE_TOKENS:"+string(tokens), "--var", "CODEMODE_CONFIG:"+workerCodeMode(timeoutMs, ttl))
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "WRANGLER_SEND_METRICS=false", "WRANGLER_SEND_ERROR_REPORTS=false",
		"CLOUDFLARE_CF_FETCH_ENABLED=false", "WRANGLER_HIDE_BANNER=true", "WRANGLER_LOG_PATH="+filepath.Join(root, "build", "wrangler-logs"))
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		logf.Close()
		return nil, err
	}
	w := &workerdTarget{cmd: cmd, url: fmt.Sprintf("http://127.0.0.1:%d", port), done: make(chan struct{}), logf: logf}
	go func() { cmd.Wait(); close(w.done) }()
	deadline := time.Now().Add(120 * time.Second)
	for {
		select {
		case <-w.done:
			return nil, fmt.Errorf("wrangler exited before it served (see build/%s)", logName)
		default:
		}
		if resp, err := http.Get(w.url + "/healthz"); err == nil {
			resp.Body.Close()
			if resp.StatusCode < 500 {
				break
			}
		}
		if time.Now().After(deadline) {
			w.stop()
			return nil, fmt.Errorf("the Worker did not answer /healthz within 120 s")
		}
		time.Sleep(200 * time.Millisecond)
	}
	if w.workerd = findWorkerd(cmd.Process.Pid); w.workerd == 0 {
		w.stop()
		return nil, fmt.Errorf("no workerd process in wrangler's process group")
	}
	return w, nil
}

// findWorkerd is the pid of the process named workerd in process group pgid.
func findWorkerd(pgid int) int {
	dirs, _ := os.ReadDir("/proc")
	for _, d := range dirs {
		pid, err := strconv.Atoi(d.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			continue
		}
		i := strings.LastIndexByte(string(b), ')')
		open := strings.IndexByte(string(b), '(')
		f := strings.Fields(string(b[i+2:]))
		if open < 0 || len(f) < 3 || string(b[open+1:i]) != "workerd" {
			continue
		}
		if g, _ := strconv.Atoi(f[2]); g == pgid {
			return pid
		}
	}
	return 0
}

func (w *workerdTarget) base() string { return w.url }

func (w *workerdTarget) rss() int { return procStatus(w.workerd, `VmRSS:\s+(\d+) kB`) }

func (w *workerdTarget) threads() int { return procStatus(w.workerd, `Threads:\s+(\d+)`) }

// goroutines is -1: workerd runs the Go cores as wasm inside isolates and
// exposes no count.
func (w *workerdTarget) goroutines() int { return -1 }

// stop ends the process group; the Worker logs no dropped-run count (-1).
func (w *workerdTarget) stop() (int, error) {
	syscall.Kill(-w.cmd.Process.Pid, syscall.SIGTERM)
	select {
	case <-w.done:
	case <-time.After(10 * time.Second):
		syscall.Kill(-w.cmd.Process.Pid, syscall.SIGKILL)
		<-w.done
	}
	w.logf.Close()
	return -1, nil
}

func (w *workerdTarget) kill() { syscall.Kill(-w.cmd.Process.Pid, syscall.SIGKILL) }
