// Package loopguard rewrites a WebAssembly module at load time so that the code
// it runs gives its host a chance to stop it at a bounded interval, whatever the
// code is doing.
//
// Why: QuickJS checks its interrupt handler only between bytecodes, never inside
// a long built-in (JSON.stringify of a huge string, a regex that backtracks,
// sort, BigInt to string), and wazero's compiled code is not preemptible, so
// such a built-in could outrun the run's deadline by minutes and freeze the Go
// runtime's garbage collector meanwhile. The rewrite adds one mutable i32
// global, a countdown, which every branch back to a loop's header decrements
// by one and every memory.copy / memory.fill by one per 2^BulkShift bytes;
// when it reaches zero the code calls the imported function
// PollModule.PollName, which returns the next countdown (or never returns: the
// host stops the instance there). The one loop left without a countdown is
// QuickJS's bytecode dispatch (see DispatchTargets), which QuickJS bounds
// itself through its interrupt handler.
//
// wazero's own WithCloseOnContextDone does the same at every back-edge, but
// with a context check per iteration; measured on the benchmark workloads it
// costs 3-5x CPU, the countdown ~1x (tests/bench/RESULTS.md, "Limits").
//
// Function indices of the module's own functions move up by one (the import is
// appended to the imports); calls, ref.func, exports, the start function and
// element segments are renumbered. The "name" custom section is dropped, since
// its function indices would be stale. Everything else is copied verbatim.
package loopguard

import (
	"bytes"
	"errors"
	"fmt"
)

// The import the rewritten module calls, of type () -> i32.
const (
	PollModule = "codemode"
	PollName   = "poll"
)

// BulkShift: memory.copy and memory.fill cost one count per 2^BulkShift bytes.
const BulkShift = 8

// InitialCountdown is the countdown a fresh instance starts with.
const InitialCountdown = 1 << 16

const (
	secCustom  = 0
	secType    = 1
	secImport  = 2
	secFunc    = 3
	secGlobal  = 6
	secExport  = 7
	secStart   = 8
	secElem    = 9
	secCode    = 10
	secData    = 11
	secDataCnt = 12
)

var header = []byte{0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00}

type section struct {
	id   byte
	body []byte
}

// Rewrite returns the guarded module. It fails on modules it cannot rewrite
// faithfully (unknown instructions, malformed sections).
func Rewrite(wasm []byte) ([]byte, error) {
	if !bytes.HasPrefix(wasm, header) {
		return nil, errors.New("loopguard: not a WebAssembly 1.0 binary")
	}
	r := &reader{b: wasm, pos: len(header)}
	var secs []section
	for !r.done() && r.err == nil {
		id := r.byte()
		body := r.bytes(int(r.u32()))
		secs = append(secs, section{id, body})
	}
	if r.err != nil {
		return nil, r.err
	}
	m := &module{}
	if err := m.scan(secs); err != nil {
		return nil, err
	}
	out := append([]byte(nil), header...)
	hasType, hasGlobal := false, false
	for _, s := range secs {
		if s.id != secCustom && s.id > secType && !hasType {
			// No type section: add one holding only the poll type, in order.
			out = appendSection(out, secType, m.types(nil))
			hasType = true
		}
		if s.id != secCustom && s.id > secGlobal && !hasGlobal {
			// No global section: add one holding only the countdown, in order.
			g, _ := m.globals(nil)
			out = appendSection(out, secGlobal, g)
			hasGlobal = true
		}
		var body []byte
		var err error
		switch s.id {
		case secCustom:
			if isNameSection(s.body) {
				continue
			}
			body = s.body
		case secType:
			body = m.types(s.body)
			hasType = true
		case secImport:
			body, err = m.imports(s.body)
		case secGlobal:
			body, err = m.globals(s.body)
			hasGlobal = true
		case secExport:
			body, err = m.exports(s.body)
		case secStart:
			rr := &reader{b: s.body}
			body, err = appendU32(nil, m.rw.fn(rr.u32())), rr.err
		case secElem:
			body, err = m.elems(s.body)
		case secCode:
			body, err = m.code(s.body)
		default:
			body = s.body
		}
		if err != nil {
			return nil, err
		}
		out = appendSection(out, s.id, body)
	}
	if !m.sawImport {
		return nil, errors.New("loopguard: module has no import section")
	}
	return out, nil
}

func appendSection(out []byte, id byte, body []byte) []byte {
	out = append(out, id)
	out = appendU32(out, uint32(len(body)))
	return append(out, body...)
}

func isNameSection(b []byte) bool {
	r := &reader{b: b}
	return string(r.name()) == "name" && r.err == nil
}

// module is what the rewrite needs to know before it writes anything.
type module struct {
	typeParams    []uint32 // parameter count per type
	pollType      uint32   // index of a () -> i32 type (possibly appended)
	appendType    bool
	funcTypes     []uint32 // type index per defined function
	importedGlobs uint32
	definedGlobs  uint32
	rw            funcRewriter
	sawImport     bool
}

