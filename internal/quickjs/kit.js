// The driver's own guest-side helpers, evaluated once into the template before any
// user code exists. The host keeps the returned object's box, so it calls these
// captured originals even after a guest patches String, JSON or Math.
(function (userPrelude) {
  "use strict";
  const S = String, parse = JSON.parse, stringify = JSON.stringify;
  const ErrorCtor = Error;
  const ctors = { Error, TypeError, RangeError, SyntaxError, ReferenceError, InternalError };
  // xoshiro128**: QuickJS seeds Math.random once per context, which a template
  // snapshot would freeze into every VM; the host reseeds this one per VM.
  let a = 1, b = 2, c = 3, d = 4;
  function rotl(x, k) { return (x << k) | (x >>> (32 - k)); }
  function next() {
    const r = Math.imul(rotl(Math.imul(b, 5), 7), 9);
    const t = b << 9;
    c ^= a; d ^= b; b ^= c; a ^= d; c ^= t; d = rotl(d, 11);
    return r >>> 0;
  }
  // Error.prepareStackTrace would run guest code whenever an error's stack is
  // built, including errors the host formats after the deadline, and its
  // CallSite.getFunction() hands out every function on the stack, the host
  // bridge functions among them. Locking it to undefined closes both doors.
  const pst = Object.getOwnPropertyDescriptor(ErrorCtor, "prepareStackTrace");
  if (!pst || pst.configurable) {
    Object.defineProperty(ErrorCtor, "prepareStackTrace", { value: undefined, writable: false, enumerable: false, configurable: false });
  }
  Object.defineProperty(Math, "random", {
    value: function random() { return ((next() >>> 5) * 67108864 + (next() >>> 6)) / 9007199254740992; },
    writable: true, configurable: true, enumerable: false,
  });
  function errorInfo(e) {
    let name = "Error", message = "", stack = "";
    try {
      if (e !== null && (typeof e === "object" || typeof e === "function")) {
        try { const n = e.name; if (n !== undefined) name = S(n); } catch (_) {}
        try { const m = e.message; if (m !== undefined) message = S(m); } catch (_) {}
        try { const s = e.stack; if (typeof s === "string") stack = s; } catch (_) {}
        if (!(e instanceof ErrorCtor) && message === "") {
          try { message = stringify(e); } catch (_) { message = undefined; }
          if (typeof message !== "string" || message === "{}") {
            try { message = S(e); } catch (_) { message = "[object]"; }
          }
          name = "Error";
        }
      } else {
        message = typeof e === "symbol" ? e.toString() : S(e);
      }
    } catch (_) {}
    return stringify({ name: name, message: message, stack: stack });
  }
  return {
    reseed(x, y, z, w) { a = x | 0; b = y | 0; c = z | 0; d = w | 0; if ((a | b | c | d) === 0) a = 1; },
    errorInfo: errorInfo,
    parse: function (s) { return parse(s); },
    stringify: function (v) { const s = stringify(v); return s === undefined ? "null" : s; },
    makeError(name, message) {
      const C = Object.prototype.hasOwnProperty.call(ctors, name) ? ctors[name] : ErrorCtor;
      const e = new C(message);
      if (C === ErrorCtor && name !== "Error") e.name = name;
      return e;
    },
    user: userPrelude,
  };
})
