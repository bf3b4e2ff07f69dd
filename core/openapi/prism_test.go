package openapi_test

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

	"github.com/codemode-go/codemode/core"
	"github.com/codemode-go/codemode/core/openapi"
	"github.com/codemode-go/codemode/internal/catalog"
	"github.com/codemode-go/codemode/internal/config"
	json "github.com/goccy/go-json"
)

// startPrism serves the example document with the Prism mock server
// (@stoplight/prism-cli, pinned in package.json) on a random loopback port
// and returns its base URL; the test stops it.
func startPrism(t *testing.T) string {
	t.Helper()
	bin, _ := filepath.Abs("../../node_modules/.bin/prism")
	if _, err := os.Stat(bin); err != nil {
		t.Skip("node_modules lacks @stoplight/prism-cli: run ./build.sh deps")
	}
	for attempt := 0; attempt < 3; attempt++ {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		port := ln.Addr().(*net.TCPAddr).Port
		ln.Close()
		cmd := exec.Command(bin, "mock", "--host", "127.0.0.1", "--port", fmt.Sprint(port), petstore)
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		cmd.Stderr = cmd.Stdout
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		ready := make(chan bool, 1)
		var log strings.Builder
		go func() {
			sc := bufio.NewScanner(out)
			for sc.Scan() {
				log.WriteString(sc.Text() + "\n")
				if strings.Contains(sc.Text(), "is listening on") {
					ready <- true
				}
			}
			ready <- false
		}()
		select {
		case ok := <-ready:
			if ok {
				t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
				return fmt.Sprintf("http://127.0.0.1:%d", port)
			}
		case <-time.After(60 * time.Second):
		}
		cmd.Process.Kill()
		cmd.Wait()
		t.Logf("prism did not start (attempt %d): %s", attempt+1, log.String())
	}
	t.Fatal("prism did not start")
	return ""
}

// prismRuntime is a Code Mode runtime over the example document's tools.
func prismRuntime(t *testing.T, base string, opts openapi.Options) *core.Runtime {
	t.Helper()
	opts.Name, opts.BaseURL = "pets", base
	api, err := openapi.Load(petstore, opts)
	if err != nil {
		t.Fatal(err)
	}
	cfg := config.Default()
	cfg.Enabled = true
	cfg.TimeoutMs = 20000
	ctx := context.Background()
	rt, err := core.New(ctx, core.Options{Config: cfg,
		Tools: func(context.Context, core.Scope) ([]catalog.Tool, error) { return api.Tools(), nil }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rt.Close(ctx) })
	return rt
}

func execValue(t *testing.T, rt *core.Runtime, code string) string {
	t.Helper()
	ctx := context.Background()
	sc := core.Scope{AgentID: "prism", SessionID: t.Name()}
	res := rt.Exec(ctx, core.CallInfo{Scope: sc, CallID: "c1"}, core.ExecInput{Code: code})
	for i := 0; res.Status == core.StatusWaiting && i < 10; i++ {
		res = rt.Wait(ctx, core.CallInfo{Scope: sc, CallID: fmt.Sprint("w", i)}, core.WaitInput{RunID: res.RunID})
	}
	if res.Status != core.StatusCompleted {
		b, _ := json.Marshal(res)
		t.Fatalf("%s: %s", code, b)
	}
	return string(res.Value)
}

const apiKey = "prism-test-key-0123456789"

