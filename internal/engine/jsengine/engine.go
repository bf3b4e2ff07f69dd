//go:build js && wasm

package jsengine

import (
	"context"
	"errors"
	"fmt"
	"math"
	"syscall/js"
	"unsafe"

	"github.com/codemode-go/codemode/internal/engine"
)

// DefaultMaxNesting bounds guest -> host -> guest re-entry. A Chromium worker
// ran out of native stack at about 300 levels on this path; 64 leaves room for
// QuickJS's own recursion inside each level.
const DefaultMaxNesting = 64

// Options configures an Engine.
type Options struct {
	// Module is the compiled quickjs.wasm (a WebAssembly.Module). When it is
	// undefined the module the glue was installed with is used.
	Module js.Value
	// MaxMemoryPages caps growth requested through Memory.Grow (0: no cap).
	// QuickJS's own memory limit bounds what the guest allocates itself.
	MaxMemoryPages uint32
	// MaxNesting bounds guest -> host -> guest re-entry (0: DefaultMaxNesting).
	MaxNesting int
}

// Engine runs quickjs.wasm on the host's WebAssembly engine.
type Engine struct {
	module     js.Value
	maxPages   uint32
	maxNesting int
}

// glueName is the global the glue (hostjs/hostengine.js) publishes.
const glueName = "__codemodeHostEngine"

// glue is read once while the Go program starts: hostengine.js publishes it
// right before the instance runs, and several Go instances may share a realm.
var glue = js.Global().Get(glueName)

// Available reports whether the glue is installed in this Go instance's host, so
// callers can fall back to wazero's interpreter when it is not.
func Available() bool { return glue.Type() == js.TypeObject }

// New creates an engine. It fails when the glue is missing or no module is given.
func New(opts Options) (*Engine, error) {
	if !Available() {
		return nil, errors.New("the host WebAssembly engine is not installed (load the Go program through hostjs/hostengine.js)")
	}
	mod := opts.Module
	if mod.IsUndefined() || mod.IsNull() {
		mod = glue.Get("quickjsModule")
	}
	if mod.IsUndefined() || mod.IsNull() || !mod.InstanceOf(js.Global().Get("WebAssembly").Get("Module")) {
		return nil, errors.New("no compiled quickjs.wasm (WebAssembly.Module) was handed in")
	}
	n := opts.MaxNesting
	if n <= 0 {
		n = DefaultMaxNesting
	}
	return &Engine{module: mod, maxPages: opts.MaxMemoryPages, maxNesting: n}, nil
}

// MaxNesting implements engine.NestingLimiter.
func (e *Engine) MaxNesting() int { return e.maxNesting }

// HasModule: the host handed in the compiled quickjs.wasm, so Load ignores
// its bytes (engine.Compiled).
func (e *Engine) HasModule() bool { return true }

// Load checks the handed-in module against imports and resolves the export
// table. wasm is not compiled: the host already compiled the same binary.
func (e *Engine) Load(_ context.Context, _ []byte, imports []engine.Import) (engine.Module, error) {
	got := js.Global().Get("WebAssembly").Get("Module").Call("imports", e.module)
	have := map[string]bool{}
	for i := 0; i < got.Length(); i++ {
		d := got.Index(i)
		have[d.Get("module").String()+"."+d.Get("name").String()] = true
	}
	m := &module{eng: e, imports: imports, exports: map[string]int32{}, hostCallIndex: -1, interruptIndex: -1}
	for i, imp := range imports {
		key := imp.Module + "." + imp.Name
		delete(have, key)
		switch key {
		case "env.host_call":
			m.hostCallIndex = i
		case "env.host_interrupt":
			m.interruptIndex = i
		}
	}
	// The loop-guarded module (build/web's quickjs.wasm) imports the poll; the
	// glue binds it to codemode_host_poll, so the engine is an engine.Poller.
	delete(have, pollImport)
	for k := range have {
		return nil, fmt.Errorf("quickjs.wasm imports %s, which the driver does not provide", k)
	}
	id := glue.Call("registerModule", e.module, importTable(imports))
	m.id = int32(id.Int())
	return m, nil
}

// importTable describes the imports to the glue: [module, name, kind] where kind
// says which Go export serves it and whether an argument is an i64.
func importTable(imports []engine.Import) js.Value {
	arr := js.Global().Get("Array").New(len(imports))
	for i, imp := range imports {
		i64 := make([]any, len(imp.Params))
		for j, p := range imp.Params {
			i64[j] = p == engine.I64
		}
		arr.SetIndex(i, js.ValueOf([]any{imp.Module, imp.Name, i64, len(imp.Results) > 0}))
	}
	return arr
}

// Close releases nothing: the module belongs to the host.
func (e *Engine) Close(context.Context) error { return nil }

type module struct {
	eng            *Engine
	id             int32
	imports        []engine.Import
	exports        map[string]int32
	hostCallIndex  int
	interruptIndex int
}

func (m *module) export(name string) int32 {
	if i, ok := m.exports[name]; ok {
		return i
	}
	b := []byte(name)
	i := hostExportIndex(m.id, unsafe.Pointer(&b[0]), int32(len(b)))
	m.exports[name] = i
	return i
}

