package quickjs

import (
	"encoding/binary"
	"math/bits"
)

// The snapshot's diff of a changed chunk against its template, eight bytes at
// a time: a byte-by-byte scan of the changed 4 KB chunks was most of the CPU
// of a yield + wait (~140 us per snapshot), since a changed chunk is mostly
// equal bytes around a few changed ones.

// firstDiff returns the index of the first byte at or after i where a and b
// differ, or len(a). b is at least as long as a.
func firstDiff(a, b []byte, i int) int {
	b = b[:len(a)]
	for ; i+32 <= len(a); i += 32 {
		x0 := binary.LittleEndian.Uint64(a[i:]) ^ binary.LittleEndian.Uint64(b[i:])
		x1 := binary.LittleEndian.Uint64(a[i+8:]) ^ binary.LittleEndian.Uint64(b[i+8:])
		x2 := binary.LittleEndian.Uint64(a[i+16:]) ^ binary.LittleEndian.Uint64(b[i+16:])
		x3 := binary.LittleEndian.Uint64(a[i+24:]) ^ binary.LittleEndian.Uint64(b[i+24:])
		if x0|x1|x2|x3 != 0 {
			break
		}
	}
	for ; i+8 <= len(a); i += 8 {
		if x := binary.LittleEndian.Uint64(a[i:]) ^ binary.LittleEndian.Uint64(b[i:]); x != 0 {
			return i + bits.TrailingZeros64(x)/8
		}
	}
	for ; i < len(a); i++ {
		if a[i] != b[i] {
			return i
		}
	}
	return len(a)
}

// runEnd returns the end of the changed run that starts at i (a[i] != b[i]):
// the start of the first stretch of gapMerge (8) equal bytes after it, or,
// when there is none before the end, the index after its last changed byte.
// Shorter equal gaps stay inside the run, since a new run's header would cost
// about as much as they do. It looks at eight bytes at p at once: if they are
// all equal the stretch starts at p, else no stretch can start at or before
// the last changed one among them, so it goes on right after that one.
func runEnd(a, b []byte, i int) int {
	// One word is one stretch: this fails to compile unless gapMerge is 8.
	const _ = uint(gapMerge-8) + uint(8-gapMerge)
	b = b[:len(a)]
	p := i + 1
	for p+gapMerge <= len(a) {
		x := binary.LittleEndian.Uint64(a[p:]) ^ binary.LittleEndian.Uint64(b[p:])
		if x == 0 {
			return p
		}
		p += 8 - bits.LeadingZeros64(x)/8
	}
	for j := len(a) - 1; j >= p; j-- {
		if a[j] != b[j] {
			return j + 1
		}
	}
	return p
}

// appendRuns appends the changed runs of cur against ref (same length) to
// data in the snapshot's format, off being cur's address and prevEnd the end
// of the previous run; it returns the new data and end.
func appendRuns(data []byte, cur, ref []byte, off, prevEnd uint32) ([]byte, uint32) {
	for i := firstDiff(cur, ref, 0); i < len(cur); {
		j := runEnd(cur, ref, i)
		at := off + uint32(i)
		data = binary.AppendUvarint(data, uint64(at-prevEnd))
		data = binary.AppendUvarint(data, uint64(j-i))
		data = append(data, cur[i:j]...)
		prevEnd = at + uint32(j-i)
		i = firstDiff(cur, ref, j)
	}
	return data, prevEnd
}
