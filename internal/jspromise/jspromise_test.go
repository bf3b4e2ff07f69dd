//go:build js && wasm

package jspromise

import (
	"context"
	"syscall/js"
	"testing"
	"time"
)

// helper is hostjs/core.js's watch, for the test's own realm.
func helper() js.Value {
	return js.Global().Get("Function").New("p", "token", "settle",
		"Promise.resolve(p).then((v) => settle(token, true, v), (e) => settle(token, false, e));")
}

func rejected(name, msg string) js.Value {
	e := js.Global().Get("Error").New(msg)
	e.Set("name", name)
	return js.Global().Get("Promise").Call("reject", e)
}

// TestWatcherAnswersAsAwaitContext: values, plain values, rejections and an
// await whose context ends first answer through the helper exactly as
// AwaitContext answers.
func TestWatcherAnswersAsAwaitContext(t *testing.T) {
	w := NewWatcher(helper())
	if w == nil {
		t.Fatal("NewWatcher refused a function")
	}
	resolved := func() js.Value { return js.Global().Get("Promise").Call("resolve", "text") }
	for _, tc := range []struct {
		name string
		p    func() js.Value
	}{
		{"resolved", resolved},
		{"plain value", func() js.Value { return js.ValueOf(7) }},
		{"TypeError", func() js.Value { return rejected("TypeError", "bad input") }},
		{"Error", func() js.Value { return rejected("Error", "it failed") }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want, wantErr := AwaitContext(context.Background(), tc.p(), nil)
			got, gotErr := w.AwaitContext(context.Background(), tc.p(), nil)
			if (wantErr == nil) != (gotErr == nil) || wantErr != nil && wantErr.Error() != gotErr.Error() {
				t.Fatalf("error %v, want %v", gotErr, wantErr)
			}
			if wantErr == nil && !got.Equal(want) {
				t.Fatalf("value %v, want %v", got, want)
			}
		})
	}
}

func TestWatcherGivesUpWithItsContext(t *testing.T) {
	w := NewWatcher(helper())
	var settle js.Value
	p := js.Global().Get("Promise").New(js.FuncOf(func(_ js.Value, args []js.Value) any {
		settle = args[0]
		return nil
	}))
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	cancelled := false
	_, err := w.AwaitContext(ctx, p, func() { cancelled = true })
	if err != context.DeadlineExceeded || !cancelled {
		t.Fatalf("err %v, cancel called %v; want the deadline and the cancel", err, cancelled)
	}
	settle.Invoke("late") // finds no await to wake
	v, err := w.AwaitContext(context.Background(), js.ValueOf("next"), nil)
	if err != nil || v.String() != "next" {
		t.Fatalf("the next await answered %v, %v", v, err)
	}
	if len(w.wait) != 0 {
		t.Fatalf("%d awaits still registered", len(w.wait))
	}
}

func TestNewWatcherWithoutAHelper(t *testing.T) {
	var w *Watcher = NewWatcher(js.Undefined())
	if w != nil {
		t.Fatal("a Watcher without a helper function")
	}
	v, err := w.AwaitContext(context.Background(), js.ValueOf("x"), nil)
	if err != nil || v.String() != "x" {
		t.Fatalf("a nil Watcher answered %v, %v", v, err)
	}
}
