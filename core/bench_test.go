package core_test

import (
	"context"
	"testing"

	"github.com/codemode-go/codemode/core"
)

// BenchmarkExec measures whole exec calls: catalog, declarations and
// namespaces for the run, a VM from the pool, setup, evaluation and result.
func BenchmarkExec(b *testing.B) {
	rt := newRuntime(b, nil)
	ctx := context.Background()
	for _, bc := range []struct{ name, code string }{
		{"trivial", `return 1`},
		{"one tool call", `return (await tools.echo({message: "hi"})).message`},
		{"20 sequential tool calls", `let n = 0; for (let i = 0; i < 20; i++) n += (await tools.echo({message: "m" + i})).message.length; return n`},
		{"search+callValue", `const [t] = await tools.search("list shipments"); return (await tools.callValue(t.id, {})).length`},
	} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				if r := rt.Exec(ctx, core.CallInfo{Scope: testScope}, core.ExecInput{Code: bc.code}); r.Status != core.StatusCompleted {
					b.Fatalf("%+v", r)
				}
			}
		})
	}
	b.Run("yield+wait", func(b *testing.B) {
		for b.Loop() {
			r := rt.Exec(ctx, core.CallInfo{Scope: testScope}, core.ExecInput{Code: `await yield_control(); return 1`})
			if r = rt.Wait(ctx, core.CallInfo{Scope: testScope}, core.WaitInput{RunID: r.RunID}); r.Status != core.StatusCompleted {
				b.Fatalf("%+v", r)
			}
		}
	})
}

// BenchmarkGuardedMemberRead: 100,000 reads of tools.shipping_list through the
// unknown-name guard (a Proxy get trap), against the same reads of a plain
// frozen object in the same run; the ratio is the guard's cost per read.
func BenchmarkGuardedMemberRead(b *testing.B) {
	rt := newRuntime(b, nil)
	ctx := context.Background()
	for _, bc := range []struct{ name, code string }{
		{"plain frozen object", `const o = Object.freeze({ shipping_list() {} }); let f; for (let i = 0; i < 1e5; i++) f = o.shipping_list; return typeof f`},
		{"guarded tools", `let f; for (let i = 0; i < 1e5; i++) f = tools.shipping_list; return typeof f`},
	} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				if r := rt.Exec(ctx, core.CallInfo{Scope: testScope}, core.ExecInput{Code: bc.code}); r.Status != core.StatusCompleted {
					b.Fatalf("%+v", r)
				}
			}
		})
	}
}
