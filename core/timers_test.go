package core_test

import (
	"testing"

	"github.com/codemode-go/codemode/internal/config"
)

func TestTimersAreNotToolCalls(t *testing.T) {
	rt := newRuntime(t, func(c *config.Config) { c.MaxPendingToolCalls = 2 })
	for _, tc := range []struct{ name, code, want string }{
		{"more timers than maxPendingToolCalls all fire",
			`const fired = []; for (let i = 0; i < 5; i++) setTimeout(() => fired.push(i), 1);
			 await new Promise((r) => setTimeout(r, 30)); return fired;`, `[0,1,2,3,4]`},
		{"tool calls and timers side by side",
			`const t = new Promise((r) => setTimeout(() => r("t"), 5));
			 const a = tools.callValue("openclaw:core:sleep_ms", {ms: 5}), b = tools.callValue("openclaw:core:sleep_ms", {ms: 5});
			 return [await t, (await a).slept, (await b).slept];`, `["t",5,5]`},
		{"past the timer bound setTimeout throws a catchable RangeError",
			`const ids = []; let err = null;
			 try { for (let i = 0; i < 2000; i++) ids.push(setTimeout(() => {}, 100000)); } catch (e) { err = e; }
			 for (const id of ids) clearTimeout(id);
			 return [err && err.name, ids.length, /too many pending timers/.test(err && err.message)];`, `["RangeError",1000,true]`},
		{"a cleared timer never fires and does not hold the run",
			`let fired = false; const id = setTimeout(() => { fired = true; }, 5); clearTimeout(id);
			 await new Promise((r) => setTimeout(r, 20)); return fired;`, `false`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := jsonText(value(t, exec(t, rt, tc.code))); got != tc.want {
				t.Fatalf("got %s, want %s", got, tc.want)
			}
		})
	}
}
