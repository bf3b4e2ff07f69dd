package engine_test

import (
	"testing"

	"github.com/codemode-go/codemode/internal/engine"
)

// aliasing is a Memory whose View aliases its bytes (as wazero's does).
type aliasing struct{ b []byte }

func (m *aliasing) Size() uint32                    { return uint32(len(m.b)) }
func (m *aliasing) Grow(uint32) (uint32, bool)      { return 0, false }
func (m *aliasing) Write(off uint32, p []byte) bool { return copy(m.b[off:], p) == len(p) }
func (m *aliasing) View(off, n uint32) ([]byte, bool) {
	if uint64(off)+uint64(n) > uint64(len(m.b)) {
		return nil, false
	}
	return m.b[off : off+n], true
}

// copying is a Memory whose View copies (as the syscall/js engine's does).
type copying struct{ aliasing }

func (m *copying) View(off, n uint32) ([]byte, bool) {
	v, ok := m.aliasing.View(off, n)
	return append([]byte(nil), v...), ok
}
func (m *copying) ViewCopies() {}

func TestCopyNeverAliasesEngineMemory(t *testing.T) {
	for _, tc := range []struct {
		name string
		mem  engine.Memory
	}{
		{"aliasing view", &aliasing{[]byte("abcdef")}},
		{"copying view", &copying{aliasing{[]byte("abcdef")}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := engine.Copy(tc.mem, 1, 3)
			if !ok || string(got) != "bcd" {
				t.Fatalf("Copy = %q, %v; want \"bcd\", true", got, ok)
			}
			tc.mem.Write(1, []byte("XYZ"))
			if string(got) != "bcd" {
				t.Fatalf("the copy changed with the memory: %q", got)
			}
			if _, ok := engine.Copy(tc.mem, 4, 3); ok {
				t.Fatal("Copy past the end answered ok")
			}
		})
	}
}
