// The Code Mode guest runtime, evaluated once into the VM template before any
// model code exists. Everything the model can reach is built here from two host
// functions (sync and async), both captured in this closure and never exposed:
// one coarse JSON bridge, one host call per operation, JSON strings both ways.
(function (host) {
  "use strict";
  const hostSync = host.__openclaw_sync, hostAsync = host.__openclaw_async;
  const parse = JSON.parse, stringify = JSON.stringify, S = String;
  const freeze = Object.freeze, define = Object.defineProperty, keys = Object.keys;
  const hasOwn = (o, k) => Object.prototype.hasOwnProperty.call(o, k);
  const isArray = Array.isArray, ErrorCtor = Error, PromiseCtor = Promise;
  const MapCtor = Map, SetCtor = Set, DateCtor = Date;
  const TypedArray = Object.getPrototypeOf(Int8Array);
  const ArrayBufferCtor = ArrayBuffer, DataViewCtor = DataView;
  const dateToISO = Date.prototype.toISOString, symToString = Symbol.prototype.toString;
  const mapEntries = Map.prototype.entries, setValues = Set.prototype.values;
  const arrayFrom = Array.from, getProto = Object.getPrototypeOf, create = Object.create;
  const ObjectProto = Object.prototype, ArrayProto = Array.prototype;
  const ProxyCtor = Proxy, reflectGet = Reflect.get;
  const MAX_DEPTH = 64;

  // ---- output adapter: any guest value -> JSON-compatible value, in the guest ----
  // Documented rules: undefined -> null at the top, dropped in objects, null in
  // arrays; NaN/Infinity -> "NaN"/"Infinity"/"-Infinity"; BigInt -> "123n";
  // Date -> ISO string (invalid -> null); Map -> [[k, v], ...]; Set -> [v, ...];
  // typed arrays -> arrays of their numbers; ArrayBuffer/DataView -> refused
  // (binary does not cross the bridge); functions -> "[Function name]"; symbols ->
  // "Symbol(desc)"; Error -> "Name: message"; cycles -> "[Circular]"; deeper than
  // 64 levels -> "[Too deep]"; objects with toJSON -> adapt(toJSON()).
  function adapt(v, seen, depth, inArray) {
    switch (typeof v) {
      case "string": case "boolean": return v;
      case "number":
        if (v !== v) return "NaN";
        if (v === Infinity) return "Infinity";
        if (v === -Infinity) return "-Infinity";
        return v === 0 ? 0 : v;
      case "bigint": return S(v) + "n";
      case "undefined": return inArray ? null : undefined;
      case "symbol": return symToString.call(v);
      case "function": return "[Function" + (v.name ? " " + S(v.name) : "") + "]";
    }
    if (v === null) return null;
    if (depth > MAX_DEPTH) return "[Too deep]";
    if (seen.has(v)) return "[Circular]";
    const proto = getProto(v);
    // Plain objects and arrays, what tool inputs almost always are, skip the
    // checks for the special kinds below (none of them has these prototypes).
    if (proto !== ObjectProto && proto !== null && proto !== ArrayProto) {
      if (v instanceof ArrayBufferCtor || v instanceof DataViewCtor) {
        throw new TypeError("binary data (" + (v instanceof DataViewCtor ? "DataView" : "ArrayBuffer") + ") cannot be passed out of the cell; convert it to an array or a string first");
      }
      if (v instanceof DateCtor) {
        const t = v.getTime();
        return t === t ? dateToISO.call(v) : null;
      }
    }
    if (typeof v.toJSON === "function") {
      seen.add(v);
      try { return adapt(v.toJSON(), seen, depth + 1, inArray); } finally { seen.delete(v); }
    }
    seen.add(v);
    try {
      if (isArray(v)) {
        const out = new Array(v.length);
        for (let i = 0; i < v.length; i++) out[i] = adapt(v[i], seen, depth + 1, true);
        return out;
      }
      if (proto !== ObjectProto && proto !== null) {
        if (v instanceof ErrorCtor) return S(v.name) + ": " + S(v.message);
        if (v instanceof TypedArray) return arrayFrom(v, (x) => adapt(x, seen, depth + 1, true));
        if (v instanceof MapCtor) {
          const out = [];
          for (const [k, x] of mapEntries.call(v)) out.push([adapt(k, seen, depth + 1, true), adapt(x, seen, depth + 1, true)]);
          return out;
        }
        if (v instanceof SetCtor) {
          const out = [];
          for (const x of setValues.call(v)) out.push(adapt(x, seen, depth + 1, true));
          return out;
        }
      }
      // A prototype-less copy: plain assignment then meets no setter or
      // toJSON a cell put on Object.prototype, and "__proto__" stays a key.
      const out = create(null);
      for (const k of keys(v)) {
        const x = adapt(v[k], seen, depth + 1, false);
        if (x !== undefined) out[k] = x;
      }
      return out;
    } finally {
      seen.delete(v);
    }
  }
  function toJSONText(v) {
    const a = adapt(v, new SetCtor(), 0, false);
    return stringify(a === undefined ? null : a);
  }

  // ---- the bridge ----
  function fail(e) {
    const err = new (e.name === "TypeError" ? TypeError : e.name === "RangeError" ? RangeError : ErrorCtor)(S(e.message));
    if (e.name !== "TypeError" && e.name !== "RangeError" && e.name !== "Error") err.name = S(e.name);
    if (e.code !== undefined) err.code = S(e.code);
    return err;
  }
  function sync(op, args) {
    const r = parse(hostSync(stringify({ op: op, ...args })));
    if (hasOwn(r, "error")) throw fail(r.error);
    return r.ok;
  }
  function call(op, args, inputText) {
    // The host answers with a promise of a JSON text; rejections carry plain
    // {name, message} data, re-created here as guest errors. inputText, when
    // given, is the "input" field already serialized by the output adapter:
    // spliced in as text, it is not parsed and stringified once more. The
    // message is put together as text too (no spread object per call).
    let p;
    try {
      let msg = stringify(args);
      msg = '{"op":' + stringify(op) + (msg.length > 2 ? "," + msg.slice(1, -1) : "") +
        (inputText !== undefined ? ',"input":' + inputText : "") + "}";
      p = hostAsync(msg);
    } catch (e) {
      // Refused before it started (unknown id, policy, restartSafe, limits):
      // still a rejected promise, as for any other failed call.
      return PromiseCtor.reject(fail({ name: e && e.name, message: e && e.message }));
    }
    return p.then(
      (t) => parse(t),
      (e) => { throw fail({ name: e && e.name, message: e && e.message, code: e && e.code }); },
    );
  }
  function inputOf(input) {
    return input === undefined ? {} : parse(toJSONText(input));
  }
  // inputText is a tool input as JSON text (undefined -> {}), for call().
  function inputText(input) {
    return input === undefined ? "{}" : toJSONText(input);
  }

  function text(value) {
    let s;
    if (typeof value === "string") s = value;
    else {
      const a = adapt(value, new SetCtor(), 0, false);
      s = a !== null && typeof a === "object" ? stringify(a, null, 2) : S(a);
    }
    sync("text", { text: s });
  }
  function json(value) { sync("json", { value: parse(toJSONText(value)) }); }

  // console writes text output items (bounded by maxOutputBytes like text()):
  // models reach for console.log by habit, and silently dropping it would hide
  // what they meant to show. Arguments are joined by spaces; non-strings are
  // rendered compactly through the output adapter.
  function logLine(level, args) {
    let line = "";
    for (let i = 0; i < args.length; i++) {
      const v = args[i];
      let part;
      if (typeof v === "string") part = v;
      else {
        const a = adapt(v, new SetCtor(), 0, false);
        part = a !== null && typeof a === "object" ? stringify(a) : S(a);
      }
      line += (i ? " " : "") + part;
    }
    sync("text", { text: level ? "[" + level + "] " + line : line });
  }
  // setTimeout/clearTimeout: each timer is a pending host operation, so a timer
  // that outlives the exec deadline suspends the run like a slow tool call and
  // fires after wait. Timers do not count against maxPendingToolCalls (they
  // are not tool calls); the host bounds them separately. Strings are never
  // evaluated as code.
  const timers = new MapCtor();
  let timerSeq = 0;
  function setTimeoutFn(fn, ms, ...args) {
    if (typeof fn !== "function") throw new TypeError("setTimeout: the callback must be a function");
    const id = ++timerSeq;
    let delay = Number(ms);
    if (!(delay > 0)) delay = 0;
    // Past the host's bound of pending timers this throws a RangeError here,
    // where the cell can catch it.
    const p = hostAsync(stringify({ op: "timer", ms: delay, token: id }));
    timers.set(id, true);
    p.then(() => { if (timers.delete(id)) fn(...args); });
    return id;
  }
  function clearTimeoutFn(id) {
    if (timers.delete(id)) sync("timer.cancel", { token: Number(id) });
  }

  const consoleObj = freeze({
    log: (...a) => logLine("", a), info: (...a) => logLine("", a), debug: (...a) => logLine("debug", a),
    warn: (...a) => logLine("warn", a), error: (...a) => logLine("error", a),
  });
  function yield_control(reason) {
    return call("yield", { reason: reason === undefined ? "" : S(reason) }).then(() => undefined);
  }

  // ---- names that do not exist ----
  // tools, MCP, MCP.<server>, API, namespaces and each plugin namespace answer
  // a name they do not have with a catchable TypeError that names the closest
  // real names (written by the host: internal/hint), instead of
  // undefined and a later "not a function". Everything else is the object
  // itself: its members, Object.keys, `in`, freezing. Symbols, names starting
  // "__" or "@@", and the string probes JavaScript and common tooling make on
  // any object (then when awaited, toJSON, inspect, ...) still answer what
  // they answer on a plain object, so `await tools` and JSON.stringify(MCP)
  // behave as before.
  const probes = create(null);
  for (const k of ["then", "toJSON", "inspect", "asymmetricMatch", "$$typeof", "nodeType", "tagName", "length", "prototype", "default"]) probes[k] = true;
  function guard(target, kind, where) {
    return new ProxyCtor(target, {
      get(t, k, recv) {
        if (k in t || typeof k === "symbol" || probes[k] === true ||
            (k[0] === "_" && k[1] === "_") || (k[0] === "@" && k[1] === "@")) return reflectGet(t, k, recv);
        sync("unknown", { kind: kind, where: where, name: k, have: keys(t) });
        return undefined; // the host always answers with the error
      },
    });
  }

  function makeTools(safeNames) {
    const t = {
      search(query, options) {
        return PromiseCtor.resolve().then(() => {
          let limit = options && options.limit !== undefined && options.limit !== null ? Number(options.limit) : null;
          if (limit !== null && !(limit >= 1 && limit <= 1e9 && Math.floor(limit) === limit)) {
            throw new TypeError("tools.search: options.limit must be a positive integer, got " + S(options.limit));
          }
          return sync("search", { query: S(query), limit: limit });
        });
      },
      describe(id) { return PromiseCtor.resolve().then(() => sync("describe", { id: S(id) })); },
      call(id, input) { return call("call", { id: S(id), mode: "call" }, inputText(input)); },
      callValue(id, input) { return call("call", { id: S(id), mode: "value" }, inputText(input)); },
    };
    for (const name of keys(safeNames)) {
      if (hasOwn(t, name)) continue;
      const id = safeNames[name];
      define(t, name, { value: freeze({ [name]: (input) => t.callValue(id, input) }[name]), enumerable: true });
    }
    return guard(freeze(t), "tools", "tools");
  }

  function makeMCP(servers) {
    const mcp = {};
    for (const safe of keys(servers)) {
      const srv = servers[safe], ns = {};
      for (const tool of keys(srv.tools)) {
        const name = srv.tools[tool];
        ns[tool] = { [tool]: (input) => call("mcp.call", { server: srv.server, tool: name }, inputText(input)) }[tool];
      }
      ns.$api = (toolName, options) => PromiseCtor.resolve().then(() => sync("mcp.api", {
        server: safe, tool: toolName === undefined ? null : S(toolName), schema: !!(options && options.schema),
      }));
      ns.resources = guard(freeze({ read: (req) => call("mcp.resource", { server: srv.server, uri: S(req && req.uri) }) }), "member", "MCP." + safe + ".resources");
      ns.prompts = guard(freeze({ get: (req) => call("mcp.prompt", { server: srv.server, name: S(req && req.name), arguments: inputOf(req && req.arguments) }) }), "member", "MCP." + safe + ".prompts");
      mcp[safe] = guard(freeze(ns), "mcp-server", "MCP." + safe);
    }
    return guard(freeze(mcp), "mcp", "MCP");
  }

  function makeAPI() {
    // The file table and its contents are rendered by the host on the first
    // API.list or API.read of a run (most cells never read them): {files:
    // [{path, size, description, start, end}], blob}, start and end indexing
    // the one blob string.
    let table = null;
    const files = () => (table !== null ? table : (table = sync("api.files", {}))).files;
    // The same path rules as the host's API file table (apifiles.checkPath):
    // relative, no backslashes, no empty, "." or ".." segments.
    const validPath = (p) => p !== "" && p[0] !== "/" && !p.includes("\\") &&
      !p.split("/").some((s) => s === "" || s === "." || s === "..");
    const list = (prefix) => {
      let p = prefix === undefined ? "" : S(prefix);
      if (p.length > 1 && p[p.length - 1] === "/") p = p.slice(0, -1);
      if (p !== "" && !validPath(p))
        throw new TypeError("API.list: invalid path prefix " + stringify(S(prefix)) + " (use \"\", \"mcp\" or \"tools\")");
      return files().filter((f) => p === "" || f.path === p || f.path.startsWith(p + "/"))
        .map((f) => freeze({ path: f.path, size: f.size, description: f.description }));
    };
    const read = (path) => {
      const p = S(path);
      if (!validPath(p))
        throw new TypeError("API.read: invalid path " + stringify(p) + " (use a path from API.list())");
      const f = files().find((x) => x.path === p);
      if (!f) throw new ErrorCtor("API.read: no such file " + stringify(p) + "; API.list() shows the files");
      return table.blob.slice(f.start, f.end);
    };
    return guard(freeze({
      list: (prefix) => PromiseCtor.resolve().then(() => list(prefix)),
      read: (path) => PromiseCtor.resolve().then(() => read(path)),
    }), "api", "API");
  }

  // Namespaces arrive as plain descriptors {id, globalName, value, callables}:
  // value is JSON data with null placeholders at the callable paths; each
  // callable becomes a function that calls the host by namespace id and path.
  function deepFreeze(v) {
    if (v !== null && typeof v === "object" && !Object.isFrozen(v)) {
      freeze(v);
      for (const k of keys(v)) deepFreeze(v[k]);
    }
    return v;
  }
  function makeNamespace(d) {
    const root = { v: d.value };
    for (const path of d.callables) {
      let parent = root, key = "v";
      for (const seg of path) { parent = parent[key]; key = seg; }
      const p = path.slice();
      define(parent, key, { value: (...args) => call("ns.call", { ns: d.id, path: p, args: args.map((a) => (a === undefined ? null : parse(toJSONText(a)))) }), enumerable: true, writable: true, configurable: true });
    }
    return deepFreeze(root.v);
  }

  function setup(runText) {
    const run = parse(runText);
    const g = globalThis;
    const constant = (name, value) => define(g, name, { value: value, writable: false, enumerable: false, configurable: false });
    constant("ALL_TOOLS", freeze(run.allTools.map((e) => freeze(e))));
    constant("tools", makeTools(run.safeNames));
    constant("MCP", makeMCP(run.mcp));
    constant("API", makeAPI());
    const nss = {};
    for (const d of run.namespaces) {
      let v = makeNamespace(d);
      if (v !== null && typeof v === "object" && !isArray(v)) v = guard(v, "namespace", d.globalName);
      nss[d.globalName] = v;
      constant(d.globalName, v);
    }
    constant("namespaces", guard(freeze(nss), "namespaces", "namespaces"));
    constant("text", text);
    constant("json", json);
    constant("yield_control", yield_control);
    define(g, "console", { value: consoleObj, writable: true, enumerable: false, configurable: true });
    define(g, "setTimeout", { value: setTimeoutFn, writable: true, enumerable: false, configurable: true });
    define(g, "clearTimeout", { value: clearTimeoutFn, writable: true, enumerable: false, configurable: true });
  }

  // start runs the compiled cell. Its promise never rejects (so the host's own
  // handle is never an "unhandled rejection"): it resolves to ["ok", JSON text]
  // or to [false, thrown value].
  function start(cell) {
    return PromiseCtor.resolve().then(() => cell()).then(
      (v) => { try { return ["ok", toJSONText(v)]; } catch (e) { return [false, e]; } },
      (e) => [false, e],
    );
  }

  return { setup: setup, start: start };
})
