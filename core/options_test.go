package core_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/codemode-go/codemode/core"
	"github.com/codemode-go/codemode/internal/config"
)

func TestNewSaysHowToFixItsOptions(t *testing.T) {
	enabled := config.Default()
	enabled.Enabled = true
	npmWasm := filepath.Join("..", "node_modules", "quickjs-wasi", "quickjs.wasm")
	if _, err := os.Stat(npmWasm); err != nil {
		t.Fatalf("%s: run ./build.sh deps", err)
	}
	for _, tc := range []struct {
		name        string
		opts        core.Options
		unavailable bool
		want        []string // nil: New succeeds
	}{
		{name: "zero config", opts: core.Options{}, want: []string{"core.Options.Config is not set", "config.Default()", "cfg.Enabled = true"}},
		{name: "disabled", opts: core.Options{Config: config.Default()}, want: []string{"disabled", "cfg.Enabled = true"}},
		{name: "missing wasm path", opts: core.Options{Config: enabled, Engine: core.EngineConfig{QuickJSWasmPath: "nope/quickjs.wasm"}}, unavailable: true,
			want: []string{`QuickJSWasmPath "nope/quickjs.wasm" does not exist`, "npm i quickjs-wasi@3.7.0", "node_modules/quickjs-wasi/quickjs.wasm"}},
		{name: "wrong wasm bytes", opts: core.Options{Config: enabled, Engine: core.EngineConfig{QuickJSWasm: []byte("\x00asm")}}, unavailable: true,
			want: []string{"QuickJSWasm: quickjs.wasm has sha256", "npm i quickjs-wasi@3.7.0"}},
		{name: "npm wasm path", opts: core.Options{Config: enabled, Engine: core.EngineConfig{QuickJSWasmPath: npmWasm}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rt, err := core.New(context.Background(), tc.opts)
			if tc.want == nil {
				if err != nil {
					t.Fatal(err)
				}
				defer rt.Close(context.Background())
				if r := exec(t, rt, `return 6 * 7`); string(r.Value) != "42" {
					t.Fatalf("result = %+v", r)
				}
				return
			}
			if err == nil {
				rt.Close(context.Background())
				t.Fatal("New succeeded")
			}
			var ue *core.UnavailableError
			if errors.As(err, &ue) != tc.unavailable {
				t.Errorf("UnavailableError = %v for %v", !tc.unavailable, err)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
		})
	}
}
