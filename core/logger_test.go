package core_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/codemode-go/codemode/core"
	"github.com/codemode-go/codemode/internal/catalog"
	"github.com/codemode-go/codemode/internal/config"
	"github.com/codemode-go/codemode/internal/engine"
	"github.com/codemode-go/codemode/internal/engine/wazeroengine"
	"github.com/codemode-go/codemode/internal/hostopts"
	"github.com/codemode-go/codemode/internal/namespace"
)

// logBuffer is a concurrency-safe slog sink: tools run on their own goroutines.
type logBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func (l *logBuffer) logger() *slog.Logger { return slog.New(slog.NewJSONHandler(l, nil)) }

// What the host must see and the model must not goes to Options.Logger: the
// panic value of a tool, the Spec field of a tool left out, a broken namespace.
func TestLoggerGetsWhatTheModelMustNotSee(t *testing.T) {
	const secret = "db password hunter2"
	panicky := catalog.Func(catalog.Spec{Name: "panicky", Description: "Panics.", Owner: "p", Origin: catalog.OriginBundledPlugin},
		func(context.Context, json.RawMessage) (any, error) { panic(secret) })
	ownerless := catalog.Func(catalog.Spec{Name: "ownerless", Description: "No owner.", Origin: catalog.OriginBundledPlugin},
		func(context.Context, json.RawMessage) (any, error) { return 1, nil })
	broken := namespace.NewRegistry()
	if err := broken.RegisterForPlugin("p", namespace.Registration{ID: "broken", GlobalName: "Broken", RequiredToolNames: []string{"panicky"},
		CreateScope: func(namespace.ScopeContext) (any, error) {
			return nil, errors.New("scope store at /srv/secret is down")
		}}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name      string
		code      string
		ns        *namespace.Registry
		wantModel string // in the result the model sees
		wantLog   []string
	}{
		{name: "tool panic", code: `return await tools.callValue("openclaw:p:panicky", {})`,
			wantModel: "failed unexpectedly", wantLog: []string{`"msg":"code mode: a tool panicked"`, secret, `"tool":"openclaw:p:panicky"`, `"stack":"goroutine`}},
		{name: "owner-less tool", code: `return ALL_TOOLS.map((t) => t.id)`,
			wantModel: `"openclaw:p:panicky"`, wantLog: []string{`"msg":"code mode: tool left out of the catalog"`, `tool \"ownerless\" (source openclaw) has an empty Spec.Owner`}},
		// A broken namespace is skipped (issue 8): the cell runs, the host hears why.
		{name: "broken namespace", code: `return 1`, ns: broken,
			wantModel: `"value":1`, wantLog: []string{`"msg":"code mode: broken plugin namespace skipped"`, "/srv/secret is down"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var logs logBuffer
			rt := newRuntimeOver(t, []catalog.Tool{panicky, ownerless}, nil, func(o *core.Options) {
				o.Logger = logs.logger()
				o.Namespaces = tc.ns
			})
			r := exec(t, rt, tc.code)
			seen, _ := json.Marshal(r)
			if !strings.Contains(string(seen), tc.wantModel) {
				t.Errorf("result %s does not say %q", seen, tc.wantModel)
			}
			if strings.Contains(string(seen), secret) || strings.Contains(string(seen), "/srv/secret") || strings.Contains(string(seen), "goroutine") {
				t.Errorf("the model sees host detail: %s", seen)
			}
			for _, w := range tc.wantLog {
				if !strings.Contains(logs.String(), w) {
					t.Errorf("log lacks %q:\n%s", w, logs.String())
				}
			}
		})
	}
}

// An engine whose instances trap on demand, to reach the VM-trap path the real
// engine only takes on a bug.
type trapEngine struct {
	engine.Engine
	armed *atomic.Bool
}

func (e trapEngine) Load(ctx context.Context, wasm []byte, imports []engine.Import) (engine.Module, error) {
	m, err := e.Engine.Load(ctx, wasm, imports)
	return trapModule{m, e.armed}, err
}

type trapModule struct {
	engine.Module
	armed *atomic.Bool
}

func (m trapModule) Instantiate(ctx context.Context, h engine.Host) (engine.Instance, error) {
	i, err := m.Module.Instantiate(ctx, h)
	return trapInstance{i, m.armed}, err
}

type trapInstance struct {
	engine.Instance
	armed *atomic.Bool
}

func (i trapInstance) Call(export string, args ...uint64) (uint64, error) {
	if i.armed.Load() && strings.Contains(export, "eval") {
		return 0, errors.New("wasm error: unreachable")
	}
	return i.Instance.Call(export, args...)
}

func TestLoggerGetsEngineTraps(t *testing.T) {
	ctx := context.Background()
	w, err := wazeroengine.New(ctx, wazeroengine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	armed := new(atomic.Bool)
	var logs logBuffer
	cfg := config.Default()
	cfg.Enabled = true
	opts := core.Options{Config: cfg, Logger: logs.logger()}
	hostopts.Of(&opts).Engine = trapEngine{w, armed}
	rt, err := core.New(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close(ctx)
	armed.Store(true)
	r := exec(t, rt, `return 1`)
	if r.Code != core.CodeRuntimeUnavailable || strings.Contains(r.Error, "unreachable") {
		t.Fatalf("result = %+v", r)
	}
	for _, w := range []string{`"msg":"code mode: the QuickJS-WASI VM trapped and was discarded"`, "wasm error: unreachable"} {
		if !strings.Contains(logs.String(), w) {
			t.Errorf("log lacks %q:\n%s", w, logs.String())
		}
	}
}
