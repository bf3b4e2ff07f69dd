package loopguard

import "fmt"

// funcRewriter rewrites instruction sequences: function indices of defined
// functions move up by one (the poll import is appended to the imports), a
// countdown check precedes every branch back to a loop header, and a
// size-weighted one every memory.copy and memory.fill.
type funcRewriter struct {
	importedFuncs uint32 // function indices below this are imports and do not move
	poll          uint32 // function index of the poll import
	counter       uint32 // global index of the countdown
}

func (f *funcRewriter) fn(idx uint32) uint32 {
	if idx >= f.importedFuncs {
		return idx + 1
	}
	return idx
}

// loopCheck decrements the countdown and calls poll when it reaches zero; poll
// returns the next countdown. It is stack-neutral, so it fits before any branch.
func (f *funcRewriter) loopCheck(out []byte) []byte {
	out = append(out, 0x23) // global.get c
	out = appendU32(out, f.counter)
	out = append(out, 0x41, 0x01, 0x6b) // i32.const 1; i32.sub
	return f.checkTail(out)
}

// checkTail stores the countdown on the stack and polls when it is <= 0.
func (f *funcRewriter) checkTail(out []byte) []byte {
	out = append(out, 0x24) // global.set c
	out = appendU32(out, f.counter)
	out = append(out, 0x23) // global.get c
	out = appendU32(out, f.counter)
	out = append(out, 0x41, 0x00, 0x4c, 0x04, 0x40) // i32.const 0; i32.le_s; if
	out = append(out, 0x10)                         // call poll
	out = appendU32(out, f.poll)
	out = append(out, 0x24) // global.set c
	out = appendU32(out, f.counter)
	return append(out, 0x0b) // end
}

// bulkCheck charges one count per 2^BulkShift bytes of the length on top of
// the stack (memory.copy and memory.fill), keeping the length in place.
func (f *funcRewriter) bulkCheck(out []byte, scratch uint32) []byte {
	out = append(out, 0x22) // local.tee scratch
	out = appendU32(out, scratch)
	out = append(out, 0x23) // global.get c
	out = appendU32(out, f.counter)
	out = append(out, 0x20) // local.get scratch
	out = appendU32(out, scratch)
	out = append(out, 0x41) // i32.const shift
	out = appendS32(out, BulkShift)
	out = append(out, 0x76, 0x6b) // i32.shr_u; i32.sub
	return f.checkTail(out)
}

// body rewrites one code-section entry (locals and expression, without its
// size prefix). params is the function's parameter count.
func (f *funcRewriter) body(b []byte, params uint32) ([]byte, error) {
	r := &reader{b: b}
	n := r.u32()
	type decl struct {
		n uint32
		t byte
	}
	// Each declaration takes at least two bytes: a count beyond that is a
	// malformed body, refused before it sizes an allocation (the fuzzer's
	// 97a461a2161f7ccf declared ~234M of them, a 1.9 GB slice).
	if n > uint32(len(b)-r.pos)/2 {
		return nil, errTruncated
	}
	decls := make([]decl, 0, n)
	locals := params
	for i := uint32(0); i < n && r.err == nil; i++ {
		d := decl{r.u32(), r.byte()}
		locals += d.n
		decls = append(decls, d)
	}
	if r.err != nil {
		return nil, r.err
	}
	scratch := locals
	code, usedScratch, err := f.expr(r, scratch, true)
	if err != nil {
		return nil, err
	}
	if usedScratch {
		decls = append(decls, decl{1, 0x7f})
	}
	out := make([]byte, 0, len(b)+len(code)/8+8)
	out = appendU32(out, uint32(len(decls)))
	for _, d := range decls {
		out = appendU32(out, d.n)
		out = append(out, d.t)
	}
	return append(out, code...), nil
}