func (m *module) scan(secs []section) error {
	m.pollType = ^uint32(0)
	for _, s := range secs {
		r := &reader{b: s.body}
		switch s.id {
		case secType:
			for n, i := r.u32(), uint32(0); i < n && r.err == nil; i++ {
				if r.byte() != 0x60 {
					return errors.New("loopguard: unsupported type form")
				}
				params := r.u32()
				r.bytes(int(params))
				results := r.u32()
				res := r.bytes(int(results))
				if params == 0 && results == 1 && res[0] == 0x7f && m.pollType == ^uint32(0) {
					m.pollType = i
				}
				m.typeParams = append(m.typeParams, params)
			}
		case secImport:
			for n, i := r.u32(), uint32(0); i < n && r.err == nil; i++ {
				r.name()
				r.name()
				switch kind := r.byte(); kind {
				case 0x00:
					r.u32()
					m.rw.importedFuncs++
				case 0x01: // table: reftype, limits
					r.byte()
					limits(r)
				case 0x02:
					limits(r)
				case 0x03:
					r.byte()
					r.byte()
					m.importedGlobs++
				case 0x04: // tag
					r.byte()
					r.u32()
				default:
					return fmt.Errorf("loopguard: unknown import kind %d", kind)
				}
			}
		case secFunc:
			for n, i := r.u32(), uint32(0); i < n && r.err == nil; i++ {
				m.funcTypes = append(m.funcTypes, r.u32())
			}
		case secGlobal:
			m.definedGlobs = r.u32()
		}
		if r.err != nil {
			return r.err
		}
	}
	if m.pollType == ^uint32(0) {
		m.pollType = uint32(len(m.typeParams))
		m.appendType = true
	}
	m.rw.poll = m.rw.importedFuncs
	m.rw.counter = m.importedGlobs + m.definedGlobs
	return nil
}

func limits(r *reader) {
	flags := r.byte()
	r.u32()
	if flags&1 != 0 {
		r.u32()
	}
}

// types appends the poll type when the module has no () -> i32 type.
func (m *module) types(b []byte) []byte {
	if !m.appendType {
		return b
	}
	r := &reader{b: b}
	n := r.u32()
	out := appendU32(nil, n+1)
	out = append(out, b[r.pos:]...)
	return append(out, 0x60, 0x00, 0x01, 0x7f)
}

func (m *module) imports(b []byte) ([]byte, error) {
	m.sawImport = true
	r := &reader{b: b}
	n := r.u32()
	out := appendU32(nil, n+1)
	out = append(out, b[r.pos:]...)
	out = appendName(out, PollModule)
	out = appendName(out, PollName)
	out = append(out, 0x00)
	return appendU32(out, m.pollType), r.err
}

// globals renumbers ref.func in initializers and appends the countdown:
// (global (mut i32) (i32.const InitialCountdown)).
func (m *module) globals(b []byte) ([]byte, error) {
	r := &reader{b: b}
	var n uint32
	if b != nil {
		n = r.u32()
	}
	out := appendU32(nil, n+1)
	for i := uint32(0); i < n && r.err == nil; i++ {
		out = append(out, r.byte(), r.byte()) // value type, mutability
		e, _, err := m.rw.expr(r, 0, false)
		if err != nil {
			return nil, err
		}
		out = append(out, e...)
	}
	out = append(out, 0x7f, 0x01, 0x41)
	out = appendS32(out, InitialCountdown)
	return append(out, 0x0b), r.err
}

func (m *module) exports(b []byte) ([]byte, error) {
	r := &reader{b: b}
	n := r.u32()
	out := appendU32(nil, n)
	for i := uint32(0); i < n && r.err == nil; i++ {
		out = appendName(out, string(r.name()))
		kind := r.byte()
		idx := r.u32()
		if kind == 0x00 {
			idx = m.rw.fn(idx)
		}
		out = append(out, kind)
		out = appendU32(out, idx)
	}
	return out, r.err
}

// elems renumbers function indices in every element segment form (0-7).
func (m *module) elems(b []byte) ([]byte, error) {
	r := &reader{b: b}
	n := r.u32()
	out := appendU32(nil, n)
	constExpr := func() error {
		e, _, err := m.rw.expr(r, 0, false)
		out = append(out, e...)
		return err
	}
	for i := uint32(0); i < n && r.err == nil; i++ {
		flags := r.u32()
		out = appendU32(out, flags)
		if flags > 7 {
			return nil, fmt.Errorf("loopguard: unknown element segment form %d", flags)
		}
		if flags&2 != 0 && flags&1 == 0 { // explicit table index
			out = appendU32(out, r.u32())
		}
		if flags&1 == 0 { // active: offset expression
			if err := constExpr(); err != nil {
				return nil, err
			}
		}
		if flags&3 != 0 { // elemkind or reftype byte
			out = append(out, r.byte())
		}
		k := r.u32()
		out = appendU32(out, k)
		for j := uint32(0); j < k && r.err == nil; j++ {
			if flags&4 != 0 {
				if err := constExpr(); err != nil {
					return nil, err
				}
			} else {
				out = appendU32(out, m.rw.fn(r.u32()))
			}
		}
	}
	return out, r.err
}

func (m *module) code(b []byte) ([]byte, error) {
	r := &reader{b: b}
	n := r.u32()
	if int(n) != len(m.funcTypes) {
		return nil, errors.New("loopguard: code and function sections disagree")
	}
	out := appendU32(nil, n)
	for i := uint32(0); i < n && r.err == nil; i++ {
		body := r.bytes(int(r.u32()))
		t := m.funcTypes[i]
		if int(t) >= len(m.typeParams) {
			return nil, errors.New("loopguard: function type out of range")
		}
		nb, err := m.rw.body(body, m.typeParams[t])
		if err != nil {
			return nil, fmt.Errorf("%w (function %d)", err, i)
		}
		out = appendU32(out, uint32(len(nb)))
		out = append(out, nb...)
	}
	return out, r.err
}
