package quickjs

import (
	"bytes"
	"compress/flate"
	"errors"
	"io"
	"maps"
)

// chunk is the granularity at which a snapshot records what differs from the
// template: a suspended trivial run touches a few dozen of them, not 1.3 MB.
const chunk = 4096

// Snapshot is a suspended VM: the chunks of linear memory that differ from the
// template it started from (stored as their XOR with the template, deflated:
// refcount and pointer updates leave mostly zero bytes, which compress away), the stack pointer, the runtime and context pointers,
// and the unhandled rejections the host tracks. It refers to its template in
// memory, so it restores in any Runtime over the same module, on any engine.
type Snapshot struct {
	tmpl              *template
	size              uint32
	sp, rtPtr, ctxPtr uint32
	index             []uint32
	data              []byte
	rejections        map[uint32]rejection
}

// Bytes is what the snapshot holds in memory (its own data, not the template).
func (s *Snapshot) Bytes() int { return len(s.data) + 4*len(s.index) + 64 }

// MemoryBytes is the size of the linear memory it restores.
func (s *Snapshot) MemoryBytes() int { return int(s.size) }

// ErrBusy means a snapshot was asked for while guest code is on the stack.
var ErrBusy = errors.New("quickjs: cannot snapshot while a call is running")

// Snapshot captures the VM. It is only valid between calls.
func (vm *VM) Snapshot() (*Snapshot, error) {
	if vm.dead != nil {
		return nil, vm.dead
	}
	if vm.depth != 0 {
		return nil, ErrBusy
	}
	size := vm.mem.Size()
	mem, ok := vm.mem.View(0, size)
	if !ok {
		return nil, errors.New("quickjs: cannot read memory")
	}
	rt, _ := vm.call("qjs_get_runtime_ptr")
	cx, _ := vm.call("qjs_get_context_ptr")
	s := &Snapshot{tmpl: vm.tmpl, size: size, sp: vm.inst.StackPointer(), rtPtr: uint32(rt), ctxPtr: uint32(cx), rejections: maps.Clone(vm.rejections)}
	var zero [chunk]byte
	var xor []byte
	base := vm.tmpl.mem
	// The C stack grows down from the stack pointer's resting value; with no call
	// running, everything below it is dead frames, equal to the template for
	// every purpose that matters and not worth storing.
	live := s.sp &^ (chunk - 1)
	for off := live; off < size; off += chunk {
		end := min(off+chunk, size)
		cur := mem[off:end]
		var ref []byte
		if int(end) <= len(base) {
			ref = base[off:end]
		} else if int(off) < len(base) {
			ref = append(append([]byte(nil), base[off:]...), zero[:int(end)-len(base)]...)
		} else {
			ref = zero[:end-off]
		}
		if !bytes.Equal(cur, ref) {
			s.index = append(s.index, off/chunk)
			for i := range cur {
				xor = append(xor, cur[i]^ref[i])
			}
		}
	}
	var buf bytes.Buffer
	w, _ := flate.NewWriter(&buf, flate.BestSpeed)
	w.Write(xor)
	w.Close()
	s.data = buf.Bytes()
	return s, nil
}

// apply writes the snapshot's chunks over an instance holding its template.
func (s *Snapshot) apply(vm *VM) error {
	if err := vm.growTo(s.size); err != nil {
		return err
	}
	xor, err := io.ReadAll(flate.NewReader(bytes.NewReader(s.data)))
	if err != nil {
		return errors.New("quickjs: corrupt snapshot")
	}
	pos := 0
	for _, ci := range s.index {
		off := ci * chunk
		n := min(chunk, s.size-off)
		cur, ok := vm.mem.View(off, n)
		if !ok || pos+int(n) > len(xor) {
			return errors.New("quickjs: snapshot does not fit")
		}
		// The instance holds the template (or zeros past it) here, so XOR
		// gives back the snapshot's bytes.
		out := make([]byte, n)
		for i := range out {
			out[i] = cur[i] ^ xor[pos+i]
		}
		vm.mem.Write(off, out)
		pos += int(n)
	}
	return nil
}
