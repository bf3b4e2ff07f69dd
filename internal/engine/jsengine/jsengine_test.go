//go:build js && wasm

package jsengine_test

import (
	"os"
	"testing"

	"github.com/codemode-go/codemode/internal/engine/jsengine"
)

// Under hostjs/go_js_wasm_exec.mjs the glue is installed; a suite that silently
// fell back to wazero would prove nothing about the host engine.
func TestGlueInstalledUnderTheRunner(t *testing.T) {
	if os.Getenv("CODEMODE_HOST_ENGINE") != "1" {
		t.Skip("not run by hostjs/go_js_wasm_exec.mjs")
	}
	if !jsengine.Available() {
		t.Fatal("host engine glue missing")
	}
	if _, err := jsengine.New(jsengine.Options{}); err != nil {
		t.Fatal(err)
	}
}
