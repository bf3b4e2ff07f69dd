package hostile

// Ordinary are everyday cells with their exact results in deterministic mode
// (fixed clock, seeded randomness): the corpus of the differential test. The
// same values must come out natively (wazero), under GOOS=js on the host
// engine and through the wasip1 module, so each Want is the value as JSON
// text, compared exactly.
var Ordinary = []Case{
	{Name: "arithmetic and strings", Code: `return [1 + 2 * 3, "ab".repeat(3), (0.1 + 0.2).toFixed(2), 2 ** 53 + 1]`, Want: `[7,"ababab","0.30",9007199254740992]`},
	{Name: "seeded Math.random", Code: `return Array.from({length: 4}, () => Math.floor(Math.random() * 1000))`, Want: `[556,453,737,601]`},
	{Name: "fixed clock", Code: `return [Date.now(), new Date().toISOString()]`, Want: `[1704067200000,"2024-01-01T00:00:00.000Z"]`},
	{Name: "JSON round trip", Code: `const o = {a: [1, {b: null}], c: "\u00e9\u2028", d: 1e21}; return JSON.parse(JSON.stringify(o))`, Want: "{\"a\":[1,{\"b\":null}],\"c\":\"\u00e9\u2028\",\"d\":1e+21}"},
	{Name: "sort, map, reduce", Code: `const a = [5, 3, 9, 1, 7].sort((x, y) => x - y); return {a, sum: a.reduce((s, x) => s + x, 0), sq: a.map((x) => x * x)}`, Want: `{"a":[1,3,5,7,9],"sum":25,"sq":[1,9,25,49,81]}`},
	{Name: "BigInt", Code: `return String(2n ** 100n)`, Want: `"1267650600228229401496703205376"`},
	{Name: "Map, Set and the output adapter", Code: `return {m: new Map([["k", 1]]), s: new Set([1, 2]), d: new Date(0), u: undefined, n: NaN}`, Want: `{"m":[["k",1]],"s":[1,2],"d":"1970-01-01T00:00:00.000Z","n":"NaN"}`},
	{Name: "regex and unicode", Code: `return ["a1b22c333".match(/\d+/g), "Straße".toUpperCase(), [..."héllo"].length]`, Want: `[["1","22","333"],"STRASSE",5]`},
	{Name: "a caught error", Code: `try { null.x } catch (e) { return [e.name, e instanceof TypeError] }`, Want: `["TypeError",true]`},
	{Name: "TypeScript", Language: "typescript", Code: `interface P { x: number } const p: P = { x: 41 }; return p.x + 1`, Want: `42`},
	{Name: "console and text", Code: `console.log("hello", {a: 1}); text("more"); return "done"`, Want: `"done"`},
	{Name: "an example tool through tools.callValue", Code: `return await tools.callValue("openclaw:core:echo", {message: "differential"})`, Want: `{"message":"differential"}`},
	{Name: "search then describe", Code: `const [t] = await tools.search("shipping", 1); const d = await tools.describe(t.id); return [t.id, typeof d.parameters]`, Want: `["openclaw:shipping:shipping_list","object"]`},
	{Name: "a shipment list with its output contract", Code: `const s = await tools.callValue("openclaw:shipping:shipping_list", {}); return s.length > 0 && s.every((x) => typeof x.tons === "number")`, Want: `true`},
	{Name: "async ordering", Code: `const log = []; await Promise.all([1, 2, 3].map(async (i) => { await null; log.push(i); })); queueMicrotask(() => log.push("m")); await null; return log`, Want: `[1,2,3,"m"]`},
}
