package quickjs

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	json "github.com/codemode-go/codemode/internal/jsonx"
)

func (vm *VM) malloc(n uint32) (uint32, error) {
	p, err := vm.call("wasm_malloc", uint64(n))
	if err != nil {
		return 0, err
	}
	if p == 0 {
		return 0, &JSError{Name: "InternalError", Message: "out of memory"}
	}
	return uint32(p), nil
}

func (vm *VM) freePtr(p uint32) { vm.call("wasm_free", uint64(p)) }

// cstring copies s NUL-terminated into guest memory; the caller frees it.
func (vm *VM) cstring(s string) (uint32, error) {
	p, err := vm.malloc(uint32(len(s)) + 1)
	if err != nil {
		return 0, err
	}
	buf := make([]byte, len(s)+1)
	copy(buf, s)
	if !vm.mem.Write(p, buf) {
		vm.freePtr(p)
		return 0, errors.New("quickjs: write out of bounds")
	}
	return p, nil
}

// NewString creates a string value.
func (vm *VM) NewString(s string) (Value, error) {
	p, err := vm.cstring(s)
	if err != nil {
		return 0, err
	}
	defer vm.freePtr(p)
	r, err := vm.call("qjs_new_string", uint64(p), uint64(len(s)))
	if err != nil {
		return 0, err
	}
	return vm.result(Value(r))
}

// NewNumber creates a number value.
func (vm *VM) NewNumber(f float64) (Value, error) {
	r, err := vm.call("qjs_new_number", math.Float64bits(f))
	return Value(r), err
}

// NewObject creates an empty object.
func (vm *VM) NewObject() (Value, error) {
	r, err := vm.call("qjs_new_object")
	if err != nil {
		return 0, err
	}
	return vm.result(Value(r))
}

// IsString reports whether v is a string primitive.
func (vm *VM) IsString(v Value) bool {
	r, _ := vm.call("qjs_is_string", uint64(v))
	return r != 0
}

// GoString reads a string value. It refuses non-strings instead of converting,
// because conversion would run guest code (toString) in the middle of host work.
func (vm *VM) GoString(v Value) (string, error) {
	if !vm.IsString(v) {
		return "", &Throw{Name: "TypeError", Message: "expected a string"}
	}
	lenp, err := vm.malloc(4)
	if err != nil {
		return "", err
	}
	defer vm.freePtr(lenp)
	c, err := vm.call("qjs_get_string_len", uint64(v), uint64(lenp))
	if err != nil {
		return "", err
	}
	if c == 0 {
		return "", vm.takeException()
	}
	defer vm.call("qjs_free_cstring", c)
	lb, _ := vm.mem.View(lenp, 4)
	n := binary.LittleEndian.Uint32(lb)
	b, ok := vm.mem.View(uint32(c), n)
	if !ok {
		return "", errors.New("quickjs: string out of bounds")
	}
	return string(b), nil
}

// GetProp reads obj[name] (getters run in the guest).
func (vm *VM) GetProp(obj Value, name string) (Value, error) {
	p, err := vm.cstring(name)
	if err != nil {
		return 0, err
	}
	defer vm.freePtr(p)
	r, err := vm.call("qjs_get_prop_string", uint64(obj), uint64(p))
	if err != nil {
		return 0, err
	}
	return vm.result(Value(r))
}

// SetProp sets obj[name] = v; v stays owned by the caller.
func (vm *VM) SetProp(obj Value, name string, v Value) error {
	p, err := vm.cstring(name)
	if err != nil {
		return err
	}
	defer vm.freePtr(p)
	r, err := vm.call("qjs_set_prop_string", uint64(obj), uint64(p), uint64(v))
	if err != nil {
		return err
	}
	if int32(r) < 0 {
		return vm.takeException()
	}
	return nil
}

// FromJSON parses JSON text into a guest value with the template's JSON.parse.
func (vm *VM) FromJSON(text string) (Value, error) {
	s, err := vm.NewString(text)
	if err != nil {
		return 0, err
	}
	defer vm.Free(s)
	return vm.Call(vm.tmpl.kit.parse, vm.Undefined(), s)
}

// ToJSON serializes v with the template's JSON.stringify ("null" for undefined).
func (vm *VM) ToJSON(v Value) (string, error) {
	s, err := vm.Call(vm.tmpl.kit.stringify, vm.Undefined(), v)
	if err != nil {
		return "", err
	}
	defer vm.Free(s)
	return vm.GoString(s)
}

// EvalJSON evaluates src and returns its completion value as a Go value.
func (vm *VM) EvalJSON(src string) (any, error) {
	v, err := vm.Eval(src, "eval.js")
	if err != nil {
		return nil, err
	}
	defer vm.Free(v)
	return vm.GoValue(v)
}

// GoValue converts a guest value to a Go value through JSON: objects become
// map[string]any, arrays []any, numbers float64, undefined nil.
func (vm *VM) GoValue(v Value) (any, error) {
	s, err := vm.ToJSON(v)
	if err != nil {
		return nil, err
	}
	var out any
	if err := json.Unmarshal([]byte(s), &out); err != nil {
		return nil, fmt.Errorf("quickjs: %w", err)
	}
	return out, nil
}

// ValueOf converts a JSON-compatible Go value into a new guest value.
func (vm *VM) ValueOf(v any) (Value, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return 0, fmt.Errorf("quickjs: %w", err)
	}
	return vm.FromJSON(string(b))
}

// NewError creates an Error object of the given constructor name.
func (vm *VM) NewError(name, message string) (Value, error) {
	n, err := vm.NewString(name)
	if err != nil {
		return 0, err
	}
	defer vm.Free(n)
	m, err := vm.NewString(message)
	if err != nil {
		return 0, err
	}
	defer vm.Free(m)
	return vm.Call(vm.tmpl.kit.makeError, vm.Undefined(), n, m)
}

func (vm *VM) newHostFunction(name string) (Value, error) {
	p, err := vm.cstring(name)
	if err != nil {
		return 0, err
	}
	defer vm.freePtr(p)
	r, err := vm.call("qjs_new_host_function", uint64(p), uint64(len(name)), 0)
	if err != nil {
		return 0, err
	}
	return vm.result(Value(r))
}

// reseed gives this VM its own Math.random sequence.
func (vm *VM) reseed() error {
	var seed [16]byte
	vm.randomGet2(seed[:])
	args := make([]Value, 4)
	for i := range args {
		n, err := vm.NewNumber(float64(int32(binary.LittleEndian.Uint32(seed[4*i:]))))
		if err != nil {
			return err
		}
		args[i] = n
		defer vm.Free(n)
	}
	return vm.guarded(func() error {
		r, err := vm.Call(vm.tmpl.kit.reseed, vm.Undefined(), args...)
		vm.Free(r)
		return err
	})
}
