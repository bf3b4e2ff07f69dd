//go:build js && wasm

package main

import (
	"errors"
	"syscall/js"
)

// async returns a Promise settled by work, which runs on its own goroutine: the
// caller's JavaScript turn ends at once, so Go may later wait for the event loop.
func async(work func() (string, error)) js.Value {
	var exec js.Func
	exec = js.FuncOf(func(_ js.Value, args []js.Value) any {
		resolve, reject := args[0], args[1]
		exec.Release()
		go func() {
			s, err := work()
			if err != nil {
				reject.Invoke(js.Global().Get("Error").New(err.Error()))
				return
			}
			resolve.Invoke(s)
		}()
		return nil
	})
	return js.Global().Get("Promise").New(exec)
}

// await waits for p on the calling goroutine. It must never run inside a QuickJS
// import callback; tool executions run on goroutines of their own, so it does not.
func await(p js.Value) (js.Value, error) {
	type outcome struct {
		v   js.Value
		err error
	}
	ch := make(chan outcome, 1)
	var ok, fail js.Func
	ok = js.FuncOf(func(_ js.Value, args []js.Value) any {
		ch <- outcome{v: arg0(args)}
		return nil
	})
	fail = js.FuncOf(func(_ js.Value, args []js.Value) any {
		ch <- outcome{err: errors.New(message(arg0(args)))}
		return nil
	})
	js.Global().Get("Promise").Call("resolve", p).Call("then", ok, fail)
	o := <-ch
	ok.Release()
	fail.Release()
	return o.v, o.err
}

func arg0(args []js.Value) js.Value {
	if len(args) == 0 {
		return js.Undefined()
	}
	return args[0]
}

// message is what a rejection says: an Error's "Name: message" (name left out
// for plain Errors), else its string form.
func message(v js.Value) string {
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
