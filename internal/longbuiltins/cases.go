// Package longbuiltins lists cells that spend their time inside one long QuickJS
// built-in, where QuickJS never reaches its interrupt check: the cases the time
// limit must stop from outside the guest (engine.Poller). Each runs forever (or
// for many seconds) if nothing stops it. The core tests run them on both wazero
// engines; `./build.sh bench-limits` prints how far past timeoutMs each ends.
package longbuiltins

// Case is one cell.
type Case struct {
	Name string
	Code string
}

// Cases are the long built-ins named by issue 8 and a few more of each kind.
var Cases = []Case{
	{"JSON.stringify of a 16 MiB string", `const s = "x".repeat(1 << 24); for (;;) JSON.stringify(s);`},
	{"JSON.parse of a 4 MiB array", `const t = "[" + "1,".repeat(1 << 21) + "1]"; for (;;) JSON.parse(t);`},
	{"indexOf a missing char in 4 MiB", `const s = "a".repeat(1 << 22); for (;;) s.indexOf("b");`},
	{"repeat to 16 MiB", `for (;;) "ab".repeat(1 << 23).length;`},
	// 2 MiB, not 4: one split of 2^21 pieces comes close to a 64 MiB
	// memoryLimitBytes, so on a quick run the cell ended out of memory before
	// its deadline instead of as a timeout.
	{"split of 2 MiB", `const s = "a,".repeat(1 << 20); for (;;) s.split(",").length;`},
	{"join of a 2^32-1 length array", `const a = []; a.length = 2 ** 32 - 1; for (;;) a.join(",");`},
	{"reverse of a 2^32-1 length array", `const a = []; a.length = 2 ** 32 - 1; for (;;) a.reverse();`},
	{"copyWithin of a 2^32-1 length array", `const a = []; a.length = 2 ** 32 - 1; for (;;) a.copyWithin(0, 1);`},
	{"splice of a 2^32-1 length array", `const a = []; a.length = 2 ** 32 - 1; for (;;) a.splice(0, 1);`},
	{"flat of a 2^32-1 length array", `const a = []; a.length = 2 ** 32 - 1; for (;;) a.flat();`},
	{"toString of a 2^32-1 length array", `const a = []; a.length = 2 ** 32 - 1; for (;;) a.toString();`},
	{"default sort of 1e6 numbers", `const a = Array.from({length: 1e6}, (_, i) => (i * 7919) % 1e6); for (;;) a.slice().sort();`},
	{"BigInt to string (1 Mbit)", `for (;;) String((1n << 1048574n) - 1n).length;`},
	{"regex catastrophic backtracking", `const s = "a".repeat(40) + "!"; for (;;) /^(a+)+$/.test(s);`},
	{"typed-array copy of 32 MiB", `const a = new Uint8Array(1 << 25); for (;;) a.copyWithin(0, 1);`},
	{"typed-array set of 16 MiB", `const a = new Uint8Array(1 << 24), b = new Uint8Array(1 << 24); for (;;) a.set(b);`},
	{"typed-array sort of 2M floats", `const a = new Float64Array(1 << 21).map((_, i) => (i * 7919) % 1000); for (;;) a.slice().sort();`},
	{"single BigInt to string that finishes late", `return String((1n << 1048574n) - 1n).length;`},
}
