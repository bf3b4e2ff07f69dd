package main

// The soak's Worker target (./build.sh soak-worker): the built Worker
// (build/worker) on local workerd through `wrangler dev --local`, started and
// stopped like tests/worker's harness, with workerd's own process read from
// /proc for RSS.
//
// The soak talks to the workerd that runs the Worker, not to wrangler's dev
// proxy in front of it (a second workerd that exists only under wrangler dev):
// that proxy answers 503 "Your worker restarted mid-request" to a POST whose
// hop to the Worker hit a network error (it retries only GET and HEAD), seen
// once in a few hundred requests right after a client disconnect or on
// concurrent first requests, and its own memory grows with the requests it
// relays. Neither is the Worker's behaviour, and Cloudflare has no such proxy.

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"time"

	"github.com/codemode-go/codemode/tests/internal/wranglerdev"
)

// workerdTarget is one wrangler dev process group and the workerd in it.
type workerdTarget struct {
	cmd     *exec.Cmd
	url     string
	workerd int // pid of the workerd that runs the Worker: its memory is measured
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

// workerCodeMode is the Worker's CODEMODE_CONFIG for the soak: the example
// toolset, which only the demo build has (./build.sh worker --demo).
func workerCodeMode(timeoutMs, ttl int) string {
	return fmt.Sprintf(`{exampleTools: true, tools: {codeMode: {enabled: true, timeoutMs: %d, snapshotTtlSeconds: %d}}}`, timeoutMs, ttl)
}

// startWorkerd runs the Worker on local workerd (offline, quiet) with the
// soak's two principals, timeoutMs and snapshot TTL, and returns once
// /healthz answers and workerd's pid is known.
func startWorkerd(root string, timeoutMs, ttl int) (*workerdTarget, error) {
	if _, err := os.Stat(filepath.Join(root, "build/worker/front.wasm")); err != nil {
		return nil, fmt.Errorf("build/worker is missing: run ./build.sh worker --demo first (the soak calls the example toolset)")
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
	debugLog := filepath.Join(root, "build", fmt.Sprintf("soak-worker-wrangler-ttl%d.debug.log", ttl))
	os.Remove(debugLog)
	logf, err := os.Create(filepath.Join(root, "build", logName))
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(filepath.Join(root, "node_modules/.bin/wrangler"), "dev", "--local", "-c", "edge/worker/wrangler.jsonc",
		"--ip", "127.0.0.1", "--port", fmt.Sprint(port), "--inspector-port", fmt.Sprint(insp),
		"--show-interactive-dev-session=false", "--log-level", "log", "--compatibility-date", "2026-05-03",
		"--persist-to", state, "--var", "CODEMODE_TOKENS:"+string(tokens), "--var", "CODEMODE_CONFIG:"+workerCodeMode(timeoutMs, ttl),
		"--var", "CODEMODE_DEBUG_INSTANCES:true") // GET /debug/front-instances: the cores' goroutines
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "WRANGLER_SEND_METRICS=false", "WRANGLER_SEND_ERROR_REPORTS=false",
		"CLOUDFLARE_CF_FETCH_ENABLED=false", "WRANGLER_HIDE_BANNER=true", "WRANGLER_LOG_PATH="+debugLog)
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
	if w.workerd = wranglerdev.FindWorkerd(cmd.Process.Pid); w.workerd == 0 {
		w.stop()
		return nil, fmt.Errorf("no workerd process with --inspector-addr (the one running the Worker) in wrangler's process group")
	}
	direct, err := wranglerdev.WorkerURL(debugLog)
	if err == nil {
		err = healthy(direct)
	}
	if err != nil {
		w.stop()
		return nil, fmt.Errorf("the Worker's own address: %v (see %s)", err, filepath.Base(debugLog))
	}
	w.url = direct
	return w, nil
}

func healthy(url string) error {
	resp, err := http.Get(url + "/healthz")
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s/healthz: status %d", url, resp.StatusCode)
	}
	return nil
}

func (w *workerdTarget) base() string { return w.url }

func (w *workerdTarget) rss() int { return procStatus(w.workerd, `VmRSS:\s+(\d+) kB`) }

func (w *workerdTarget) threads() int { return procStatus(w.workerd, `Threads:\s+(\d+)`) }

// goroutines sums the goroutines of the session objects' Go cores (wasm in
// workerd's isolate, so no process shows them): the Worker's debug route
// asks each live core's stats(). -1 if the route does not answer.
func (w *workerdTarget) goroutines() int {
	s, err := w.instances()
	if err != nil {
		return -1
	}
	return s.Goroutines
}

// instanceStats is GET /debug/front-instances: the front's Go programs
// running (0 or 1) and ever started in the isolate, and the session objects'
// cores with their goroutines and heap.
type instanceStats struct {
	Live, Started, Objects, Goroutines int
	HeapBytes                          int64
}

func (w *workerdTarget) instances() (instanceStats, error) {
	var s instanceStats
	resp, err := http.Get(w.url + "/debug/front-instances")
	if err != nil {
		return s, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return s, fmt.Errorf("/debug/front-instances: status %d", resp.StatusCode)
	}
	return s, json.NewDecoder(resp.Body).Decode(&s)
}

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