// TestAgainstPrism drives the example document's operations through the
// guest against a mock server nobody here wrote, which checks every request
// against the document (parameters, body, the X-API-Key security scheme).
func TestAgainstPrism(t *testing.T) {
	base := startPrism(t)
	rt := prismRuntime(t, base, openapi.Options{Trusted: true, Headers: map[string]string{"X-API-Key": apiKey}})

	got := execValue(t, rt, `return await tools.listPets({limit: 2, tags: ["dog", "cat"]})`)
	if !strings.Contains(got, `"name":"Rex"`) {
		t.Errorf("listPets: %s", got)
	}
	if got := execValue(t, rt, `return await tools.getPet({petId: 1})`); !strings.Contains(got, `"id":1`) {
		t.Errorf("getPet: %s", got)
	}
	if got := execValue(t, rt, `return await tools.callValue("openclaw:pets:createPet", {body: {name: "Fluffy", tag: "cat"}})`); !strings.Contains(got, `"name":"Fluffy"`) {
		t.Errorf("createPet: %s", got)
	}
	if got := execValue(t, rt, `return await tools.delete_pets_petId({petId: 7})`); got != "null" {
		t.Errorf("delete: %s", got)
	}
	// Bad input never reaches the API: the catalog checks it against the schema.
	if got := execValue(t, rt, `try { await tools.listPets({limit: 1000}); return "sent" } catch (e) { return String(e) }`); !strings.Contains(got, "/limit") {
		t.Errorf("limit 1000: %s", got)
	}
	// The guest sees neither the header nor its value anywhere.
	seen := execValue(t, rt, `const d = await tools.describe("openclaw:pets:getPet");
		return JSON.stringify([ALL_TOOLS, d, await API.read("tools/index.d.ts")])`)
	if strings.Contains(seen, apiKey) || strings.Contains(seen, "X-API-Key") || strings.Contains(seen, base) {
		t.Errorf("the guest saw a credential or the base URL: %.500s", seen)
	}

	// A request the API itself refuses: a looser copy of the document lets
	// limit 1000 past our input check, Prism (serving the real one) refuses
	// it with 422 and the document's default (Problem) answer, and the caller
	// gets the status and an excerpt of that body.
	pet, _ := os.ReadFile(petstore)
	loose, err := openapi.Parse("loose.yaml", []byte(strings.Replace(string(pet), "maximum: 100}", "maximum: 100000}", 1)),
		openapi.Options{Name: "pets", BaseURL: base, Headers: map[string]string{"X-API-Key": apiKey}})
	if err != nil {
		t.Fatal(err)
	}
	var list catalog.Tool
	for _, tl := range loose.Tools() {
		if tl.Spec().Name == "listPets" {
			list = tl
		}
	}
	_, err = list.Execute(context.Background(), catalog.Call{Input: []byte(`{"limit": 1000}`)})
	if err == nil || !strings.Contains(err.Error(), "listPets (GET /pets) answered HTTP 422 Unprocessable Entity: {\"message\":") {
		t.Errorf("limit 1000 at Prism: %v", err)
	}

	// The trusted document's tools are in the quick index with their hints.
	s, err := rt.Surface(context.Background(), core.Scope{AgentID: "prism"}, false)
	if err != nil {
		t.Fatal(err)
	}
	if d := s.Tools[0].Description; !strings.Contains(d, "openclaw:pets:getPet { petId: number } -> { id: number; name: string; tag?: string | null }") {
		t.Errorf("quick index: %s", d[strings.Index(d, "Tools (exact"):])
	}
}

// TestPrismRefusesAMissingKey: without the configured header Prism answers
// 401, which reaches the guest as a catchable error naming the status.
func TestPrismRefusesAMissingKey(t *testing.T) {
	base := startPrism(t)
	rt := prismRuntime(t, base, openapi.Options{})
	got := execValue(t, rt, `try { await tools.getPet({petId: 1}); return "ok" } catch (e) { return String(e) }`)
	if !strings.Contains(got, "getPet (GET /pets/{petId}) answered HTTP 401 Unauthorized") || strings.Contains(got, "127.0.0.1") {
		t.Errorf("without a key: %s", got)
	}
	s, err := rt.Surface(context.Background(), core.Scope{AgentID: "prism"}, false)
	if err != nil {
		t.Fatal(err)
	}
	if d := s.Tools[0].Description; !strings.Contains(d, "openclaw:pets:getPet unknown -> ?") || strings.Contains(d, "One pet by id") {
		t.Errorf("untrusted quick index: %s", d[strings.Index(d, "Tools (exact"):])
	}
}
