package quickjs

import (
	"encoding/binary"

	"github.com/codemode-go/codemode/internal/engine"
)

// span is one step of resetting an instance to its template: clear
// [off, off+n) or copy the template's bytes there.
type span struct {
	off, n uint32
	zero   bool
}

// minZeroSpan is the shortest zero stretch of the template that a reset clears
// rather than copies: shorter ones are not worth a separate call.
const minZeroSpan = 4096

// probeStride is how far apart planReset looks for zero stretches: every
// stretch of minZeroSpan bytes holds a whole 8-byte word at a multiple of it.
const probeStride = minZeroSpan/2 - 8

// planReset splits the template into its maximal zero stretches of at least
// minZeroSpan bytes and the copied parts between them; together they cover
// all of mem. A page plans its 1.5 MB image on V8's baseline code before its
// first result, so the data between stretches is not read byte by byte: one
// word is probed every probeStride bytes, and only a zero probe is widened to
// its stretch (eight bytes a step, then byte by byte at the edges).
func planReset(mem []byte) []span {
	var plan []span
	copyFrom := 0
	word := func(at int) uint64 { return binary.LittleEndian.Uint64(mem[at:]) }
	for probe := 0; probe+8 <= len(mem); probe += probeStride {
		if probe < copyFrom || word(probe) != 0 {
			continue
		}
		i, j := probe, probe+8
		for i-8 >= copyFrom && word(i-8) == 0 {
			i -= 8
		}
		for i > copyFrom && mem[i-1] == 0 {
			i--
		}
		for j+32 <= len(mem) && word(j)|word(j+8)|word(j+16)|word(j+24) == 0 {
			j += 32
		}
		for j+8 <= len(mem) && word(j) == 0 {
			j += 8
		}
		for j < len(mem) && mem[j] == 0 {
			j++
		}
		if j-i < minZeroSpan {
			continue
		}
		if i > copyFrom {
			plan = append(plan, span{off: uint32(copyFrom), n: uint32(i - copyFrom)})
		}
		plan = append(plan, span{off: uint32(i), n: uint32(j - i), zero: true})
		copyFrom = j
	}
	if copyFrom < len(mem) {
		plan = append(plan, span{off: uint32(copyFrom), n: uint32(len(mem) - copyFrom)})
	}
	return plan
}

// reset makes mem[0:len(t.mem)] the template again: every byte, including
// the dead C stack frames of the last run, which must not leak into the next
// one. With an engine.Zeroer it clears the zero stretches and copies the
// rest (clearing 1 MiB of stack is about half the cost of copying it); else
// it writes the whole image.
func (t *template) reset(mem engine.Memory) bool {
	z, ok := mem.(engine.Zeroer)
	if !ok || t.plan == nil {
		return mem.Write(0, t.mem)
	}
	for _, s := range t.plan {
		if s.zero {
			if !z.Zero(s.off, s.n) {
				return false
			}
		} else if !mem.Write(s.off, t.mem[s.off:s.off+s.n]) {
			return false
		}
	}
	return true
}
