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

// planReset splits the template into zero stretches of at least minZeroSpan
// bytes and the copied parts between them; together they cover all of mem.
func planReset(mem []byte) []span {
	var plan []span
	copyFrom := 0
	for i := 0; i < len(mem); {
		if mem[i] != 0 {
			i++
			continue
		}
		j := i
		// Eight bytes a step: the image is 1.5 MB, mostly zero, and a page
		// plans it on V8's baseline code before its first result.
		for j+8 <= len(mem) && binary.LittleEndian.Uint64(mem[j:]) == 0 {
			j += 8
		}
		for j < len(mem) && mem[j] == 0 {
			j++
		}
		if j-i >= minZeroSpan {
			if i > copyFrom {
				plan = append(plan, span{off: uint32(copyFrom), n: uint32(i - copyFrom)})
			}
			plan = append(plan, span{off: uint32(i), n: uint32(j - i), zero: true})
			copyFrom = j
		}
		i = j
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
