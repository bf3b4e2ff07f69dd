// A JavaScript host embedding the Code Mode reactor with node:wasi (Node 20+):
// _initialize, create a runtime with one host tool, exec a cell that calls it,
// execute each pending host call, settle it, wait for the result.
//
//   node wasm/wasip1/examples/host.mjs build/codemode.wasip1.reactor.wasm
import { WASI } from 'node:wasi';
import { readFile } from 'node:fs/promises';
import assert from 'node:assert/strict';

const wasi = new WASI({ version: 'preview1', args: [], env: {} });
const module = await WebAssembly.compile(await readFile(process.argv[2] ?? 'build/codemode.wasip1.reactor.wasm'));
const instance = await WebAssembly.instantiate(module, wasi.getImportObject());
wasi.initialize(instance); // calls _initialize: a reactor has no _start
const x = instance.exports;

// call writes a JSON request into a malloc buffer (the module frees it), calls
// the export and reads (and frees) the answer at (result >> 32, result & 0xffffffff).
function call(name, request) {
  const bytes = new TextEncoder().encode(JSON.stringify(request));
  const ptr = x.malloc(bytes.length);
  new Uint8Array(x.memory.buffer, ptr, bytes.length).set(bytes); // a fresh view: memory may have grown
  const packed = x[name](ptr, bytes.length);
  const [at, len] = [Number(packed >> 32n), Number(packed & 0xffffffffn)];
  const answer = JSON.parse(new TextDecoder().decode(new Uint8Array(x.memory.buffer, at, len)));
  x.free(at);
  if (answer.error) throw new Error(`${name}: ${answer.error.code}: ${answer.error.message}`);
  return answer.ok;
}

const prices = { tea: 250, coffee: 300 };
const { runtime } = call('create_runtime', {
  tools: [{
    name: 'get_price', description: 'Price of an item in cents.', trusted: true,
    parameters: { type: 'object', properties: { item: { type: 'string' } }, required: ['item'] },
  }],
});
let answer = call('exec', {
  runtime,
  code: 'const [a, b] = await Promise.all([tools.get_price({item: "tea"}), tools.get_price({item: "coffee"})]); return a.cents + b.cents;',
});
while (answer.result.status === 'waiting') {
  for (const hc of answer.hostCalls) {
    console.log('host executes', hc.tool, JSON.stringify(hc.input));
    call('settle', { runtime, id: hc.id, result: { details: { cents: prices[hc.input.item] } } });
  }
  answer = call('wait', { runtime, runId: answer.result.runId });
}
console.log(answer.result.status, answer.result.value);
assert.equal(answer.result.value, 550);

// Bad input is an error answer, never a trap: the instance keeps working.
const bad = x.exec(12345, 10);
const badAnswer = new TextDecoder().decode(new Uint8Array(x.memory.buffer, Number(bad >> 32n), Number(bad & 0xffffffffn)));
assert.match(badAnswer, /must be a buffer from malloc/);
assert.throws(() => call('settle', { runtime, id: 'hc_999', result: {} }), /unknown host call/);
assert.equal(call('exec', { runtime, code: 'return 6 * 7' }).result.value, 42);
console.log('bad input answered with errors; instance still works');