func (m *module) Instantiate(_ context.Context, host engine.Host) (engine.Instance, error) {
	id := hostInstantiate(m.id)
	if id < 0 {
		return nil, errors.New("instantiating quickjs.wasm failed: " + lastError(id))
	}
	in := &instance{id: id, mod: m, host: host}
	in.poller, _ = host.(engine.Poller)
	in.mem.in = in
	liveMu.Lock()
	live[id] = in
	liveMu.Unlock()
	return in, nil
}

func (m *module) Close(context.Context) error { return nil }

type instance struct {
	id     int32
	mod    *module
	host   engine.Host
	stack  [5]uint64
	mem    memory
	closed bool
	// poller is the host's engine.Poller (nil if it is none); stopped is the
	// error a poll stopped the instance with: every later call returns it.
	poller  engine.Poller
	stopped error
}

// newNumber is the only export the driver calls with a non-i32 parameter.
const newNumber = "qjs_new_number"

func (in *instance) Call(name string, args ...uint64) (uint64, error) {
	if in.closed {
		return 0, errors.New("instance is closed")
	}
	if in.stopped != nil {
		return 0, in.stopped
	}
	fn := in.mod.export(name)
	if fn < 0 {
		return 0, fmt.Errorf("quickjs.wasm has no export %q", name)
	}
	var r float64
	if name == newNumber {
		var x float64
		if len(args) > 0 {
			x = math.Float64frombits(args[0])
		}
		r = hostCallF(in.id, fn, x)
	} else {
		if len(args) > 6 {
			return 0, fmt.Errorf("export %q: too many arguments", name)
		}
		var a [6]int32
		for i, v := range args {
			a[i] = int32(uint32(v))
		}
		r = hostCall(in.id, fn, a[0], a[1], a[2], a[3], a[4], a[5])
	}
	if r < 0 {
		if in.stopped != nil {
			return 0, in.stopped
		}
		return 0, &TrapError{Message: lastError(in.id)}
	}
	return uint64(r), nil
}

func (in *instance) Memory() engine.Memory { return &in.mem }
func (in *instance) StackPointer() uint32  { return uint32(hostSPGet(in.id)) }
func (in *instance) SetStackPointer(v uint32) {
	hostSPSet(in.id, int32(v))
}

func (in *instance) Close(context.Context) error {
	if in.closed {
		return nil
	}
	in.closed = true
	liveMu.Lock()
	delete(live, in.id)
	liveMu.Unlock()
	hostDrop(in.id)
	return nil
}

// TrapError is a trap of the QuickJS instance, or the host engine's own stack
// overflow inside it; the instance must be discarded.
type TrapError struct {
	// Message is the engine's trap message.
	Message string
}

// Error carries the engine's trap message.
func (e *TrapError) Error() string { return "quickjs.wasm trapped: " + e.Message }

func lastError(id int32) string {
	buf := make([]byte, 512)
	n := hostErrorMessage(id, unsafe.Pointer(&buf[0]), int32(len(buf)))
	if n <= 0 {
		return "unknown error"
	}
	return string(buf[:n])
}

type memory struct{ in *instance }

func (m *memory) Size() uint32 { return uint32(hostMemPages(m.in.id)) * engine.PageSize }

func (m *memory) Grow(delta uint32) (uint32, bool) {
	cur := uint32(hostMemPages(m.in.id))
	if max := m.in.mod.eng.maxPages; max > 0 && uint64(cur)+uint64(delta) > uint64(max) {
		return cur, false
	}
	prev := hostMemGrow(m.in.id, int32(delta))
	if prev < 0 {
		return cur, false
	}
	return uint32(prev), true
}

// View copies memory[off:off+n] into a fresh Go slice (one copy, no syscall/js).
// ViewCopies marks View's result as a copy (engine.Copy keeps it as is).
func (m *memory) ViewCopies() {}

func (m *memory) View(off, n uint32) ([]byte, bool) {
	if uint64(off)+uint64(n) > uint64(m.Size()) {
		return nil, false
	}
	b := make([]byte, n)
	if n == 0 {
		return b, true
	}
	return b, hostMemRead(m.in.id, unsafe.Pointer(&b[0]), int32(off), int32(n)) == 1
}

func (m *memory) Write(off uint32, p []byte) bool {
	if len(p) == 0 {
		return uint64(off) <= uint64(m.Size())
	}
	return hostMemWrite(m.in.id, unsafe.Pointer(&p[0]), int32(off), int32(len(p))) == 1
}

// Zero clears memory[off:off+n] in place (engine.Zeroer): a reset to the
// template then moves a quarter of the bytes it copied before.
func (m *memory) Zero(off, n uint32) bool {
	if n == 0 {
		return uint64(off) <= uint64(m.Size())
	}
	return hostMemZero(m.in.id, int32(off), int32(n)) == 1
}

func toSlot(t engine.ValType, f float64) uint64 {
	switch t {
	case engine.I64:
		return uint64(int64(f))
	case engine.F64:
		return math.Float64bits(f)
	default:
		return uint64(uint32(int32(int64(f))))
	}
}

func fromSlot(t engine.ValType, v uint64) float64 {
	switch t {
	case engine.I64:
		return float64(int64(v))
	case engine.F64:
		return math.Float64frombits(v)
	default:
		return float64(int32(uint32(v)))
	}
}
