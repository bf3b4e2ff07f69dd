// The JavaScript half of internal/engine/jsengine: runs quickjs.wasm on this host's
// own WebAssembly engine for a GOOS=js Go program.
//
// installHostEngine(go, {quickjsModule}) must run before the Go instance is
// created (it adds the "codemode_host" import module that Go's //go:wasmimport
// functions bind to); call bind(instance) right after instantiating it. QuickJS's
// imports are bound to the Go instance's //go:wasmexport functions, so no call
// between the two modules goes through syscall/js.
//
// Works unchanged in a page, a Web Worker, Node.js >= 20 and workerd.

const utf8 = new TextDecoder();

/**
 * @param {any} go an instance of wasm_exec.js's Go class, not yet run
 * @param {{quickjsModule?: WebAssembly.Module}} [opts] the compiled quickjs.wasm
 *   the Go side uses when it is not handed a module explicitly
 */
export function installHostEngine(go, opts = {}) {
  const modules = []; // {mod, names, table, guarded}
  const insts = []; // {fns, mem, sp, u8, error} or undefined
  const free = [];
  let lastError = "";
  let gx = null; // the Go instance's exports
  let goU8 = new Uint8Array(0);

  const goBytes = () => {
    if (goU8.buffer !== gx.mem.buffer) goU8 = new Uint8Array(gx.mem.buffer);
    return goU8;
  };
  const guestBytes = (x) => {
    if (x.u8.buffer !== x.mem.buffer) x.u8 = new Uint8Array(x.mem.buffer);
    return x.u8;
  };
  const describe = (e) => (e && e.name ? `${e.name}: ${e.message}` : String(e));
  // STOP unwinds a guest the core stopped (its poll answered -1): thrown out of
  // an import, it leaves every wasm frame up to the glue's call(), which
  // reports -1, and the Go side answers the poll's own error. Every import of a
  // stopped instance throws it again, so nothing of the guest runs on.
  const STOP = new Error("guest stopped by the host");
  const stopped = (id) => insts[id] !== undefined && insts[id].stopped;

  function instantiate(mid) {
    const m = modules[mid];
    if (!m) { lastError = "unknown module"; return -1; }
    const id = free.length ? free.pop() : insts.length;
    const imports = {};
    m.table.forEach(([modName, name, i64, hasResult], index) => {
      let f;
      if (modName === "env" && name === "host_call") {
        f = (a, b, c, d, e) => {
          if (stopped(id)) throw STOP;
          return gx.codemode_host_call(id, a, b, c, d, e);
        };
      } else if (modName === "env" && name === "host_interrupt") {
        f = () => {
          if (stopped(id)) throw STOP;
          return gx.codemode_host_interrupt(id);
        };
      } else {
        const n = (v, k) => (i64[k] ? Number(v) : v) ?? 0;
        f = (a0, a1, a2, a3) => {
          if (stopped(id)) throw STOP;
          const r = gx.codemode_import(id, index, n(a0, 0), n(a1, 1), n(a2, 2), n(a3, 3));
          return hasResult ? r : undefined;
        };
      }
      (imports[modName] ??= {})[name] = f;
    });
    if (m.guarded) {
      // The loop guard's poll (build/web's quickjs.wasm): the next countdown,
      // or STOP when the core says the guest must end (deadline, abort).
      (imports.codemode ??= {}).poll = () => {
        const r = gx.codemode_host_poll(id);
        if (r < 0) {
          if (insts[id]) insts[id].stopped = true;
          throw STOP;
        }
        return r;
      };
    }
    let inst;
    try {
      inst = new WebAssembly.Instance(m.mod, imports);
    } catch (e) {
      free.push(id);
      lastError = describe(e);
      return -1;
    }
    const ex = inst.exports;
    insts[id] = { fns: m.names.map((k) => ex[k]), mem: ex.memory, sp: ex.__stack_pointer, u8: new Uint8Array(0), error: "", stopped: false };
    return id;
  }

  go.importObject.codemode_host = {
    instantiate,
    drop(id) {
      if (insts[id]) { insts[id] = undefined; free.push(id); }
    },
    export_index(mid, ptr, n) {
      const name = utf8.decode(goBytes().subarray(ptr, ptr + n));
      return modules[mid] ? modules[mid].names.indexOf(name) : -1;
    },
    call(id, fn, a0, a1, a2, a3, a4, a5) {
      const x = insts[id];
      try {
        const r = x.fns[fn](a0, a1, a2, a3, a4, a5);
        return r === undefined ? 0 : r >>> 0;
      } catch (e) {
        x.error = describe(e);
        return -1;
      }
    },
    call_f(id, fn, v) {
      const x = insts[id];
      try {
        const r = x.fns[fn](v);
        return r === undefined ? 0 : r >>> 0;
      } catch (e) {
        x.error = describe(e);
        return -1;
      }
    },
    error_message(id, ptr, cap) {
      const msg = id >= 0 && insts[id] ? insts[id].error : lastError;
      const { written } = new TextEncoder().encodeInto(msg, goBytes().subarray(ptr, ptr + cap));
      return written;
    },
    mem_pages(id) { return insts[id].mem.buffer.byteLength / 65536; },
    mem_grow(id, delta) {
      try { return insts[id].mem.grow(delta); } catch { return -1; }
    },
    mem_read(id, dst, off, n) {
      const src = guestBytes(insts[id]);
      if (off < 0 || n < 0 || off + n > src.length) return 0;
      const go8 = goBytes();
      if (n <= 16) for (let i = 0; i < n; i++) go8[dst + i] = src[off + i];
      else go8.set(src.subarray(off, off + n), dst);
      return 1;
    },
    mem_write(id, srcPtr, off, n) {
      const dst = guestBytes(insts[id]);
      if (off < 0 || n < 0 || off + n > dst.length) return 0;
      const go8 = goBytes();
      if (n <= 16) for (let i = 0; i < n; i++) dst[off + i] = go8[srcPtr + i];
      else dst.set(go8.subarray(srcPtr, srcPtr + n), off);
      return 1;
    },
    mem_zero(id, off, n) {
      const dst = guestBytes(insts[id]);
      if (off < 0 || n < 0 || off + n > dst.length) return 0;
      dst.fill(0, off, off + n);
      return 1;
    },
    sp_get(id) { return insts[id].sp.value; },
    sp_set(id, v) { insts[id].sp.value = v; },
  };

  const glue = {
    quickjsModule: opts.quickjsModule,
    registerModule(mod, table) {
      const names = WebAssembly.Module.exports(mod).filter((e) => e.kind === "function").map((e) => e.name);
      const guarded = WebAssembly.Module.imports(mod).some((i) => i.module === "codemode" && i.name === "poll");
      modules.push({ mod, names, table, guarded });
      return modules.length - 1;
    },
  };

  return {
    /**
     * Binds the Go instance and publishes the glue for it. Call it right before
     * go.run(instance): the Go side reads the global once while it starts, so
     * several Go instances can share one realm.
     * @param {WebAssembly.Instance} instance the Go instance
     */
    bind(instance) {
      gx = instance.exports;
      globalThis.__codemodeHostEngine = glue;
    },
  };
}
