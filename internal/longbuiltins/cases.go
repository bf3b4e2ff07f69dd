// Package longbuiltins lists cells that spend their time inside one long QuickJS
// built-in, where QuickJS never reaches its interrupt check: the cases the time
// limit must stop from outside the guest (engine.Poller). Each runs forever (or
// for many seconds) if nothing stops it. The core tests run them on both wazero
// engines; `./build.sh bench-limits` prints how far past timeoutMs each ends.
package longbuiltins

// Case is one cell. Interpreter marks the cases also run on wazero's
// interpreter in the tests (all of them are slow there, so a subset).
type Case struct {
	Name        string
	Code        string
	Interpreter bool
}

// Cases are the long built-ins named by issue 8 and a few more of each kind.
var Cases = []Case{
	{"JSON.stringify of a 16 MiB string", `const s = "x".repeat(1 << 24); for (;;) JSON.stringify(s);`, true},
	{"JSON.parse of a 4 MiB array", `const t = "[" + "1,".repeat(1 << 21) + "1]"; for (;;) JSON.parse(t);`, false},
	{"indexOf a missing char in 4 MiB", `const s = "a".repeat(1 << 22); for (;;) s.indexOf("b");`, true},
	{"repeat to 16 MiB", `for (;;) "ab".repeat(1 << 23).length;`, false},
	{"split of 4 MiB", `const s = "a,".repeat(1 << 21); for (;;) s.split(",").length;`, false},
	{"join of a 2^32-1 length array", `const a = []; a.length = 2 ** 32 - 1; for (;;) a.join(",");`, true},
	{"reverse of a 2^32-1 length array", `const a = []; a.length = 2 ** 32 - 1; for (;;) a.reverse();`, false},
	{"copyWithin of a 2^32-1 length array", `const a = []; a.length = 2 ** 32 - 1; for (;;) a.copyWithin(0, 1);`, false},
	{"splice of a 2^32-1 length array", `const a = []; a.length = 2 ** 32 - 1; for (;;) a.splice(0, 1);`, false},
	{"flat of a 2^32-1 length array", `const a = []; a.length = 2 ** 32 - 1; for (;;) a.flat();`, false},
	{"toString of a 2^32-1 length array", `const a = []; a.length = 2 ** 32 - 1; for (;;) a.toString();`, false},
	{"default sort of 1e6 numbers", `const a = Array.from({length: 1e6}, (_, i) => (i * 7919) % 1e6); for (;;) a.slice().sort();`, true},
	{"BigInt to string (1 Mbit)", `for (;;) String((1n << 1048574n) - 1n).length;`, true},
	{"regex catastrophic backtracking", `const s = "a".repeat(40) + "!"; for (;;) /^(a+)+$/.test(s);`, true},
	{"typed-array copy of 32 MiB", `const a = new Uint8Array(1 << 25); for (;;) a.copyWithin(0, 1);`, false},
	{"typed-array set of 16 MiB", `const a = new Uint8Array(1 << 24), b = new Uint8Array(1 << 24); for (;;) a.set(b);`, false},
	{"typed-array sort of 2M floats", `const a = new Float64Array(1 << 21).map((_, i) => (i * 7919) % 1000); for (;;) a.slice().sort();`, false},
	{"single BigInt to string that finishes late", `return String((1n << 1048574n) - 1n).length;`, false},
}
