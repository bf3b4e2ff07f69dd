package quickjs

import (
	"bytes"
	"encoding/binary"
	"testing"
)

// bytewiseRuns is the byte-by-byte diff the snapshot used before appendRuns:
// the oracle appendRuns must agree with, run for run.
func bytewiseRuns(data, cur, ref []byte, off, prevEnd uint32) ([]byte, uint32) {
	for i := 0; i < len(cur); {
		if cur[i] == ref[i] {
			i++
			continue
		}
		j, same := i+1, 0
		for ; j < len(cur) && same < gapMerge; j++ {
			if cur[j] == ref[j] {
				same++
			} else {
				same = 0
			}
		}
		j -= same
		at := off + uint32(i)
		data = binary.AppendUvarint(data, uint64(at-prevEnd))
		data = binary.AppendUvarint(data, uint64(j-i))
		data = append(data, cur[i:j]...)
		prevEnd = at + uint32(j-i)
		i = j
	}
	return data, prevEnd
}

// applyRuns writes runs over a copy of ref (at address off, the runs
// counting from prevEnd), as Snapshot.apply does.
func applyRuns(ref, data []byte, off, prevEnd uint32) []byte {
	out := append([]byte(nil), ref...)
	at := uint64(prevEnd)
	for len(data) > 0 {
		gap, n1 := binary.Uvarint(data)
		length, n2 := binary.Uvarint(data[n1:])
		data = data[n1+n2:]
		at += gap
		copy(out[at-uint64(off):], data[:length])
		at += length
		data = data[length:]
	}
	return out
}

func checkRuns(t *testing.T, cur, ref []byte) {
	t.Helper()
	const off, prev = 4096, 100
	got, gotEnd := appendRuns(nil, cur, ref, off, prev)
	want, wantEnd := bytewiseRuns(nil, cur, ref, off, prev)
	if !bytes.Equal(got, want) || gotEnd != wantEnd {
		t.Fatalf("cur %x ref %x:\n got %x (end %d)\nwant %x (end %d)", cur, ref, got, gotEnd, want, wantEnd)
	}
	if back := applyRuns(ref, got, off, prev); !bytes.Equal(back, cur) {
		t.Fatalf("runs do not rebuild cur: %x, want %x", back, cur)
	}
}

// TestAppendRunsMatchesBytewiseDiff: the word-at-a-time diff of a changed
// chunk produces exactly the runs of the byte-by-byte one (so snapshots keep
// their size and format), and those runs rebuild the chunk over its template.
func TestAppendRunsMatchesBytewiseDiff(t *testing.T) {
	ref := make([]byte, chunk)
	for i := range ref {
		ref[i] = byte(i*7 + i>>8)
	}
	tests := []struct {
		name   string
		change func(cur []byte)
	}{
		{"equal", func([]byte) {}},
		{"first byte", func(c []byte) { c[0]++ }},
		{"last byte", func(c []byte) { c[len(c)-1]++ }},
		{"one byte mid-word", func(c []byte) { c[1003]++ }},
		{"gap of 7 joins", func(c []byte) { c[100]++; c[108]++ }},
		{"gap of 8 splits", func(c []byte) { c[100]++; c[109]++ }},
		{"gap across a word boundary", func(c []byte) { c[13]++; c[22]++; c[23]++ }},
		{"dense stretch", func(c []byte) {
			for i := 500; i < 1500; i++ {
				c[i] ^= 0xff
			}
		}},
		{"every other byte", func(c []byte) {
			for i := 0; i < len(c); i += 2 {
				c[i]++
			}
		}},
		{"every ninth byte", func(c []byte) {
			for i := 0; i < len(c); i += 9 {
				c[i]++
			}
		}},
		{"trailing changes with short gap to the end", func(c []byte) { c[len(c)-5]++ }},
		{"all", func(c []byte) {
			for i := range c {
				c[i]++
			}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for _, n := range []int{chunk, chunk - 3, 17, 9, 8, 7, 1} { // short tail chunks too
				cur := append([]byte(nil), ref...)
				tc.change(cur)
				checkRuns(t, cur[:n], ref[:n])
			}
		})
	}
}

// FuzzAppendRuns: for any chunk and template the fast diff equals the
// bytewise one. The fuzzer's bytes pick which template bytes change.
func FuzzAppendRuns(f *testing.F) {
	f.Add([]byte{0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1})
	f.Add(bytes.Repeat([]byte{1, 0, 0, 0, 0, 0, 0, 0}, 40))
	f.Fuzz(func(t *testing.T, mask []byte) {
		if len(mask) > 2*chunk {
			return
		}
		ref := make([]byte, len(mask))
		cur := make([]byte, len(mask))
		for i, m := range mask {
			ref[i] = byte(i)
			cur[i] = byte(i) + m
		}
		checkRuns(t, cur, ref)
	})
}
