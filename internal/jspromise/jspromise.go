//go:build js && wasm

// Package jspromise bridges JavaScript Promises and goroutines for the GOOS=js
// programs (wasm/codemode, the Worker's front): a Go function handed to
// JavaScript returns a Promise at once and does its work on a goroutine, and a
// goroutine waits for a Promise on a channel. Waiting for the event loop is only
// possible on a goroutine of its own, never inside a synchronous callback
// (that is a fatal "all goroutines are asleep").
package jspromise

import (
	"context"
	"errors"
	"sync"
	"syscall/js"
)

// Async returns a Promise settled by work, which runs on its own goroutine: the
// caller's JavaScript turn ends at once, so Go may later wait for the event
// loop. work's value goes through js.ValueOf; its error rejects with an Error.
func Async(work func() (any, error)) js.Value {
	var exec js.Func
	exec = js.FuncOf(func(_ js.Value, args []js.Value) any {
		resolve, reject := args[0], args[1]
		exec.Release()
		go func() {
			v, err := work()
			if err != nil {
				reject.Invoke(js.Global().Get("Error").New(err.Error()))
				return
			}
			resolve.Invoke(v)
		}()
		return nil
	})
	return js.Global().Get("Promise").New(exec)
}

// Await waits for p (a Promise or any value) on the calling goroutine and
// returns its value, or its rejection as an error (see Message).
func Await(p js.Value) (js.Value, error) {
	return AwaitContext(context.Background(), p, nil)
}

// AwaitContext is Await that gives up when ctx is done, after calling cancel
// (when not nil): the caller's goroutine waits on the Promise's settlement
// and ctx at once, so a client-tool call or a fetch costs no goroutine of its
// own. A Promise that settles after ctx ended is still consumed, so its
// callbacks are released.
func AwaitContext(ctx context.Context, p js.Value, cancel func()) (js.Value, error) {
	ch := make(chan outcome, 1)
	var ok, fail js.Func
	ok = js.FuncOf(func(_ js.Value, args []js.Value) any {
		ch <- outcome{v: Arg0(args)}
		return nil
	})
	fail = js.FuncOf(func(_ js.Value, args []js.Value) any {
		ch <- outcome{err: errors.New(Message(Arg0(args)))}
		return nil
	})
	release := func() {
		ok.Release()
		fail.Release()
	}
	if !p.InstanceOf(promiseCtor) {
		p = promiseCtor.Call("resolve", p)
	}
	p.Call("then", ok, fail)
	select {
	case o := <-ch:
		release()
		return o.v, o.err
	case <-ctx.Done():
		if cancel != nil {
			cancel()
		}
		go func() {
			<-ch
			release()
		}()
		return js.Undefined(), ctx.Err()
	}
}

// promiseCtor is the realm's Promise, looked up once: a client-tool call or a
// fetch awaits a promise the host's hooks made, which needs no Promise.resolve
// wrapping (one JavaScript call and one js.Value with its finalizer fewer per
// await; on V8 each js.Value's finalizer is a measurable share of a call).
var promiseCtor = js.Global().Get("Promise")

// Arg0 is a callback's first argument, undefined when there is none.
func Arg0(args []js.Value) js.Value {
	if len(args) == 0 {
		return js.Undefined()
	}
	return args[0]
}

// Message is what a rejection says: an Error's "Name: message" (name left out
// for plain Errors), else its string form.
func Message(v js.Value) string {
	if v.Type() == js.TypeObject {
		if m := v.Get("message"); m.Type() == js.TypeString {
			if n := v.Get("name"); n.Type() == js.TypeString && n.String() != "Error" && n.String() != "" {
				return n.String() + ": " + m.String()
			}
			return m.String()
		}
	}
	return js.Global().Get("String").Invoke(v).String()
}

// Watcher awaits promises through a helper of the host's JavaScript,
// (p, token, settle) => p.then((v) => settle(token, true, v), (e) =>
// settle(token, false, e)), and one long-lived Go function, settle: an await
// then costs one JavaScript call, where AwaitContext makes two Go functions
// (each a JavaScript wrapper, a table entry and a finalized js.Value), asks
// instanceof and keeps then's promise. A page's client-tool call awaits once
// (RESULTS.md, calls-4). A nil *Watcher is AwaitContext.
type Watcher struct {
	watch  js.Value
	settle js.Func
	mu     sync.Mutex
	next   uint32
	wait   map[uint32]chan outcome // by token (uint32: the runtime's map code for syscall/js's own table)
}

type outcome struct {
	v   js.Value
	err error
}

// NewWatcher makes a Watcher over the host's helper; nil when watch is not a
// function (a host without one awaits as AwaitContext does).
func NewWatcher(watch js.Value) *Watcher {
	if watch.Type() != js.TypeFunction {
		return nil
	}
	w := &Watcher{watch: watch, wait: map[uint32]chan outcome{}}
	w.settle = js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) < 3 || args[0].Type() != js.TypeNumber {
			return nil
		}
		token := uint32(args[0].Int())
		w.mu.Lock()
		ch := w.wait[token]
		delete(w.wait, token)
		w.mu.Unlock()
		if ch == nil {
			return nil // its await gave up (ctx done), or a token it never gave
		}
		if args[1].Truthy() {
			ch <- outcome{v: args[2]}
		} else {
			ch <- outcome{err: errors.New(Message(args[2]))}
		}
		return nil
	})
	return w
}

// AwaitContext is the package's AwaitContext through the helper: the same
// value, the same errors, the same cancel when ctx is done first.
func (w *Watcher) AwaitContext(ctx context.Context, p js.Value, cancel func()) (js.Value, error) {
	if w == nil {
		return AwaitContext(ctx, p, cancel)
	}
	ch := make(chan outcome, 1)
	w.mu.Lock()
	w.next++
	token := w.next
	w.wait[token] = ch
	w.mu.Unlock()
	w.watch.Invoke(p, token, w.settle.Value)
	select {
	case o := <-ch:
		return o.v, o.err
	case <-ctx.Done():
		w.mu.Lock()
		delete(w.wait, token) // a later settlement finds nothing to wake
		w.mu.Unlock()
		if cancel != nil {
			cancel()
		}
		return js.Undefined(), ctx.Err()
	}
}
