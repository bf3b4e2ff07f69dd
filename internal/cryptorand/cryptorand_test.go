package cryptorand

import (
	"bytes"
	"testing"
)

func TestRead(t *testing.T) {
	for _, n := range []int{0, 1, 8, 12, 16, 4096, 64 << 10, 64<<10 + 1, 200_000} {
		a, b := make([]byte, n), make([]byte, n)
		Read(a)
		Read(b)
		if n < 8 {
			continue // too short to tell random from fixed
		}
		if bytes.Equal(a, b) {
			t.Errorf("%d bytes: two reads returned the same bytes", n)
		}
		// Every 4 KiB stretch (and a short buffer's whole) is filled: a read
		// past getRandomValues' 64 KiB limit must fill the rest too.
		for off := 0; off < n; off += 4096 {
			part := a[off:min(off+4096, n)]
			if len(part) >= 8 && bytes.Count(part, []byte{0}) == len(part) {
				t.Errorf("%d bytes: bytes %d..%d are all zero", n, off, off+len(part))
			}
		}
	}
}

func TestReadSpreads(t *testing.T) {
	// 64 KiB of random bytes hold every byte value; a fill that stopped
	// early or repeated a pattern would leave some out.
	b := make([]byte, 64<<10)
	Read(b)
	var seen [256]bool
	for _, c := range b {
		seen[c] = true
	}
	for v, ok := range seen {
		if !ok {
			t.Fatalf("byte value %d never appears in 64 KiB", v)
		}
	}
}

func ExampleRead() {
	var id [12]byte
	Read(id[:])
	_ = id // an unguessable run id: "cm_" + hex.EncodeToString(id[:])
}
