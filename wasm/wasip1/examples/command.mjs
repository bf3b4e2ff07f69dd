// Runs the command module under node:wasi with the current directory preopened
// at /data, like `wazero run -mount .:/data`:
//
//   node wasm/wasip1/examples/command.mjs build/codemode.wasip1.wasm exec -e 'return 1+1'
import { WASI } from 'node:wasi';
import { readFile } from 'node:fs/promises';

const [file, ...args] = process.argv.slice(2);
const wasi = new WASI({ version: 'preview1', args: ['codemode', ...args], env: {}, preopens: { '/data': process.cwd() }, returnOnExit: true });
const instance = await WebAssembly.instantiate(await WebAssembly.compile(await readFile(file)), wasi.getImportObject());
process.exitCode = wasi.start(instance);
