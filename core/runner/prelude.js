// The guest's JavaScript runtime, evaluated once in every fresh V8 realm; a realm serves one run.
// The script evaluates to the runner's hooks, which only the guest (Python) holds: the global
// object gets nothing of the runner, only what SPEC 5 hands a body (`console` and the timers).
// `start(code, envText, secret)` compiles and runs the body on the state texts `preload` put in (called
// with the texts as `this`, while the realm waits or right before `start`), `poll()` says
// what the body waits on, `answer(text)` settles queued module calls, `fire()` runs due timers.
//
// Trust (issue 26). The body runs in this realm and may replace any built-in, define setters and
// getters on Object.prototype, hand over Proxies. So the runner's own code never calls a built-in
// through a property lookup made while the body runs: every intrinsic it uses is captured in the
// block below before any body exists, and called with `apply` (Reflect.apply, also captured). What
// leaves the realm (a returned value, a keep, a module call's input) is read ONCE, by `encode`, into
// JSON text, and every check (handles, functions, caps, nesting) is made during that one read, on
// what was written, never on the live value again. The runner's own records (`run`, the outcome)
// are null-prototype objects, so no setter on Object.prototype sees them.
(function () {
  "use strict";
  // ---- intrinsics, captured before any body runs (never looked up again) ----
  const apply = Reflect.apply;
  const construct = Reflect.construct;
  const ownKeys = Reflect.ownKeys;
  const reflectGet = Reflect.get;
  const getProto = Reflect.getPrototypeOf;
  const defineProp = Reflect.defineProperty;
  const isArray = Array.isArray;
  const create = Object.create;
  const freeze = Object.freeze;
  const hasOwnFn = Object.prototype.hasOwnProperty;
  const isEnumerable = Object.prototype.propertyIsEnumerable;
  const fnToString = Function.prototype.toString;
  const stringify = JSON.stringify;  // only ever on primitives and the runner's own null-prototype records
  const parse = JSON.parse;
  const toStr = String;
  const RealMap = Map;
  const mapGet = Map.prototype.get;
  const mapSet = Map.prototype.set;
  const mapHas = Map.prototype.has;
  const mapDelete = Map.prototype.delete;
  const mapSize = Reflect.getOwnPropertyDescriptor(Map.prototype, "size").get;
  const mapKeys = Map.prototype.keys;
  const mapValues = Map.prototype.values;
  const mapEntries = Map.prototype.entries;
  const RealSet = Set;
  const setHas = Set.prototype.has;
  const setAdd = Set.prototype.add;
  const setDelete = Set.prototype.delete;
  const RealWeakMap = WeakMap;
  const weakGet = WeakMap.prototype.get;
  const weakSet = WeakMap.prototype.set;
  const weakHas = WeakMap.prototype.has;
  const WeakSetCtor = WeakSet;
  const weakSetHas = WeakSet.prototype.has;
  const weakSetAdd = WeakSet.prototype.add;
  const iterNext = Object.getPrototypeOf(new Map().keys()).next;
  const RealPromise = Promise;
  const promiseThen = Promise.prototype.then;
  const promiseResolve = Promise.resolve;
  const RealProxy = Proxy;
  const RealError = Error;
  const captureStack = Error.captureStackTrace;
  const charCodeAt = String.prototype.charCodeAt;
  const strSlice = String.prototype.slice;
  const strIndexOf = String.prototype.indexOf;
  const strToLower = String.prototype.toLowerCase;
  const numValueOf = Number.prototype.valueOf;
  const strValueOf = String.prototype.valueOf;
  const boolValueOf = Boolean.prototype.valueOf;
  const bigintValueOf = BigInt.prototype.valueOf;
  const symbolToString = Symbol.prototype.toString;
  const dateValueOf = Date.prototype.valueOf;
  const dateToISO = Date.prototype.toISOString;
  const mathMin = Math.min;
  const mathMax = Math.max;
  const mathFloor = Math.floor;
  const mathImul = Math.imul;
  const isFinite_ = Number.isFinite;
  const AsyncFunction = (async function () {}).constructor;
  const RealDate = Date;
  const realRandom = Math.random;
  const realNow = Date.now;
  const SyntaxErr = SyntaxError;
  const setProtoOf = Reflect.setPrototypeOf;
  const FN_MARK = "__wsi_fn__";
  const MAX_CALLS = 100000;
  const MAX_ERROR_CHARS = 2000;
  // One nesting limit for what loads and what comes back: core/session/reading.py's MAX_DEPTH (orjson's).
  const MAX_DEPTH = 1024;
  // What may cross to the host: a returned value or keep of at most this many characters of JSON
  // and values (each value is a Python object on the host: 500,000 of them are ~50 MB there), a
  // module call's input of at most MAX_INPUT_CHARS, all inputs of a run MAX_RUN_INPUT_CHARS.
  const MAX_CROSSING_CHARS = 16000000;
  const MAX_CROSSING_VALUES = 500000;
  const MAX_INPUT_CHARS = 4000000;
  const MAX_RUN_INPUT_CHARS = 16000000;
  const CUT_MARKER = "\u2026 [cut: nested deeper than " + MAX_DEPTH + " levels]";
  const BODY_FRAME = "body.js:";
  // The body is compiled as `new AsyncFunction(PARAMS…, code)`: V8 puts two lines before its first.
  const BODY_LINE_OFFSET = 2;
  // Allocation failures V8 reports as RangeError: the memory cap, whatever the allocation.
  const OUT_OF_MEMORY = ["allocation failed", "out of memory", "unable to grow", "cannot allocate"];

  // ---- safe helpers: the runner's own records never inherit (no setter on a prototype sees them) ----
  const hasOwn = (o, k) => apply(hasOwnFn, o, [k]);
  const record = () => create(null);
  function list() {
    const a = [];
    setProtoOf(a, null);
    return a;
  }
  const newMap = () => construct(RealMap, []);
  const mapGetOf = (m, k) => apply(mapGet, m, [k]);
  const mapSetOf = (m, k, v) => apply(mapSet, m, [k, v]);
  const mapHasOf = (m, k) => apply(mapHas, m, [k]);
  const mapDel = (m, k) => apply(mapDelete, m, [k]);
  const mapCount = (m) => apply(mapSize, m, []);
  // A Map's entries as a null-prototype list of [key, value] lists, without its iterator protocol.
  function mapList(m, which) {
    const it = apply(which, m, []);
    const out = list();
    for (let step = apply(iterNext, it, []); !step.done; step = apply(iterNext, it, [])) out[out.length] = step.value;
    return out;
  }
  const slice = (s, a, b) => apply(strSlice, s, [a, b]);
  const codeAt = (s, i) => apply(charCodeAt, s, [i]);
  // A property descriptor of a null prototype, so that no `get`/`set` on Object.prototype joins it.
  const dataProp = (value) => ({ __proto__: null, value, writable: true, enumerable: false, configurable: true });

  // Runner functions a body can reach print as built-ins do (`function get() { [native code] }`):
  // their source would show the handle scheme.
  const nativeNames = construct(RealWeakMap, []);
  function native(fn, name) {
    apply(weakSet, nativeNames, [fn, name]);
    return fn;
  }

  // Logs go to a shared ring that Python reads directly, even while a runaway loop holds V8.
  // Header (Float64): units written, entries written, characters written, characters cut.
  const RING_UNITS = 1 << 17;
  const RING_MASK = RING_UNITS - 1;
  const MAX_ENTRY_CHARS = 16000;
  const MAX_RETURNED_CHARS = 24000;
  const logBuffer = new SharedArrayBuffer(32 + RING_UNITS * 2);
  const header = new Float64Array(logBuffer, 0, 4);
  const ring = new Uint16Array(logBuffer, 32, RING_UNITS);

  let run = null;

  function writeLog(text) {
    let s = text;
    if (s.length > MAX_ENTRY_CHARS) {
      header[3] += s.length - (MAX_ENTRY_CHARS - 1);
      s = "\u2026" + slice(s, s.length - (MAX_ENTRY_CHARS - 1));
    }
    let w = header[0];
    const n = s.length;
    for (let i = 0; i < n; i++) ring[(w + i) & RING_MASK] = codeAt(s, i);
    w += n;
    ring[w & RING_MASK] = n & 0xffff;
    ring[(w + 1) & RING_MASK] = n >>> 16;
    header[2] += n;
    header[1] += 1;
    header[0] = w + 2;
  }

  // ---- encode: the one read of a value that leaves the realm ----
  // JSON.stringify's semantics, made with the captured intrinsics, in one pass that writes the
  // JSON text and checks as it goes (the decision, in docs/runner.md): getters and Proxy traps run
  // once; `toJSON` is honoured where JSON.stringify finds it on the value itself or on a
  // prototype the body made (a class of its own), never on a built-in prototype (a body's
  // `Object.prototype.toJSON` changes nothing), and a Date gives its ISO time by the captured
  // method; boxed primitives unbox by their captured valueOf; a cycle and a BigInt are TypeErrors
  // as in JSON.stringify. Containers deeper than MAX_DEPTH become CUT_MARKER. Modes:
  //   VALUE  a returned value or a log argument: functions dropped as JSON.stringify drops them.
  //   KEEP   a keep or a run.inputs input: a function is written as null and its path and name
  //          listed apart (`fns`), so no plain data ever reads as a function (SPEC 5).
  //   INPUT  a module call's input: as VALUE, and every `{__h}` must be a handle this run handed
  //          out (HandleError at its path).
  const VALUE = 0;
  const RETURNED = "the returned value";
  const KEEP = 1;
  const INPUT = 2;
  const INTRINSIC_PROTOS = construct(WeakSetCtor, []);
  for (const proto of [Object.prototype, Array.prototype, Function.prototype, Date.prototype, Error.prototype,
    Map.prototype, Set.prototype, RegExp.prototype, Number.prototype, String.prototype, Boolean.prototype,
    BigInt.prototype, Symbol.prototype, Promise.prototype, Object.getPrototypeOf(Uint8Array.prototype),
    ArrayBuffer.prototype, WeakMap.prototype, WeakSet.prototype]) apply(weakSetAdd, INTRINSIC_PROTOS, [proto]);

  // A value over the crossing caps stops the one read at once: an Over record, what is written so
  // far gathered on its way out (each container prepends its part), for the cut the report shows.
  const overs = construct(WeakSetCtor, []);
  const RealTypeError = TypeError;
  function over(what) {
    const e = { __proto__: null, what, partial: "" };
    apply(weakSetAdd, overs, [e]);
    return e;
  }
  const isOver = (e) => e !== null && typeof e === "object" && apply(weakSetHas, overs, [e]);

  function encode(value, mode, maxChars, where) {
    const st = { __proto__: null, chars: 0, values: 0, cuts: 0, fns: "", stack: construct(RealSet, []), keys: list(), pathFrom: 1, mode,
      maxChars, where, keepText: undefined, keepCuts: 0 };
    let text;
    try {
      text = encodeAt(st, value, "", 0);
    } catch (e) {
      if (!isOver(e)) throw e;
      return { __proto__: null, text: undefined, over: e.what, partial: e.partial, fns: "", cuts: st.cuts };
    }
    return { __proto__: null, text, over: null, fns: st.fns, cuts: st.cuts, keepText: st.keepText, keepCuts: st.keepCuts };
  }

  function ownToJSON(value) {
    let p = value;
    for (let i = 0; i < 64 && p !== null; i++) {
      if (i > 0 && apply(weakSetHas, INTRINSIC_PROTOS, [p])) return undefined;
      if (hasOwn(p, "toJSON")) return reflectGet(p, "toJSON", value);
      p = getProto(p);
    }
    return undefined;
  }

  // Whether a value may be a Date or a boxed primitive, found by calling their captured methods
  // (each miss is a thrown TypeError, costly): plain objects and arrays are not tried. A body that
  // gives a Date the prototype of a plain object gets it written as one: its own value's affair.
  const OBJECT_PROTO = Object.prototype;
  const ARRAY_PROTO = Array.prototype;
  function mayHoldSlots(value) {
    const p = getProto(value);
    return p !== OBJECT_PROTO && p !== ARRAY_PROTO && p !== null;
  }

  function unboxed(value) {
    try { return apply(numValueOf, value, []); } catch (e) { /* not a Number */ }
    try { return apply(strValueOf, value, []); } catch (e) { /* not a String */ }
    try { return apply(boolValueOf, value, []); } catch (e) { /* not a Boolean */ }
    try {
      apply(bigintValueOf, value, []);
      return 0n;
    } catch (e) { /* not a BigInt */ }
    return value;
  }

  function spend(st, chars) {
    st.values += 1;
    st.chars += chars;
    if (st.values > MAX_CROSSING_VALUES) throw over("values");
    if (st.chars > st.maxChars) throw over("chars");
  }

  // The JSON Pointer of the value being read at `depth` (its keys are st.keys[1..depth]); made
  // only for a message or a function's place.
  function pathOf(st, depth) {
    let path = "";
    for (let i = st.pathFrom; i <= depth; i++) path += "/" + (typeof st.keys[i] === "number" ? st.keys[i] : pointerToken(st.keys[i]));
    return path;
  }

  // The JSON text of `value` (its key `key`, at `depth`), or undefined where JSON.stringify omits it.
  function encodeAt(st, value, key, depth) {
    if (value !== null && (typeof value === "object" || typeof value === "function")) {
      const toJSON = ownToJSON(value);
      if (typeof toJSON === "function") value = apply(toJSON, value, [typeof key === "number" ? toStr(key) : key]);
      else if (typeof value === "object" && mayHoldSlots(value)) {
        let time;
        try { time = apply(dateValueOf, value, []); } catch (e) { time = undefined; }
        if (typeof time === "number") value = isFinite_(time) ? apply(dateToISO, value, []) : null;
      }
    }
    if (value !== null && typeof value === "object" && mayHoldSlots(value)) value = unboxed(value);
    if (value === null) {
      spend(st, 4);
      return "null";
    }
    switch (typeof value) {
      case "string": {
        const text = stringify(value);
        spend(st, text.length);
        return text;
      }
      case "number": {
        const text = isFinite_(value) ? stringify(value) : "null";
        spend(st, text.length);
        return text;
      }
      case "boolean":
        spend(st, 5);
        return value ? "true" : "false";
      case "bigint":
        throw new RealTypeError("Do not know how to serialize a BigInt (at " + (pathOf(st, depth) || "the top") + "); return it as a string");
      case "function":
        if (st.mode !== KEEP) return undefined;
        {
          let name = "anonymous";
          try {
            const own = reflectGet(value, "name");
            if (typeof own === "string" && own) name = slice(own, 0, 200);
          } catch (e) { /* a Proxy whose trap throws: anonymous */ }
          st.fns += (st.fns ? "," : "") + "[" + stringify(pathOf(st, depth)) + "," + stringify(name) + "]";
        }
        spend(st, 4);
        return "null";
      case "object":
        break;
      default:
        return undefined;  // undefined, a symbol
    }
    if (depth >= MAX_DEPTH) {
      st.cuts += 1;
      const text = stringify(CUT_MARKER);
      spend(st, text.length);
      return text;
    }
    if (apply(setHas, st.stack, [value])) throw new RealTypeError("Converting circular structure to JSON (at " + (pathOf(st, depth) || "the top") + ")");
    apply(setAdd, st.stack, [value]);
    spend(st, 2);
    let out;
    if (isArray(value)) {
      let length = reflectGet(value, "length");
      length = typeof length === "number" && length > 0 ? mathFloor(length) : 0;
      // Each element writes at least one character: a longer array is over the cap unread.
      if (length > st.maxChars - st.chars) throw over("chars");
      if (length > MAX_CROSSING_VALUES - st.values) throw over("values");
      out = "[";
      try {
        for (let i = 0; i < length; i++) {
          st.keys[depth + 1] = i;
          const item = encodeAt(st, reflectGet(value, i), i, depth + 1);
          if (i) {
            out += ",";
            st.chars += 1;
          }
          out += item === undefined ? "null" : item;
        }
      } catch (e) {
        if (isOver(e)) e.partial = out + e.partial;
        throw e;
      }
      out += "]";
    } else {
      const keys = ownKeys(value);
      const count = keys.length;
      out = "{";
      let first = true;
      let handle;
      try {
        for (let i = 0; i < count; i++) {
          const k = keys[i];
          if (typeof k !== "string" || !apply(isEnumerable, value, [k])) continue;
          const v = reflectGet(value, k);
          if (k === "__h" && typeof v === "string") handle = v;
          st.keys[depth + 1] = k;
          let item;
          if (depth === 0 && k === "keep" && st.mode === VALUE && st.where === RETURNED) {
            // The keep is the returned value's own `keep`, as this one read finds it: written in
            // KEEP mode (its functions listed) and kept apart, so the check and the result agree.
            const cutsBefore = st.cuts;
            st.mode = KEEP;
            st.pathFrom = 2;  // the keep's own paths: "/k", not "/keep/k"
            item = encodeAt(st, v, k, 1);
            st.mode = VALUE;
            st.pathFrom = 1;
            st.keepText = item;
            st.keepCuts = st.cuts - cutsBefore;
          } else item = encodeAt(st, v, k, depth + 1);
          if (item === undefined) continue;
          const name = stringify(k);
          out += (first ? "" : ",") + name + ":" + item;
          st.chars += name.length + (first ? 1 : 2);
          first = false;
        }
      } catch (e) {
        if (isOver(e)) e.partial = out + e.partial;
        throw e;
      }
      out += "}";
      if (st.mode === INPUT && handle !== undefined && !mapHasOf(run.handles, handle)) foreignHandle(handle, "input" + dotted(pathOf(st, depth)), st.where);
    }
    apply(setDelete, st.stack, [value]);
    return out;
  }

  function pointerToken(key) {
    let out = "";
    for (let i = 0; i < key.length; i++) {
      const c = key[i];
      out += c === "~" ? "~0" : c === "/" ? "~1" : c;
    }
    return out;
  }

  function foreignHandle(handle, path, where) {
    throw userError("HandleError",
      where + ": the handle {__h: " + stringify(slice(handle, 0, 80)) + "} at " + path + " was not handed out by " +
      "this run (kept from an earlier run, typed in or forged); pass the entity id and get a fresh handle with scene.get(id)",
      callSite());
  }

  // `/rooms/0/ward` as `rooms.0.ward`, the path words SPEC 5's HandleError uses ("input.rooms.0.ward").
  function dotted(path) {
    let out = "";
    for (let i = 0; i < path.length; i++) out += path[i] === "/" ? "." : path[i];
    return out;
  }

  // ---- logs ----
  function formatArg(value) {
    if (typeof value === "string") return value;
    if (value === undefined) return "undefined";
    if (typeof value === "function") {
      let name;
      try { name = reflectGet(value, "name"); } catch (e) { name = ""; }
      return "[Function " + (typeof name === "string" && name ? name : "anonymous") + "]";
    }
    if (typeof value === "bigint") return toStr(value) + "n";
    if (typeof value === "symbol") return apply(symbolToString, value, []);
    if (value !== null && typeof value === "object") {
      try {
        if (value instanceof RealError) return safeText(reflectGet(value, "name")) + ": " + safeText(reflectGet(value, "message"));
        const done = encode(value, VALUE, MAX_ENTRY_CHARS, "console.log");
        if (done.over) return done.partial + "\u2026";
        return done.text === undefined ? safeText(value) : done.text;
      } catch (e) {
        return "[object that cannot be written as JSON]";
      }
    }
    return toStr(value);
  }

  function safeText(value) {
    try {
      return typeof value === "string" ? value : toStr(value);
    } catch (e) {
      return "[unreadable]";
    }
  }

  function makeConsole() {
    const line = (prefix, name) => native(function (...args) {
      let text = prefix;
      for (let i = 0; i < args.length; i++) text += (i ? " " : "") + formatArg(args[i]);
      writeLog(text);
    }, name);
    const log = line("", "log");
    return freeze({
      log, info: log, debug: log, trace: log,
      warn: line("[warn] ", "warn"), error: line("[error] ", "error"),
      dir: log, table: log,
    });
  }

  // ---- places: every line and column a real one of the body ----
  // The body's line count and line lengths are counted only when a place is first reported.
  let lineEnds = null;
  function bodyLines() {
    if (lineEnds === null) {
      lineEnds = list();
      const code = run.code;
      for (let i = 0; i < code.length; i++) if (codeAt(code, i) === 10) lineEnds[lineEnds.length] = i;
      lineEnds[lineEnds.length] = code.length;
    }
    return lineEnds;
  }

  // A place inside the body, or null; the numbers are clamped to a line and column that exist.
  function clampPlace(line, column) {
    if (typeof line !== "number" || typeof column !== "number" || !(line >= 1) || !(column >= 1)) return null;
    const ends = bodyLines();
    const l = mathMin(mathFloor(line), ends.length);
    const start = l === 1 ? 0 : ends[l - 2] + 1;
    const c = mathMin(mathFloor(column), ends[l - 1] - start + 1);
    return { __proto__: null, line: l, column: mathMax(1, c) };
  }

  // The body's first frame in a stack V8 formatted (`body.js:LINE:COLUMN`), read without a RegExp: the
  // runner's own match would set RegExp.$1 and RegExp.input, which the body can read.
  function bodyPlace(stack) {
    if (typeof stack !== "string") return null;
    const at = apply(strIndexOf, stack, [BODY_FRAME]);
    if (at < 0) return null;
    const line = digitsAt(stack, at + BODY_FRAME.length);
    if (line.end === 0 || codeAt(stack, line.end) !== 58) return null;  // 58: ":"
    const column = digitsAt(stack, line.end + 1);
    return column.end === 0 ? null : clampPlace(line.value - BODY_LINE_OFFSET, column.value);
  }

  // The decimal number starting at `from` and where it ends (`end` 0: no digit there).
  function digitsAt(text, from) {
    let value = 0;
    let i = from;
    for (let code = codeAt(text, i); code >= 48 && code <= 57 && i < from + 15; code = codeAt(text, ++i)) value = value * 10 + (code - 48);
    return { __proto__: null, value, end: i === from ? 0 : i };
  }

  // A stack read with V8's own formatting: a body's Error.prepareStackTrace or stackTraceLimit
  // would otherwise write the frames the runner reads its places from. Both are put back after.
  // A body that made them unchangeable gets no place (null), never one it wrote.
  const getOwnDescriptor = Reflect.getOwnPropertyDescriptor;
  const deleteProp = Reflect.deleteProperty;
  // A property descriptor without a prototype: V8 reads a descriptor's fields through the prototype chain, so
  // a `get` or `set` a body put on Object.prototype would otherwise turn it into an (invalid) accessor.
  function bareDescriptor(own) {
    return own === undefined ? undefined : { __proto__: null, ...own };
  }
  // Runs `read` with V8's stack as the runner wants it: `prepare` as Error.prepareStackTrace (undefined:
  // V8's own text) and at most `frames` frames; the body's own settings are put back after, read without a
  // prototype (a body's Object.prototype.get would make them accessors). A body that made them
  // unchangeable gets no place (null), never one it wrote.
  function ownStack(prepare, frames, read) {
    const before = bareDescriptor(getOwnDescriptor(RealError, "prepareStackTrace"));
    const limit = bareDescriptor(getOwnDescriptor(RealError, "stackTraceLimit"));
    if ((before && !before.configurable) || (limit && !limit.configurable)) return null;
    if (prepare !== undefined) defineProp(RealError, "prepareStackTrace", dataProp(prepare));
    else if (before) deleteProp(RealError, "prepareStackTrace");
    defineProp(RealError, "stackTraceLimit", { __proto__: null, value: frames, writable: true, enumerable: true, configurable: true });
    try {
      return read();
    } finally {
      if (before) defineProp(RealError, "prepareStackTrace", before);
      else deleteProp(RealError, "prepareStackTrace");
      if (limit) defineProp(RealError, "stackTraceLimit", limit);
      else deleteProp(RealError, "stackTraceLimit");
    }
  }
  const cleanStack = (read) => ownStack(undefined, 10, read);

  // V8's call sites as they are, not formatted: only the frame the runner asks about gets its line and
  // column worked out (formatting the text works them out for every frame, the runner's own too: the
  // first place of a realm cost a millisecond). Their methods are taken now, before any body exists.
  const callSites = (_, frames) => frames;
  const site = (() => {
    const frames = ownStack(callSites, 1, () => {
      const probe = record();
      captureStack(probe);
      return probe.stack;
    });
    const proto = getProto(frames[0]);
    return { __proto__: null, name: proto.getScriptNameOrSourceURL, line: proto.getLineNumber, column: proto.getColumnNumber };
  })();

  // The body's innermost frame under the runner's function `above`, clamped to the body; null if none.
  function placeUnder(above) {
    const frames = ownStack(callSites, 64, () => {
      const probe = record();
      captureStack(probe, above);
      return probe.stack;
    });
    if (!isArray(frames)) return null;
    for (let i = 0; i < frames.length; i++) {
      if (apply(site.name, frames[i], []) === "body.js") {
        return clampPlace(apply(site.line, frames[i], []) - BODY_LINE_OFFSET, apply(site.column, frames[i], []));
      }
    }
    return null;
  }

  function callSite() {
    try {
      return placeUnder(callSite);
    } catch (e) {
      return null;
    }
  }

  // The frame that called a module: the frames above the shared trap are left out.
  function callerPlace() {
    try {
      return placeUnder(applyGhost) || callSite();
    } catch (e) {
      return null;
    }
  }

  // The read tracer (reads.js), made now with the intrinsics captured above: no body exists yet.
  const __wsiReads = makeReads(freeze({
    __proto__: null, apply, ownKeys, reflectGet, reflectHas: Reflect.has, getOwnDescriptor, defineProperty: defineProp,
    hasOwnFn, create, isArray, weakGet, weakSet, mapGet, mapSet, stringify, toStr, RealProxy, RealWeakMap, RealMap,
    construct, bareDescriptor, pointerToken, place: callSite,
  }));

  // No RegExp in the runner's code once a body exists: String.prototype.replace with one looks up
  // Symbol.replace, `flags` and `exec` on RegExp.prototype, which a body may replace (an `exec` that always
  // matches made the runner loop until the timeout), and a match sets RegExp.$1, which a body can read.

  // One line, at most MAX_ERROR_CHARS, cut with a marker saying how long it was: each line break JavaScript
  // knows (\r\n, \n, \r, U+2028, U+2029) becomes " ⏎ ".
  function clip(text) {
    let s = "";
    let from = 0;
    for (let i = 0; i < text.length; i++) {
      const c = codeAt(text, i);
      if (c === 10 || c === 13 || c === 0x2028 || c === 0x2029) {
        s += slice(text, from, i) + " \u23ce ";
        if (c === 13 && codeAt(text, i + 1) === 10) i++;
        from = i + 1;
      }
    }
    s = from === 0 ? text : s + slice(text, from, text.length);
    if (s.length > MAX_ERROR_CHARS) {
      const cut = MAX_ERROR_CHARS - 48;
      s = slice(s, 0, cut) + "\u2026 [cut: " + s.length + " characters in all]";
    }
    return s;
  }

  // Errors the runner makes, with the place it found: a WeakMap, never a property a body could set.
  const runnerPlaces = construct(RealWeakMap, []);

  // Whatever a body throws (a Proxy, an object whose getters throw) is described, never rethrown:
  // a failure here would leave the run without a result.
  function describeError(error) {
    try {
      return describeThrown(error);
    } catch (e) {
      return { __proto__: null, name: "Error", message: "the body threw a value that cannot be read (reading it threw again); " +
        "throw an Error with a plain message" };
    }
  }

  function outOfMemory(message) {
    const lower = apply(strToLower, message, []);
    for (let i = 0; i < OUT_OF_MEMORY.length; i++) if (apply(strIndexOf, lower, [OUT_OF_MEMORY[i]]) >= 0) return true;
    return false;
  }

  function describeThrown(error) {
    if (error !== null && typeof error === "object" && (error instanceof RealError || "message" in error)) {
      const name = reflectGet(error, "name");
      const out = { __proto__: null, name: clip(name ? toStr(name) : "Error"), message: clip(toStr(reflectGet(error, "message"))) };
      if (out.name === "RangeError" && outOfMemory(out.message)) {
        out.name = "MemoryError";
        out.message = clip("the body ran out of memory (" + out.message + "); the run's memory cap covers arrays, " +
          "typed arrays, WebAssembly memory and strings alike: look for one that grows without end");
      }
      const place = apply(weakHas, runnerPlaces, [error]) ? apply(weakGet, runnerPlaces, [error])
        : cleanStack(() => bodyPlace(reflectGet(error, "stack")));
      if (place) {
        out.line = place.line;
        out.column = place.column;
      }
      return out;
    }
    return { __proto__: null, name: "Error", message: clip("the body threw " + formatArg(error) + " (throw an Error to get a stack)") };
  }

  function userError(name, message, place) {
    const error = new RealError(message);
    defineProp(error, "name", dataProp(name));
    if (place) apply(weakSet, runnerPlaces, [error, place]);
    return error;
  }

  // ---- inputs: makeInputs over the editor-shaped store (SPEC 3) ----
  function callMatches(call, wanted) {
    if (call === wanted) return true;
    let dots = 0;
    for (let i = 0; i < wanted.length; i++) if (wanted[i] === ".") dots++;
    return dots === 1 && call.length > wanted.length && slice(call, 0, wanted.length + 1) === wanted + ".";
  }

  // The store and the scene come as JSON texts of their own, each parsed when a body first reads
  // it: parsing them in a fresh isolate was most of a trivial run's time, and most bodies read
  // one of them or neither. (JSON.parse defines properties: no setter of the body's runs.)
  function parsedOnUse(text, parser = parse) {
    let value;
    let parsed = false;
    return () => {
      if (!parsed) {
        value = parser(text);
        parsed = true;
      }
      return value;
    };
  }

  // The manifest (the host's run_inputs.manifest_entry of each entry, oldest first) is parsed once:
  // JSON.parse made every record and array, so their own fields are read without any lookup a body
  // could replace. Its lines are frozen when `list` first hands them out, not before (freezing 2,360
  // lines was a fifth of a first `inputs.last` on a real-shaped store).
  function frozenLines(lines) {
    for (let i = 0; i < lines.length; i++) {
      if (hasOwn(lines[i], "keys")) freeze(lines[i].keys);
      freeze(lines[i]);
    }
    return freeze(lines);
  }

  // The store in the runner's hands, as the host indexed it (envelope.store_lookup): what `inputs.last(x)` and
  // `inputs.at(id)` answer, found in one bucket of the lookup's hash tables, and each input parsed when a body first
  // reads it (the same value after that: identity holds) from where it lies in the store's text. JSON.parse of a
  // whole 4 MB store was 20 ms of a warm run that read one entry; parsing a JSON index of its 5,000 entries,
  // mapping their ids and scanning their calls 1 to 2 ms more. `find` hands out one entry or null.
  function storeOf(storeText, lookupText) {
    const split = apply(strIndexOf, lookupText, ["\u0003"]);
    const tables = [slice(lookupText, 0, split), slice(lookupText, split + 1, lookupText.length)];
    const inputs = list();
    return {
      __proto__: null,
      // The row of `key` in table 0 (`last`) or 1 (`at`), a hash table (envelope.hash_table): its bucket's rows,
      // each U+0001, the key, U+0002, the JSON `[position, start, end]`. The marks never occur in a key
      // (escaped by `lookupKey`) nor in a row's JSON (which escapes them).
      find(table, key) {
        const text = tables[table];
        const count = +slice(text, 0, 10);
        if (!(count > 0)) return null;
        const k = lookupKey(key);
        const bucket = keyHash(k) % count;
        const head = 10 * (count + 2);
        let at = head + +slice(text, 10 * (bucket + 1), 10 * (bucket + 2));
        const stop = head + +slice(text, 10 * (bucket + 2), 10 * (bucket + 3));
        while (at < stop) {
          const keyEnd = apply(strIndexOf, text, ["\u0002", at]);
          const next = apply(strIndexOf, text, ["\u0001", keyEnd]);
          const rowEnd = next < 0 || next > stop ? stop : next;
          if (slice(text, at + 1, keyEnd) === k) {
            const row = parse(slice(text, keyEnd + 1, rowEnd));
            return { __proto__: null, position: row[0], start: row[1], end: row[2] };
          }
          at = rowEnd;
        }
        return null;
      },
      input(found) {
        const i = found.position;
        if (!hasOwn(inputs, i)) inputs[i] = parse(slice(storeText, found.start, found.end));
        return inputs[i];
      },
    };
  }

  // CRC-32 of a key's UTF-16 units, little-endian (envelope.hash_table: zlib.crc32 of the key's UTF-16-LE bytes).
  const CRC_TABLE = (() => {
    const table = list();
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      table[n] = c;
    }
    return table;
  })();
  function keyHash(key) {
    let c = -1;
    for (let i = 0; i < key.length; i++) {
      const unit = codeAt(key, i);
      c = CRC_TABLE[(c ^ unit) & 255] ^ (c >>> 8);
      c = CRC_TABLE[(c ^ (unit >>> 8)) & 255] ^ (c >>> 8);
    }
    return (c ^ -1) >>> 0;
  }
  // A key as the lookup's rows hold it (envelope.lookup_key): its marks (U+0000 to U+0004) and every UTF-16
  // surrogate as U+0004 and four hex digits.
  const HEX = "0123456789abcdef";
  function lookupKey(key) {
    let out = "";
    let from = 0;
    for (let i = 0; i < key.length; i++) {
      const unit = codeAt(key, i);
      if (unit < 5 || (unit >= 0xd800 && unit <= 0xdfff)) {
        out += slice(key, from, i) + "\u0004" + HEX[(unit >> 12) & 15] + HEX[(unit >> 8) & 15] + HEX[(unit >> 4) & 15] + HEX[unit & 15];
        from = i + 1;
      }
    }
    return from === 0 ? key : out + slice(key, from, key.length);
  }

  function makeInputs(store, manifestOf) {
    let frozen = null;
    return freeze({
      last: native(function last(wanted) {
        const w = toStr(wanted);
        const found = store.find(0, w);
        if (found !== null) return __wsiReads.handed("inputs.last", w, found.position, store.input(found));  // reads.js; the host names the entry
        return __wsiReads.handed("inputs.last", w, null, undefined);  // reads.js
      }, "last"),
      at: native(function at(id) {
        const k = toStr(id);
        const found = store.find(1, k);
        if (found !== null) return __wsiReads.handed("inputs.at", k, found.position, store.input(found));  // reads.js; the host names the entry
        return __wsiReads.handed("inputs.at", k, null, undefined);  // reads.js
      }, "at"),
      // `list(wanted?)` hands out manifest lines, not inputs: a new frozen array each call, filled by
      // defining its elements (a setter on Array.prototype sees nothing), of the shared frozen lines.
      list: native(function list(wanted) {
        const w = wanted === undefined || wanted === null ? null : toStr(wanted);
        if (frozen === null) frozen = frozenLines(manifestOf());
        const lines = frozen;
        const out = [];
        let n = 0;
        for (let i = 0; i < lines.length; i++) {
          if (w === null || callMatches(lines[i].call, w)) defineProp(out, toStr(n++), { __proto__: null, value: lines[i], writable: true, enumerable: true, configurable: true });
        }
        return __wsiReads.handed("inputs.list", w, null, freeze(out));  // reads.js
      }, "list"),
    });
  }

  // ---- handles ----
  // A reference the body passes: its `__h` is read ONCE (a getter cannot answer the check one way
  // and the lookup another); the entity id it stands for, or the id the body gave.
  function entityIdOf(ref, where) {
    if (ref === null || typeof ref !== "object") return toStr(ref);
    const h = reflectGet(ref, "__h");
    if (typeof h !== "string") return toStr(ref);
    if (!mapHasOf(run.handles, h)) foreignHandle(h, "argument 1", where);
    return toStr(mapGetOf(run.handles, h));
  }

  // ---- scene ----
  // The scene's JSON is parsed by the runner; what the body gets of it are fresh copies (scene.read
  // parses again), so the body never holds the runner's own entities.
  function makeScene(sceneOf) {
    let scene = null;
    let byId = null;
    let counts = null;
    const load = () => {
      if (scene === null) {
        scene = sceneOf();
        byId = newMap();
        counts = record();
        const entities = scene.entities;
        for (let i = 0; i < entities.length; i++) {
          const e = entities[i];
          mapSetOf(byId, toStr(e.id), e);
          counts[e.type] = (counts[e.type] || 0) + 1;
        }
      }
      return scene;
    };
    const entityOf = (ref, where) => {
      load();
      const id = entityIdOf(ref, where);
      if (!mapHasOf(byId, id)) {
        const ids = mapList(byId, mapKeys);
        let some = "";
        for (let i = 0; i < ids.length && i < 8; i++) some += (i ? ", " : "") + ids[i];
        throw userError("SceneError", where + ": no entity " + stringify(slice(id, 0, 200)) + " in the scene; its ids include: " + (some || "none"), callSite());
      }
      return mapGetOf(byId, id);
    };
    const summary = (e) => ({ id: e.id, type: e.type, name: e.name });
    const matches = (entity, filter) => {
      if (filter === undefined || filter === null) return true;
      if (typeof filter === "string") return entity.type === filter;
      if (typeof filter === "function") return !!filter(summary(entity));
      const keys = ownKeys(filter);
      for (let i = 0; i < keys.length; i++) if (entity[keys[i]] !== reflectGet(filter, keys[i])) return false;
      return true;
    };
    return freeze({
      entities: native(function entities(filter) {
        const all = load().entities;
        const out = [];
        for (let i = 0; i < all.length; i++) if (matches(all[i], filter)) defineProp(out, out.length, plainItem(summary(all[i])));
        return __wsiReads.handed("scene.entities", typeof filter === "string" ? filter : null, null, out);  // reads.js
      }, "entities"),
      read: native(function read(ref) {
        const asked = typeof ref === "string" || typeof ref === "number" ? toStr(ref) : null;  // a handle: null
        return __wsiReads.handed("scene.read", asked, null, copy(entityOf(ref, "scene.read")));  // reads.js
      }, "read"),
      get: native(function get(id) {
        const entity = entityOf(id, "scene.get");
        // Unguessable: only a handle this run handed out resolves (SPEC 5).
        const handle = "h" + (mapCount(run.handles) + 1) + "." + run.secret;
        mapSetOf(run.handles, handle, toStr(entity.id));
        __wsiReads.handed("scene.get", toStr(id), null, undefined);  // reads.js
        return { __h: handle };
      }, "get"),
      info: native(function info() {
        load();
        return { unit: scene.unit, counts: copy(counts), kept: copy(scene.keptManifest) };
      }, "info"),
    });
  }

  // A fresh copy of the runner's own parsed data for the body (encode, not JSON.stringify: the
  // parsed objects inherit Object.prototype, whose toJSON the body may have set).
  function copy(value) {
    const text = encode(value, VALUE, MAX_CROSSING_CHARS, "scene").text;
    return text === undefined ? undefined : parse(text);
  }

  // An array element the body will own, defined (an index setter on Array.prototype never runs).
  const plainItem = (value) => ({ __proto__: null, value, writable: true, enumerable: true, configurable: true });

  // ---- modules ----
  const RUN_INPUT_PARAMS = {
    __proto__: null,
    jsonBytes: ["value"], describeValue: ["value"], manifestEntry: ["entry"], callMatches: ["call", "wanted"],
    trimStore: ["store", "maxBytes"], findUnkeepable: ["value", "path"], validateKeep: ["keep", "maxBytes"],
    keptManifest: ["kept"], makeInputs: ["store"],
  };

  function distance(a, b) {
    const row = list();
    for (let j = 0; j <= b.length; j++) row[j] = j;
    for (let i = 1; i <= a.length; i++) {
      let prev = row[0];
      row[0] = i;
      for (let j = 1; j <= b.length; j++) {
        const old = row[j];
        const same = a[i - 1] === b[j - 1] || toLower(a[i - 1]) === toLower(b[j - 1]);
        row[j] = mathMin(row[j] + 1, row[j - 1] + 1, prev + (same ? 0 : 1));
        prev = old;
      }
    }
    return row[b.length];
  }

  function toLower(c) {
    const code = codeAt(c, 0);
    return code >= 65 && code <= 90 ? code + 32 : code;
  }

  // The known names nearest to `name` (or the first few known ones), as a sentence.
  function suggest(name, known) {
    const limit = mathMax(2, mathFloor(name.length / 3));
    const near = list();
    for (let i = 0; i < known.length; i++) {
      const d = distance(name, known[i]);
      if (d > limit) continue;
      let at = near.length;  // insertion sort: stable, by distance
      while (at > 0 && near[at - 1][0] > d) {
        near[at] = near[at - 1];
        at--;
      }
      near[at] = [d, known[i]];
    }
    let text = "";
    if (near.length) {
      for (let i = 0; i < near.length && i < 3; i++) text += (i ? ", " : "") + near[i][1];
      return " Did you mean: " + text + "?";
    }
    for (let i = 0; i < known.length && i < 12; i++) text += (i ? ", " : "") + known[i];
    return known.length ? " Known: " + text + "." : "";
  }

  function checkKnown(group, module, fn) {
    const known = run.known;
    const unknown = (what, name, last, options) => {
      const full = "modules." + group + (module === undefined ? "" : "." + module) + (fn === undefined ? "" : "." + fn);
      throw userError("UnknownModuleError", full + ": no " + what + " " + name + " in this session." + suggest(last, options), callSite());
    };
    if (!hasOwn(known, group)) unknown("module group", group, group, ownKeys(known));
    const modulesOf = known[group];
    if (!hasOwn(modulesOf, module)) unknown("module", group + "." + module, module, ownKeys(modulesOf));
    const fns = modulesOf[module];
    if (fns !== null) {
      for (let i = 0; i < fns.length; i++) if (fns[i] === fn) return;
      unknown("function", group + "." + module + "." + fn, fn, fns);
    }
  }

  function callModule(group, module, fn, args) {
    checkKnown(group, module, fn);
    if (run.callCount >= MAX_CALLS) {
      throw userError("RangeError", "the body made more than " + MAX_CALLS + " module calls; batch the work into fewer " +
        "calls with bigger inputs", callSite());
    }
    const name = group + "." + module + "." + fn;
    const where = "modules." + name;
    let input = args[0];
    let mode = INPUT;
    if (group === "run" && module === "inputs") {
      // run.inputs inspects values (findUnkeepable looks for handles and functions); it never uses a handle.
      mode = KEEP;
      if (RUN_INPUT_PARAMS[fn] !== undefined) {
        const params = RUN_INPUT_PARAMS[fn];
        input = record();
        for (let i = 0; i < params.length; i++) if (args[i] !== undefined) input[params[i]] = args[i];
      }
    }
    // reads.js: a module input is handed on whole (its reads are the path "").
    const done = __wsiReads.whole(() => encode(input, mode, mathMin(MAX_INPUT_CHARS, MAX_RUN_INPUT_CHARS - run.inputChars), where));
    if (done.over) {
      throw userError("RangeError", where + ": its input is over " + (done.over === "values" ? MAX_CROSSING_VALUES + " values" :
        mathMin(MAX_INPUT_CHARS, MAX_RUN_INPUT_CHARS - run.inputChars) + " characters of JSON") + " (a module call's input " +
        "may be at most " + MAX_INPUT_CHARS + " characters, all of a run's " + MAX_RUN_INPUT_CHARS + "); pass ids or a smaller part", callSite());
    }
    if (done.cuts) {
      throw userError("RangeError", where + ": its input nests deeper than " + MAX_DEPTH + " levels, more than the " +
        "runner passes; flatten it (an array of rows, or ids instead of nested copies)", callSite());
    }
    const json = done.text === undefined ? "null" : done.text;
    run.inputChars += json.length;
    const id = ++run.callCount;
    const place = callerPlace();
    return new RealPromise((resolve, reject) => {
      mapSetOf(run.pending, id, { __proto__: null, resolve, reject, place });
      // The batch is a string the runner writes: [id, name, input, line, guest ms, function paths].
      run.queue += (run.queue ? "," : "") + "[" + id + "," + stringify(name) + "," + json + "," +
        (place ? place.line : 0) + "," + (realNow() - run.startedAt) + ",[" + done.fns + "]]";
    });
  }

  function ghost(path) {
    let key = path[0];
    for (let i = 1; i < path.length; i++) key += "." + path[i];
    let made = mapGetOf(run.ghosts, key);
    if (made === undefined) {
      made = makeGhost(path);
      mapSetOf(run.ghosts, key, made);
    }
    return made;
  }

  const ghostPaths = construct(RealWeakMap, []);

  // One shared trap, so a call site is one frame below it (see callerPlace).
  function applyGhost(target, _this, args) {
    const path = apply(weakGet, ghostPaths, [target]);
    if (path.length === 3) return callModule(path[0], path[1], path[2], args);
    if (path.length === 2) return callModule(path[0], path[1], path[1], args);
    throw userError("UnknownModuleError", "modules." + path[0] + " is a module group, not a call; call modules." +
      path[0] + ".<module>.<fn>(input)", callSite());
  }

  function extended(path, key) {
    const out = list();
    for (let i = 0; i < path.length; i++) out[i] = path[i];
    out[path.length] = key;
    return out;
  }

  const ghostTraps = {
    __proto__: null,
    get(target, key) {
      if (typeof key !== "string" || key === "then" || key === "toJSON") return undefined;
      const path = apply(weakGet, ghostPaths, [target]);
      return path.length < 3 ? ghost(extended(path, key)) : undefined;
    },
    apply: applyGhost,
  };

  function makeGhost(path) {
    const target = function () {};
    apply(weakSet, ghostPaths, [target, path]);
    return new RealProxy(target, ghostTraps);
  }

  function makeModules() {
    return new RealProxy({}, {
      __proto__: null,
      get(_, key) {
        if (typeof key !== "string" || key === "then" || key === "toJSON") return undefined;
        const path = list();
        path[0] = key;
        return ghost(path);
      },
      ownKeys() { return ownKeys(run.known); },
      getOwnPropertyDescriptor(_, key) {
        if (!hasOwn(run.known, key)) return undefined;
        const path = list();
        path[0] = key;
        return { __proto__: null, value: ghost(path), enumerable: true, configurable: true };
      },
    });
  }

  // ---- timers, run-scoped ----
  function setTimer(fn, delay, args, repeat) {
    if (!run) return 0;
    const id = ++run.timerCount;
    const ms = mathMax(0, +delay || 0);
    mapSetOf(run.timers, id, { __proto__: null, fn, args, ms, due: realNow() + ms, repeat });
    return id;
  }

  // ---- determinism: Math.random seeded, and every clock a body can read fixed (SPEC 5) ----
  // The fixed clocks are put in once per realm, while it waits for its run (`fixClocks`, before the warm-up), and read
  // the run's time and the random state from `fixed`, which `start` sets (or it puts the real clocks back for a free
  // run: `freeClocks`). Making and putting them in during the run was ~0.04 ms of a warm run (docs/runner.md).
  const fixed = { __proto__: null, ms: 0, state: 0 };
  const realClocks = [getOwnDescriptor(Date.prototype, "constructor"), getOwnDescriptor(Intl.DateTimeFormat.prototype, "format"),
    getOwnDescriptor(Intl.DateTimeFormat.prototype, "formatToParts"),
    typeof Temporal === "object" ? getOwnDescriptor(Temporal, "Now") : undefined];

  function freeClocks() {
    Math.random = realRandom;
    globalThis.Date = RealDate;
    defineProp(RealDate.prototype, "constructor", realClocks[0]);
    defineProp(Intl.DateTimeFormat.prototype, "format", realClocks[1]);
    defineProp(Intl.DateTimeFormat.prototype, "formatToParts", realClocks[2]);
    if (realClocks[3]) defineProp(Temporal, "Now", realClocks[3]);
  }

  function seededRandom() {
    return native(function random() {
      const a = fixed.state = (fixed.state + 0x6d2b79f5) >>> 0;
      let t = a;
      t = mathImul(t ^ (t >>> 15), t | 1);
      t ^= t + mathImul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    }, "random");
  }

  function fixedDate() {
    const Date = native(function Date(...args) {
      if (!new.target) return new RealDate(fixed.ms).toString();
      return construct(RealDate, args.length ? args : [fixed.ms], new.target);
    }, "Date");
    Date.prototype = RealDate.prototype;
    Date.now = native(() => fixed.ms, "now");
    Date.parse = RealDate.parse;
    Date.UTC = RealDate.UTC;
    return Date;
  }

  // Math.random, Date and the other ways to the real clock: `Date.prototype.constructor`, Intl's format of no
  // date, and Temporal.Now (each realm is the run's alone, so its built-ins are changed in place).
  function fixClocks() {
    Math.random = seededRandom();
    const FixedDate = fixedDate();
    globalThis.Date = FixedDate;
    defineProp(RealDate.prototype, "constructor", dataProp(FixedDate));
    const proto = Intl.DateTimeFormat.prototype;
    const format = Reflect.getOwnPropertyDescriptor(proto, "format").get;
    const formatToParts = proto.formatToParts;
    defineProp(proto, "format", { __proto__: null, configurable: true, enumerable: false, get: native(function format_() {
      const bound = apply(format, this, []);
      return native((date) => bound(date === undefined ? fixed.ms : date), "");
    }, "get format") });
    defineProp(proto, "formatToParts", dataProp(native(function formatToParts_(date) {
      return apply(formatToParts, this, [date === undefined ? fixed.ms : date]);
    }, "formatToParts")));
    if (typeof Temporal === "object" && Temporal !== null) {
      const T = Temporal;
      const instant = () => T.Instant.fromEpochMilliseconds(fixed.ms);
      const zone = (tz) => (tz === undefined ? "UTC" : tz);
      defineProp(T, "Now", dataProp(freeze({
        instant: native(instant, "instant"),
        timeZoneId: native(() => "UTC", "timeZoneId"),
        zonedDateTimeISO: native((tz) => instant().toZonedDateTimeISO(zone(tz)), "zonedDateTimeISO"),
        plainDateTimeISO: native((tz) => instant().toZonedDateTimeISO(zone(tz)).toPlainDateTime(), "plainDateTimeISO"),
        plainDateISO: native((tz) => instant().toZonedDateTimeISO(zone(tz)).toPlainDate(), "plainDateISO"),
        plainTimeISO: native((tz) => instant().toZonedDateTimeISO(zone(tz)).toPlainTime(), "plainTimeISO"),
      })));
    }
  }

  // ---- the run ----
  function refuse(name, message, place) {
    const error = { __proto__: null, name, message: clip(message) };
    if (place) {
      error.line = place.line;
      error.column = place.column;
    }
    run.done = { __proto__: null, out: { __proto__: null, ok: false, error }, json: undefined, keepJson: undefined, keepFns: "" };
  }

  // Never exceed the cap in the middle of a surrogate pair.
  function cutAt(text, limit) {
    const code = codeAt(text, limit - 1);
    return slice(text, 0, code >= 0xd800 && code <= 0xdbff ? limit - 1 : limit);
  }

  const PARAMS = ["inputs", "kept", "modules", "scene", "console", "log"];

  // The outcome of a body that returned `value`: the value and its keep, read once (encode).
  function finish(current, value) {
    const out = { __proto__: null, ok: true };
    const returned = encode(value, VALUE, MAX_CROSSING_CHARS, RETURNED);
    let json = returned.text;
    if (returned.over) {
      // Over what may cross: only the cut crosses; the host reports it cut (returnedOver).
      out.returnedOver = returned.over === "values" ? MAX_CROSSING_VALUES + " values" : MAX_CROSSING_CHARS + " characters";
      out.returnedCut = cutAt(returned.partial, mathMin(MAX_RETURNED_CHARS, returned.partial.length));
      json = undefined;
    } else if (json !== undefined) {
      out.returnedChars = json.length;
      if (json.length > MAX_RETURNED_CHARS) out.returnedCut = cutAt(json, MAX_RETURNED_CHARS);
    }
    const keepJson = returned.keepText;
    if (keepJson !== undefined && keepJson.length > MAX_INPUT_CHARS) {
      refuse("InvalidKeepError", "keep is over " + MAX_INPUT_CHARS + " characters of JSON; keep a smaller value (ids, or a summary)");
      return;
    }
    if (returned.keepCuts) out.keepTooDeep = true;
    current.done = { __proto__: null, out, json, keepJson, keepFns: returned.fns };
  }

  const EMPTY_STATE = { __proto__: null, storeText: "[]", lookupText: "0000000000\u00030000000000", sceneText: "{}", manifestText: "[]" };
  let preloaded = EMPTY_STATE;
  const hooks = {
    __proto__: null,
    logBuffer,
    // The state texts a run is handed (the store's lookup, the scene, the manifest, the store: protocol.STATE_TEXTS),
    // in two calls: `preload` with the first three joined by NUL (which neither JSON text nor the lookup holds raw) as
    // `this`, then `preloadStore` with the store. String values the guest makes, never string literals in a script,
    // which V8 would scan and compile (3 MB of store took ~30 ms a run, and again for the next realm). The guest puts
    // in the last run's while the next realm waits, so a run with the same texts (most runs of a session share their
    // store and scene) does not hand them again.
    preload() {
      const packed = apply(strValueOf, this, []);
      const texts = list();
      let from = 0;
      for (let i = 0; i < 2; i++) {
        const end = apply(strIndexOf, packed, ["\u0000", from]);
        texts[i] = slice(packed, from, end);
        from = end + 1;
      }
      preloaded = { __proto__: null, lookupText: texts[0], sceneText: texts[1], manifestText: slice(packed, from, packed.length),
        storeText: preloaded.storeText };
    },
    preloadStore() {
      const state = preloaded;
      preloaded = { __proto__: null, lookupText: state.lookupText, sceneText: state.sceneText, manifestText: state.manifestText,
        storeText: apply(strValueOf, this, []) };
    },
    start(code, envText, secret) {
      const state = preloaded;
      __wsiReads.reset();  // reads.js
      run = {
        __proto__: null,
        known: null, handles: newMap(), pending: newMap(), queue: "", callCount: 0, inputChars: 0, ghosts: newMap(),
        timers: newMap(), timerCount: 0, done: null, startedAt: realNow(), secret, code,
      };
      lineEnds = null;
      // V8 compiles the body as a function body on its own (`new AsyncFunction`): no text of the
      // body can close it, and the body's lines are its own (two lines of V8's head before them).
      let fn;
      try {
        fn = construct(AsyncFunction, [PARAMS[0], PARAMS[1], PARAMS[2], PARAMS[3], PARAMS[4], PARAMS[5],
          code + "\n//# sourceURL=body.js"]);
      } catch (e) {
        // Only a SyntaxError can come of compiling; the guest finds its place (see guest.py).
        refuse("SyntaxError", "the body does not compile");
        run.done.compile = true;
        return;
      }
      const env = parse(envText);
      run.known = env.known;
      const options = env.options;
      if (options.deterministic) {
        fixed.ms = options.nowMs;
        fixed.state = options.seed >>> 0;
      } else {
        freeClocks();
      }
      const current = run;
      const failed = (error) => { current.done = { __proto__: null, out: { __proto__: null, ok: false, error: describeError(error) } }; };
      // The body's promise is settled through the captured `then`: a body that replaces
      // Promise.prototype.then cannot see or change its own outcome on the way out.
      // Where the body is handed its state: inputs, kept and scene go through the read tracer (reads.js).
      const manifestOf = parsedOnUse(state.manifestText);
      const promise = apply(fn, undefined, [makeInputs(storeOf(state.storeText, state.lookupText), manifestOf), __wsiReads.kept(env.kept),
        makeModules(), makeScene(parsedOnUse(state.sceneText)), bodyConsole, bodyConsole.log]);
      apply(promiseThen, promise, [(value) => {
        try {
          __wsiReads.whole(() => finish(current, value));  // reads.js: the returned value is handed on whole
        } catch (error) {
          failed(error);
        }
      }, failed]);
    },
    // The done text is four texts joined by NUL (which JSON text never holds raw): the outcome,
    // the returned value, the keep and the keep's function paths; the host reads each on its own.
    poll() {
      // Calls the body made but did not await are still made (and traced) before it is done.
      if (run.done && !run.queue) {
        const d = run.done;
        // reads.js: the reads join the outcome's head.
        return '{"done":' + stringify(d.out) + __wsiReads.text() + "}\u0000" + (d.json === undefined ? "" : d.json) + "\u0000" +
          (d.keepJson === undefined ? "" : d.keepJson) + "\u0000[" + (d.keepFns || "") + "]" +
          (d.compile ? "\u0000compile" : "");
      }
      if (run.queue) {
        const text = '{"calls":[' + run.queue + "]}";
        run.queue = "";
        return text;
      }
      if (mapCount(run.timers)) {
        let due = Infinity;
        const timers = mapList(run.timers, mapValues);
        for (let i = 0; i < timers.length; i++) due = mathMin(due, timers[i].due);
        return '{"wait":' + mathMax(0, due - realNow()) + "}";
      }
      return '{"stuck":' + mapCount(run.pending) + "}";
    },
    answer(text) {
      const answers = parse(text);
      for (let i = 0; i < answers.length; i++) {
        const id = answers[i][0];
        const ok = answers[i][1];
        const value = answers[i][2];
        const call = mapGetOf(run.pending, id);
        if (!call) continue;
        mapDel(run.pending, id);
        if (ok) call.resolve(value);
        else {
          const error = userError(value.name || "Error", value.message, call.place);
          call.reject(error);
        }
      }
    },
    fire() {
      const now = realNow();
      const all = mapList(run.timers, mapEntries);
      const due = list();
      for (let i = 0; i < all.length; i++) {
        const entry = all[i];
        if (entry[1].due > now) continue;
        let at = due.length;  // insertion sort by due time, then id
        while (at > 0 && (due[at - 1][1].due > entry[1].due || (due[at - 1][1].due === entry[1].due && due[at - 1][0] > entry[0]))) {
          due[at] = due[at - 1];
          at--;
        }
        due[at] = entry;
      }
      for (let i = 0; i < due.length; i++) {
        const id = due[i][0];
        const t = due[i][1];
        if (t.repeat) t.due = now + mathMax(1, t.ms);
        else mapDel(run.timers, id);
        try {
          if (typeof t.fn === "function") apply(t.fn, undefined, t.args);
        } catch (error) {
          writeLog("[error] uncaught in a timer: " + formatArg(error));
        }
      }
    },
  };

  // The global scope a body sees: the standard globals, its console and the timers. mini-racer's
  // own timers are never installed (the guest sees to it): their callbacks would outlive the run.
  const bodyConsole = makeConsole();
  const define = (name, value) => {
    const own = Object.getOwnPropertyDescriptor(globalThis, name);
    if (own && !own.configurable) globalThis[name] = value;  // a `var` of an embedder's own script
    else Object.defineProperty(globalThis, name, { value, writable: true, configurable: true });
  };
  define("console", bodyConsole);
  define("setTimeout", native((fn, delay, ...args) => setTimer(fn, delay, args, false), "setTimeout"));
  define("setInterval", native((fn, delay, ...args) => setTimer(fn, delay, args, true), "setInterval"));
  define("clearTimeout", native((id) => { if (run) mapDel(run.timers, id); }, "clearTimeout"));
  define("clearInterval", native((id) => { if (run) mapDel(run.timers, id); }, "clearInterval"));
  // Compile the hooks' code now, while the realm waits for its run, not during it: a fresh
  // isolate compiles each function on its first call. The warm-up's state has one of each thing a
  // run's state holds (a store entry, a scene entity, a module) and is deterministic, so the same
  // code runs as in a run; its promises settle once this script is done, compiling the rest. Its body
  // reads as bodies do (inputs.last/at/list, scene.entities/read, kept, a path, a spread), so the read
  // tracer's code (reads.js) and the stack walk that places a read are compiled too: compiling them
  // during a run was most of what one read cost (0.3 ms on a warm run, docs/runner.md).
  // Only the runner's code runs here, on a run record that is dropped. The fixed clocks it puts in stay for a
  // deterministic run; a free run's `start` puts the real ones back (`freeClocks`), so the body's realm is
  // otherwise untouched.
  fixClocks();
  const warmStore = '[{"id":1,"call":"a.b.c","input":{"x":[1,"y"]},"applied":true}]';
  const warmInput = apply(strIndexOf, warmStore, ['{"x"']);
  // Its lookup as envelope.store_lookup writes it: two tables of one bucket ("a.b.c" and "a.b"; "1").
  const warmRow = "\u0002[0," + warmInput + "," + (warmInput + '{"x":[1,"y"]}'.length) + "]";
  const bucketOf = (rows) => "0000000001" + "0000000000" + toStr(rows.length).padStart(10, "0") + rows;
  apply(hooks.preload, bucketOf("\u0001a.b.c" + warmRow + "\u0001a.b" + warmRow) + "\u0003" + bucketOf("\u00011" + warmRow) +
    "\u0000" + '{"unit":"mm","entities":[{"id":"e1","type":"wall","name":"w"}],"keptManifest":{}}\u0000' +
    '[{"id":1,"call":"a.b.c","applied":true,"keys":["x"],"bytes":15}]', []);
  apply(hooks.preloadStore, warmStore, []);
  hooks.start("const b = inputs.last('a.b'); const e = inputs.at(1); const l = inputs.list('a.b'); const s = scene.entities('wall');\n" +
    "const r = scene.read('e1'); const k = kept.k; return { a: b.x.length + e.x[1].length + l.length + s.length + k.v + r.id.length, " +
    "keep: { k: [1, 'x'], b: { ...b } } };", '{"kept":{"k":{"v":1}},"known":{"a":{"b":["c"]}},"options":{"deterministic":true,"seed":1,"nowMs":0}}', "");
  hooks.poll();
  // The warm-up's run stays `run` for the guest's first call, a `poll` once its promises have settled (guest.py
  // `Realm`): the done text's code (the outcome's JSON, the reads' text) is compiled then, not during the run
  // (~0.1 ms of a warm run, docs/runner.md). `start` makes the run's own record.
  preloaded = EMPTY_STATE;
  // Function.prototype.toString prints the runner's functions as built-ins (installed last: the
  // warm-up above is the runner's own code). It is itself one of them.
  const toString = native(function toString() {
    if (typeof this === "function" && apply(weakHas, nativeNames, [this])) {
      return "function " + apply(weakGet, nativeNames, [this]) + "() { [native code] }";
    }
    return apply(fnToString, this, []);
  }, "toString");
  defineProp(Function.prototype, "toString", dataProp(toString));
  return freeze(hooks);
})()
