package wasip1

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// checkAnswer asserts the ABI's promise for any input: one JSON object with
// exactly one of ok or error, an error with a code and message, nothing Go
// shaped in it.
func checkAnswer(t *testing.T, out []byte) {
	var a map[string]json.RawMessage
	if err := json.Unmarshal(out, &a); err != nil || len(a) != 1 || (a["ok"] == nil && a["error"] == nil) {
		t.Fatalf("answer is not {ok} or {error}: %q", out)
	}
	if e := a["error"]; e != nil {
		var ee Error
		if json.Unmarshal(e, &ee) != nil || ee.Code == "" || ee.Message == "" {
			t.Fatalf("error without code or message: %s", e)
		}
		for _, bad := range []string{"goroutine", "panic", "struct {", "wasip1.", "core.", "json: "} {
			if strings.Contains(ee.Message, bad) {
				t.Fatalf("error shows Go internals (%q): %s", bad, e)
			}
		}
	}
}

// FuzzHandle feeds any request to any operation of a host that has a runtime
// with a host tool.
func FuzzHandle(f *testing.F) {
	h := NewHost()
	ctx := context.Background()
	h.Handle(ctx, "create_runtime", []byte(`{"config":{"timeoutMs":200},"tools":[{"name":"lookup","description":"d","parameters":{"type":"object"}}]}`))
	for _, s := range []struct {
		op  uint8
		req string
	}{
		{1, `{"runtime":1,"code":"return 1"}`},
		{1, `{"runtime":1,"code":"await tools.lookup({}); return 2"}`},
		{2, `{"runtime":1,"runId":"cm_x"}`},
		{3, `{"runtime":1,"id":"hc_1","result":{"details":1}}`},
		{3, `{"runtime":1,"id":"hc_1","error":"e"}`},
		{4, `{"runtime":1,"format":"openai"}`},
		{5, `{"runtime":1}`},
		{6, `{"runtime":1,"runId":""}`},
		{0, `{"tools":[{"name":"a","parameters":{"type":"object","properties":{"x":{"$ref":"#"}}}}]}`},
		{1, `{"runtime":1e99}`},
		{1, `{"runtime":-1}`},
		{1, "\x00"},
	} {
		f.Add(s.op, []byte(s.req))
	}
	f.Fuzz(func(t *testing.T, op uint8, req []byte) {
		name := "unknown"
		if int(op) < len(Ops) {
			name = Ops[op]
		}
		if name == "close_runtime" {
			name = "catalog" // keep the runtime for later inputs
		}
		checkAnswer(t, h.Handle(ctx, name, req))
	})
}

// FuzzCall is the exports' own entry: any address and length, live buffers or
// not, answers an error or a result and never reads outside a live buffer.
func FuzzCall(f *testing.F) {
	h := NewHost()
	f.Add(uint64(0), uint32(0), []byte(`{}`), uint32(2), true)
	f.Add(uint64(1), uint32(5), []byte(`{"runtime":1}`), uint32(100), false)
	f.Fuzz(func(t *testing.T, addr uint64, n uint32, req []byte, alloc uint32, useLive bool) {
		b := NewBuffers()
		p := uintptr(addr)
		if useLive {
			p = b.Alloc(alloc % 4096)
			if got, ok := b.Bytes(p, uint32(min(len(req), int(alloc%4096)))); ok {
				copy(got, req)
			}
		}
		ap, an := h.Call(context.Background(), b, "catalog", p, n)
		out, ok := b.Bytes(ap, an)
		if !ok {
			t.Fatal("answer buffer is not live")
		}
		checkAnswer(t, out)
		b.Free(ap)
		b.Free(p)
		if b.Live() != 0 {
			t.Fatalf("%d buffers leaked", b.Live())
		}
	})
}
