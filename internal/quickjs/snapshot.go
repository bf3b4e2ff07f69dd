package quickjs

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"errors"
	"io"
	"maps"
	"sync"
	"time"
)

// chunk is the granularity at which a snapshot looks for what differs from the
// template: a suspended trivial run touches a few dozen of them, not 1.3 MB.
// Inside a changed chunk only the changed byte runs are kept (refcounts and
// pointers change a few bytes here and there), so the whole snapshot of a
// trivial suspended run is a few KB.
const chunk = 4096

// gapMerge joins two changed runs separated by fewer equal bytes than this,
// since a new run's header would cost about as much.
const gapMerge = 8

// Snapshot is a suspended VM: the byte runs of linear memory that differ from the
// template it started from, the stack pointer, the runtime and context pointers,
// and the unhandled rejections the host tracks. It refers to its template in
// memory, so it restores in any Runtime over the same module, on any engine.
type Snapshot struct {
	tmpl              *template
	size              uint32
	sp, rtPtr, ctxPtr uint32
	// data is a sequence of runs: uvarint(offset - end of previous run),
	// uvarint(length), then length bytes of memory; deflated when large.
	data       []byte
	deflated   bool
	rejections map[uint32]rejection
	// grace and graceTicks are what the run had left of its allowance for
	// host-initiated guest code (see GraceTime); Restore hands them on.
	grace      time.Duration
	graceTicks int64
}

// Bytes is what the snapshot keeps on the Go heap: its data buffer (exactly
// sized, see Snapshot), its header and its rejection table. The template it
// refers to is shared and not counted.
func (s *Snapshot) Bytes() int { return cap(s.data) + 64 + 32*len(s.rejections) }

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
	s := &Snapshot{tmpl: vm.tmpl, size: size, sp: vm.inst.StackPointer(), rtPtr: uint32(rt), ctxPtr: uint32(cx), rejections: maps.Clone(vm.rejections), grace: vm.grace, graceTicks: vm.graceTicks}
	var zero [chunk]byte
	scratch := scratchPool.Get().(*[]byte)
	defer putScratch(scratch)
	data := (*scratch)[:0]
	base := vm.tmpl.mem
	var prevEnd uint32
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
		if bytes.Equal(cur, ref) {
			continue
		}
		data, prevEnd = appendRuns(data, cur, ref, off, prevEnd)
	}
	*scratch = data
	if len(data) > deflateAbove {
		var buf bytes.Buffer
		w, _ := flate.NewWriter(&buf, flate.BestSpeed)
		w.Write(data)
		w.Close()
		data, s.deflated = buf.Bytes(), true
	}
	// The runs are collected in a reused scratch buffer; the snapshot keeps an
	// exactly sized copy (growing its own buffer by append left up to twice
	// the length allocated: a snapshot that reported 8.8 MB held 17 MB).
	s.data = append(make([]byte, 0, len(data)), data...)
	return s, nil
}

// scratchPool holds the buffers snapshots collect their runs in, so a
// snapshot allocates only its exactly sized result.
var scratchPool = sync.Pool{New: func() any { return new([]byte) }}

// maxScratch is the largest scratch buffer kept for reuse: a rare huge
// snapshot's buffer is left to the garbage collector.
const maxScratch = 1 << 20

func putScratch(b *[]byte) {
	if cap(*b) <= maxScratch {
		scratchPool.Put(b)
	}
}

// deflateAbove is the size past which a snapshot's runs are deflated: small
// suspended runs stay raw (deflating costs more than they weigh), large ones
// (a run that built megabytes of data) shrink several-fold, which is what
// maxSnapshotBytes is measured against.
const deflateAbove = 64 << 10

// apply writes the snapshot's runs over an instance holding its template (or
// zeros past its end).
func (s *Snapshot) apply(vm *VM) error {
	if err := vm.growTo(s.size); err != nil {
		return err
	}
	d := s.data
	if s.deflated {
		var err error
		if d, err = io.ReadAll(flate.NewReader(bytes.NewReader(d))); err != nil {
			return errors.New("quickjs: corrupt snapshot")
		}
	}
	var at uint64
	for len(d) > 0 {
		gap, n1 := binary.Uvarint(d)
		length, n2 := binary.Uvarint(d[max(n1, 0):])
		if n1 <= 0 || n2 <= 0 || uint64(len(d)-n1-n2) < length {
			return errors.New("quickjs: corrupt snapshot")
		}
		d = d[n1+n2:]
		at += gap
		if at+length > uint64(s.size) || !vm.mem.Write(uint32(at), d[:length]) {
			return errors.New("quickjs: snapshot does not fit")
		}
		at += length
		d = d[length:]
	}
	return nil
}
