package namespace

import (
	"encoding/json"
	"errors"
	"math"
	"testing"
	"time"
)

// buildValue turns fuzz bytes into a Go value graph: nested maps, slices, pointers,
// shared references, cycles, callables, funcs, channels and odd numbers.
func buildValue(data []byte) any {
	var pool []any
	pick := func(b byte) any {
		if len(pool) == 0 {
			return nil
		}
		return pool[int(b)%len(pool)]
	}
	for i := 0; i+1 < len(data); i += 2 {
		op, arg := data[i]%16, data[i+1]
		var v any
		switch op {
		case 0:
			v = int64(arg) << (arg % 64)
		case 1:
			v = string([]byte{arg, '.', arg})
		case 2:
			v = map[string]any{string(rune('a' + arg%26)): pick(arg), "k": pick(arg + 1)}
		case 3:
			v = []any{pick(arg), pick(arg / 2)}
		case 4:
			p := pick(arg)
			v = &p
		case 5:
			m := map[string]any{}
			m["self"] = m
			if arg%2 == 0 {
				v = map[string]any{"c": m}
			} else {
				v = m
			}
		case 6:
			v = Tool("t", nil)
		case 7:
			v = Tool("undeclared", nil)
		case 8:
			v = func() {}
		case 9:
			v = []float64{math.NaN(), math.Inf(-1), float64(arg)}
		case 10:
			v = json.RawMessage(data[i:min(len(data), i+int(arg%16))])
		case 11:
			v = time.Unix(int64(arg)*1e6, 0)
		case 12:
			v = make(chan int)
		case 13:
			if len(pool) > 0 {
				if m, ok := pool[len(pool)-1].(map[string]any); ok {
					m["back"] = pick(arg) // may close a cycle
				}
			}
			continue
		case 14:
			v = json.Number(string(data[i:min(len(data), i+3)]))
		case 15:
			v = map[string]any{"__proto__": arg, "": arg}[string(rune('a'+arg%3))]
		}
		pool = append(pool, v)
	}
	if len(pool) == 0 {
		return nil
	}
	return map[string]any{"root": pool[len(pool)-1], "all": pool}
}

// FuzzSerializeScope: random value graphs must never panic or hang; the output is
// either a SerializeError or valid JSON whose callables all resolve.
func FuzzSerializeScope(f *testing.F) {
	f.Add([]byte{2, 1, 3, 2, 4, 0, 6, 0})
	f.Add([]byte{5, 1, 13, 0})
	f.Add([]byte{0, 200, 9, 3, 14, 1, 10, 7})
	f.Add([]byte{2, 0, 2, 1, 2, 2, 2, 3, 3, 4, 3, 5, 3, 6, 3, 7})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 512 {
			return
		}
		value, callables, byPath, err := serializeScope("fz", "Fz", map[string]bool{"t": true}, buildValue(data))
		if err != nil {
			var se *SerializeError
			if !errors.As(err, &se) {
				t.Fatalf("error is not a SerializeError: %v", err)
			}
			return
		}
		if !json.Valid(value) {
			t.Fatalf("invalid JSON: %s", value)
		}
		if len(callables) != len(byPath) {
			t.Fatalf("%d callables, %d paths", len(callables), len(byPath))
		}
	})
}

// TestSharedDAGIsBounded: 2^40 paths through shared references stop at MaxNodes
// quickly instead of hanging.
func TestSharedDAGIsBounded(t *testing.T) {
	var v any = 1
	for range 40 {
		v = []any{v, v}
	}
	_, _, _, err := serializeScope("dag", "Dag", nil, v) // a hang fails by the test timeout
	if err == nil {
		t.Fatal("a 2^40-path DAG serialized")
	}
}
