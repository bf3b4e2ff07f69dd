// Package wranglerdev finds the parts of `wrangler dev --local` that the
// Worker's tests, bench and soak talk to: the workerd process that runs the
// Worker, and its own address behind wrangler's proxy.
//
// wrangler dev runs two workerd processes: its proxy on --port (a dev-only
// component; Cloudflare has none) and the workerd that runs the Worker.
//
// Why the tests skip the proxy: the Worker's workerd may close a kept-alive
// connection right after a long answer (a cell that ran into its timeout, a
// first exec that compiled the modules on a loaded machine), and a request
// sent on that connection in the same instant fails with a reset (seen with
// net/http: the failing request had reused a connection idle for ~0.1 ms).
// The proxy reuses its connections to the Worker, and it retries a GET or
// HEAD whose hop failed only at the next reload, which never comes in a test
// run: that request hangs until its client gives up (the "next GET
// /v1/catalog hangs 60 s" after a timed-out cell); a POST gets the proxy's
// 503 "Your worker restarted mid-request". Clients of the Worker's own
// address open a connection per request (or retry idempotent ones, as
// net/http does for a GET).
package wranglerdev

import (
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
)

// userWorkerURL is how wrangler's debug log (WRANGLER_LOG_PATH) names the
// Worker's own address when a (re)load completes: {"type":"reloadComplete",
// "proxyData":{"userWorkerUrl":{"protocol":"http:","hostname":"127.0.0.1","port":"…"}.
var userWorkerURL = regexp.MustCompile(`"reloadComplete","proxyData":\{"userWorkerUrl":\{"protocol":"(https?):","hostname":"([^"]+)","port":"(\d+)"`)

// WorkerURL reads the Worker's own address from the last reload wrangler's
// debug log records.
func WorkerURL(debugLog string) (string, error) {
	b, err := os.ReadFile(debugLog)
	if err != nil {
		return "", err
	}
	m := userWorkerURL.FindAllSubmatch(b, -1)
	if len(m) == 0 {
		return "", fmt.Errorf("wrangler's debug log names no userWorkerUrl")
	}
	last := m[len(m)-1]
	return fmt.Sprintf("%s://%s:%s", last[1], last[2], last[3]), nil
}

// FindWorkerd is the pid of the workerd in process group pgid that runs the
// Worker: wrangler starts it with --inspector-addr. The other workerd there is
// wrangler's proxy, and it comes first in /proc, so the name alone picks the
// wrong process. 0: none.
func FindWorkerd(pgid int) int {
	for _, pid := range Workerds(pgid) {
		args, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
		if strings.Contains(string(args), "\x00--inspector-addr") {
			return pid
		}
	}
	return 0
}

// Workerds are the pids of the workerd processes in process group pgid.
func Workerds(pgid int) []int {
	var out []int
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
		if open < 0 || i < open || string(b[open+1:i]) != "workerd" {
			continue
		}
		if f := strings.Fields(string(b[i+2:])); len(f) < 3 || f[2] != strconv.Itoa(pgid) {
			continue
		}
		out = append(out, pid)
	}
	return out
}
