package wasmbin

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestBytesAreThePinnedBinary(t *testing.T) {
	b, err := Bytes()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(b, []byte("\x00asm")) || len(b) != 638148 {
		t.Fatalf("not the pinned quickjs.wasm: %d bytes", len(b))
	}
}

func TestSelect(t *testing.T) {
	good, err := Embedded()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	goodPath := filepath.Join(dir, "quickjs.wasm")
	badPath := filepath.Join(dir, "other.wasm")
	if err := os.WriteFile(goodPath, good, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(badPath, []byte("\x00asm\x01\x00\x00\x00"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		b       []byte
		path    string
		wantErr []string
	}{
		{name: "bytes win over path", b: good, path: badPath},
		{name: "path", path: goodPath},
		{name: "embedded default"},
		{name: "wrong bytes", b: []byte("not wasm"), wantErr: []string{"QuickJSWasm:", "want " + SHA256, "npm i quickjs-wasi@3.7.0"}},
		{name: "wrong file", path: badPath, wantErr: []string{badPath, "want " + SHA256}},
		{name: "missing file", path: filepath.Join(dir, "nope.wasm"), wantErr: []string{"nope.wasm", "does not exist", "npm i quickjs-wasi@3.7.0", NPMPath}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Select(tc.b, tc.path)
			if tc.wantErr == nil {
				if err != nil || !bytes.Equal(got, good) {
					t.Fatalf("Select = %d bytes, %v; want the pinned binary", len(got), err)
				}
				return
			}
			if err == nil {
				t.Fatal("Select accepted a binary that is not the pinned one")
			}
			for _, w := range tc.wantErr {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
		})
	}
}

// The error a go get user meets names the npm command, the path it writes and
// both Options fields; the same text is what tests/gomodule/check.sh follows.
func TestMissingErrorSaysWhatToDo(t *testing.T) {
	err := error(errMissing{})
	if !errors.Is(err, ErrMissing) {
		t.Fatal("errMissing does not match ErrMissing")
	}
	for _, w := range []string{"npm i quickjs-wasi@3.7.0", NPMPath, "QuickJSWasmPath", "QuickJSWasm ", "go get"} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error %q does not say %q", err, w)
		}
	}
}