// DispatchTargets is the br_table size that marks QuickJS's bytecode dispatch
// loop (JS_CallInternal: one br_table over its opcodes, 225 targets; the next largest
// br_table of the pinned quickjs.wasm has 125 targets). That loop's back-edges
// get no countdown: they run once per bytecode, so their check was most of the
// guard's cost on compute, and they need none, because QuickJS-NG itself
// counts every jump (goto, if_true, if_false) and every call down to its
// interrupt handler (js_poll_interrupts), which ends the guest at the deadline
// or when its interrupt budget is spent. Between two of those checks the
// dispatch loop only runs straight-line bytecode; whatever loops inside a
// bytecode (inner loops of JS_CallInternal, every other function: the
// built-ins) keeps its countdown.
const DispatchTargets = 200

// block is an open block of expr; a loop has its ordinal in the body (from 1)
// and the largest br_table directly inside it.
type block struct {
	loop     bool
	ord      int
	maxTable uint32
	noParams bool // a loop whose block type takes no parameters
}

// expr copies instructions from r until the end that closes the expression.
// guard adds the checks (function bodies); constant expressions only remap.
//
// The countdown sits on a loop's back-edges (every br, br_if and br_table that
// can jump to the loop's header), not on the header: code can only repeat by
// taking a back-edge, so the count still bounds the work between two polls,
// and a loop that is entered and left without repeating costs nothing. That
// is most of QuickJS's hot loops: a property lookup walks a hash chain that
// usually ends at its first entry, and a call's frame set-up and teardown
// loop over the callee's variables, most often none or a few (measured in
// tests/bench/RESULTS.md, "hostjs compute: countdown on back-edges").
//
// A first pass finds the dispatch loops (see DispatchTargets), whose
// back-edges get no check; the second writes the output.
func (f *funcRewriter) expr(r *reader, scratch uint32, guard bool) ([]byte, bool, error) {
	if !guard {
		return f.walk(r, scratch, false, nil)
	}
	start := r.pos
	dispatch := map[int]bool{}
	if _, _, err := f.walk(r, scratch, false, dispatch); err != nil {
		return nil, false, err
	}
	r.pos = start
	return f.walk(r, scratch, true, dispatch)
}

