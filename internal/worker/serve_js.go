//go:build js && wasm

package worker

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"syscall/js"

	"github.com/codemode-go/codemode/internal/jspromise"
)

// ServeJS returns binding.serve for src/index.mjs: one Go program serves every
// request of its isolate through it. It takes one request as a plain object,
// {method, url, headers: [[name, value], ...], read, ctx}, where read() is a
// Promise of the body's next chunk (a Uint8Array, or null at its end; read is
// null for a request without a body) and ctx the request's ExecutionContext;
// it returns a Promise of {status, headers: [[name, value], ...], body}
// (body a Uint8Array, or null when empty). The body is pulled as h reads it,
// so edge refuses an oversized one having read only its limit. Work that
// outlives the answer runs in ctx.waitUntil (WithLater).
func ServeJS(h http.Handler, logger *slog.Logger) js.Func {
	return js.FuncOf(func(_ js.Value, args []js.Value) any {
		in := jspromise.Arg0(args)
		return jspromise.Async(func() (v any, err error) {
			// A panic here would end the Go program that serves the whole
			// isolate: reject this request instead (index.mjs answers 503).
			defer func() {
				if p := recover(); p != nil {
					v, err = nil, errors.New("the front could not read this request")
				}
			}()
			r, err := jsRequest(in)
			if err != nil {
				return nil, err
			}
			return jsAnswer(ServeBuffered(h, r, logger)), nil
		})
	})
}

// jsRequest is the http.Request of index.mjs's request object.
func jsRequest(in js.Value) (*http.Request, error) {
	execCtx := in.Get("ctx")
	ctx := WithLater(context.Background(), func(task func()) {
		execCtx.Call("waitUntil", jspromise.Async(func() (any, error) { task(); return nil, nil }))
	})
	var body io.Reader = http.NoBody
	if read := in.Get("read"); read.Type() == js.TypeFunction {
		body = &jsBody{read: read}
	}
	r, err := http.NewRequestWithContext(ctx, in.Get("method").String(), in.Get("url").String(), body)
	if err != nil {
		return nil, err
	}
	hdr := in.Get("headers")
	for i, n := 0, hdr.Length(); i < n; i++ {
		kv := hdr.Index(i)
		r.Header.Add(kv.Index(0).String(), kv.Index(1).String())
	}
	// edge refuses a declared length over its limit before reading a byte;
	// -1 is an undeclared one, as net/http's server says.
	if body != http.NoBody {
		r.ContentLength = -1
		if n, err := strconv.ParseInt(r.Header.Get("Content-Length"), 10, 64); err == nil && n >= 0 {
			r.ContentLength = n
		}
	}
	return r, nil
}

// jsAnswer is the object index.mjs turns into a Response.
func jsAnswer(a Answer) js.Value {
	out := js.Global().Get("Object").New()
	out.Set("status", a.Status)
	headers := js.Global().Get("Array").New()
	for k, vs := range a.Header {
		for _, v := range vs {
			headers.Call("push", js.ValueOf([]any{k, v}))
		}
	}
	out.Set("headers", headers)
	if len(a.Body) == 0 {
		out.Set("body", js.Null())
	} else {
		b := js.Global().Get("Uint8Array").New(len(a.Body))
		js.CopyBytesToJS(b, a.Body)
		out.Set("body", b)
	}
	return out
}

// jsBody reads a request body chunk by chunk through index.mjs's read().
type jsBody struct {
	read js.Value
	buf  []byte
	done bool
}

func (b *jsBody) Read(p []byte) (int, error) {
	for len(b.buf) == 0 {
		if b.done {
			return 0, io.EOF
		}
		v, err := jspromise.Await(b.read.Invoke())
		if err != nil {
			b.done = true
			return 0, err
		}
		if v.IsNull() || v.IsUndefined() {
			b.done = true
			return 0, io.EOF
		}
		b.buf = make([]byte, v.Length())
		js.CopyBytesToGo(b.buf, v)
	}
	n := copy(p, b.buf)
	b.buf = b.buf[n:]
	return n, nil
}
