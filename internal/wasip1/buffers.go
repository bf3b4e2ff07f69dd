package wasip1

import "unsafe"

// MaxBuffer bounds one malloc: a request or result larger than this is refused
// (the core's own bounds are far below it).
const MaxBuffer = 64 << 20

// Buffers are the byte buffers a host exchanges with the module through malloc
// and free. Each is a Go slice kept alive (pinned: Go's collector does not
// move objects) by this table until freed, so its address stays valid in
// linear memory. Only addresses handed out here are ever read: a host's bad
// pointer or length becomes an error, never an out-of-bounds access.
type Buffers struct {
	live map[uintptr][]byte
}

// NewBuffers returns an empty table.
func NewBuffers() *Buffers { return &Buffers{live: map[uintptr][]byte{}} }

// Alloc returns the address of a new zeroed buffer of n bytes, or 0 when n is
// 0 or larger than MaxBuffer.
func (b *Buffers) Alloc(n uint32) uintptr {
	if n == 0 || n > MaxBuffer {
		return 0
	}
	buf := make([]byte, n)
	p := uintptr(unsafe.Pointer(&buf[0]))
	b.live[p] = buf
	return p
}

// Keep pins buf (a result for the host) and returns its address and length.
func (b *Buffers) Keep(buf []byte) (uintptr, uint32) {
	if len(buf) == 0 {
		buf = []byte("null")
	}
	p := uintptr(unsafe.Pointer(&buf[0]))
	b.live[p] = buf
	return p, uint32(len(buf))
}

// Free releases the buffer at p; it reports false (and does nothing) for an
// address that is not a live buffer, so a double free is harmless.
func (b *Buffers) Free(p uintptr) bool {
	if _, ok := b.live[p]; !ok {
		return false
	}
	delete(b.live, p)
	return true
}

// Bytes returns the first n bytes of the live buffer that starts at p.
func (b *Buffers) Bytes(p uintptr, n uint32) ([]byte, bool) {
	buf, ok := b.live[p]
	if !ok || uint64(n) > uint64(len(buf)) {
		return nil, false
	}
	return buf[:n], true
}

// Live is the number of buffers not yet freed (tests check for leaks).
func (b *Buffers) Live() int { return len(b.live) }