// walk is one pass of expr over the loops' ordinals in dispatch. With guard it
// adds the countdown to the back-edges of every loop not in dispatch and the
// bulk checks; without, it only copies and, when dispatch is non-nil, records
// the dispatch loops there.
func (f *funcRewriter) walk(r *reader, scratch uint32, guard bool, dispatch map[int]bool) ([]byte, bool, error) {
	out := make([]byte, 0, len(r.b)-r.pos+len(r.b)/16)
	blocks := []block{{}}
	used := false
	loops := 0
	// counted reports whether a branch to label depth l is a back-edge that
	// gets a check.
	counted := func(l uint32) bool {
		i := len(blocks) - 1 - int(l)
		return guard && i > 0 && blocks[i].loop && !dispatch[blocks[i].ord]
	}
	for r.err == nil {
		start := r.pos
		op := r.byte()
		switch {
		case op == 0x02 || op == 0x04 || op == 0x06: // block, if, try
			blockType(r)
			blocks = append(blocks, block{})
		case op == 0x03: // loop
			params := blockType(r)
			loops++
			blocks = append(blocks, block{loop: true, ord: loops, noParams: !params})
		case op == 0x0b: // end
			b := blocks[len(blocks)-1]
			blocks = blocks[:len(blocks)-1]
			if len(blocks) == 0 {
				out = append(out, op)
				return out, used, r.err
			}
			if !guard && dispatch != nil && b.loop && b.maxTable >= DispatchTargets {
				dispatch[b.ord] = true
			}
		case op == 0x05 || op == 0x19 || op == 0x00 || op == 0x01 || op == 0x0f || op == 0x1a || op == 0x1b || op == 0xd1:
		case op == 0x18: // delegate ends a try block
			r.u32()
			if len(blocks) > 1 {
				blocks = blocks[:len(blocks)-1]
			}
		case op == 0x07 || op == 0x08 || op == 0x09: // catch, throw, rethrow
			r.u32()
		case op == 0x0c: // br
			if counted(r.u32()) {
				out = f.loopCheck(out)
			}
		case op == 0x0d: // br_if
			l := r.u32()
			if !counted(l) {
				break
			}
			if !blocks[len(blocks)-1-int(l)].noParams {
				// The branch carries the loop's parameters: count it taken or not.
				out = f.loopCheck(out)
				break
			}
			// Count it only when taken: a loop body often holds several
			// conditional branches back to its header (each `continue`), and
			// counting every one of them on every pass cost more than the
			// header's single check did. (if (then check; br l+1)).
			out = append(out, 0x04, 0x40)
			out = f.loopCheck(out)
			out = append(out, 0x0c)
			out = appendU32(out, l+1)
			out = append(out, 0x0b)
			continue
		case op == 0x0e: // br_table
			k := r.u32()
			back := false
			for i := k + 1; i > 0 && r.err == nil; i-- { // k targets and the default
				back = counted(r.u32()) || back
			}
			if back {
				out = f.loopCheck(out)
			}
			for i := len(blocks) - 1; i > 0; i-- {
				if blocks[i].loop {
					blocks[i].maxTable = max(blocks[i].maxTable, k)
					break
				}
			}
		case op == 0x10 || op == 0x12 || op == 0xd2: // call, return_call, ref.func
			out = append(out, op)
			out = appendU32(out, f.fn(r.u32()))
			continue
		case op == 0x11 || op == 0x13: // call_indirect, return_call_indirect
			r.u32()
			r.u32()
		case op == 0x1c: // select t*
			for k := r.u32(); k > 0 && r.err == nil; k-- {
				r.byte()
			}
		case op >= 0x20 && op <= 0x26: // local.*, global.*, table.get/set
			r.u32()
		case op >= 0x28 && op <= 0x3e: // loads and stores
			memarg(r)
		case op == 0x3f || op == 0x40: // memory.size, memory.grow
			r.u32()
		case op == 0x41 || op == 0x42:
			r.skipLEB()
		case op == 0x43:
			r.bytes(4)
		case op == 0x44:
			r.bytes(8)
		case op >= 0x45 && op <= 0xc4: // numeric, no immediates
		case op == 0xd0: // ref.null t
			r.byte()
		case op == 0xfc:
			sub := r.u32()
			switch {
			case sub <= 7: // saturating truncations
			case sub == 8: // memory.init
				r.u32()
				r.u32()
			case sub == 9 || sub == 13 || (sub >= 15 && sub <= 17): // data.drop, elem.drop, table.grow/size/fill
				r.u32()
			case sub == 10 || sub == 11: // memory.copy, memory.fill
				if guard {
					out = f.bulkCheck(out, scratch)
					used = true
				}
				r.u32()
				if sub == 10 {
					r.u32()
				}
			case sub == 12 || sub == 14: // table.init, table.copy
				r.u32()
				r.u32()
			default:
				return nil, false, fmt.Errorf("loopguard: unsupported instruction 0xfc %d at byte %d", sub, start)
			}
		case op == 0xfe: // threads
			sub := r.u32()
			if sub == 3 {
				r.byte()
			} else {
				memarg(r)
			}
		default:
			return nil, false, fmt.Errorf("loopguard: unsupported instruction 0x%02x at byte %d", op, start)
		}
		out = append(out, r.b[start:r.pos]...)
	}
	return nil, false, r.err
}

// blockType skips a block type and reports whether it may take parameters
// (a type index; empty and single value types take none).
func blockType(r *reader) bool {
	if r.pos >= len(r.b) {
		r.fail(errTruncated)
		return false
	}
	switch c := r.b[r.pos]; {
	case c == 0x40 || (c >= 0x6f && c <= 0x7f): // empty or a value type
		r.pos++
		return false
	default:
		r.skipLEB() // s33 type index
		return true
	}
}

func memarg(r *reader) {
	align := r.u32()
	if align&0x40 != 0 { // multi-memory: memory index follows
		r.u32()
	}
	r.u32()
}
