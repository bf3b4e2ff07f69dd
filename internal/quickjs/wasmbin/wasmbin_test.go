package wasmbin

import (
	"bytes"
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
