// What a body read (SPEC 7 "Reads"), recorded by the runner and invisible to the body.
// Evaluated in every fresh realm before the prelude, which gets the tracer as `__wsiReads`; it
// captures every intrinsic it uses now, so a body that replaces built-ins (JSON, Reflect,
// Array.prototype, Error.prepareStackTrace) can neither break nor fool it.
// Each value handed to the body (an input entry, a kept value, a scene read) is handed as one
// Proxy, the same each time (identity holds), whose traps answer exactly as the value itself
// (Object.keys, JSON.stringify, spreading, typeof, order and sizes are unchanged) and note the
// first-level keys read as JSON Pointers. `...base` and Object.keys(base) read every own key; a
// value handed on whole (a module input, the returned value) reads "".
(function () {
  "use strict";
  const RealProxy = Proxy;
  const RealError = Error;
  const RealWeakMap = WeakMap;
  const RealMap = Map;
  const apply = Reflect.apply;
  const ownKeys = Reflect.ownKeys;
  const reflectGet = Reflect.get;
  const reflectHas = Reflect.has;
  const getOwnDescriptor = Reflect.getOwnPropertyDescriptor;
  const defineProperty = Reflect.defineProperty;
  const captureStackTrace = Error.captureStackTrace;
  const hasOwn = Object.prototype.hasOwnProperty;
  const createObject = Object.create;
  const isArray = Array.isArray;
  const weakGet = WeakMap.prototype.get;
  const weakSet = WeakMap.prototype.set;
  const mapGet = Map.prototype.get;
  const mapSet = Map.prototype.set;
  const stringify = JSON.stringify;
  const toStr = String;
  const charAt = String.prototype.charAt;
  const indexOf = String.prototype.indexOf;
  const MAX_READS = 2000;
  const MAX_PATHS = 200;
  const MAX_SEEN = 20000;
  const STACK_FRAMES = 64;

  // A property descriptor without a prototype: V8 reads a descriptor's fields through the prototype chain, so
  // a `get` or `set` a body put on Object.prototype would otherwise turn it into an (invalid) accessor.
  function bareDescriptor(own) {
    return own === undefined ? undefined : { __proto__: null, ...own };
  }

  // Appends without looking up the prototype chain (a body may put setters on Array.prototype).
  function append(list, value) {
    defineProperty(list, list.length, { __proto__: null, value, writable: true, enumerable: true, configurable: true });
  }

  function escapeKey(key) {
    if (apply(indexOf, key, ["~"]) < 0 && apply(indexOf, key, ["/"]) < 0) return key;
    let out = "";
    for (let i = 0; i < key.length; i++) {
      const c = apply(charAt, key, [i]);
      out += c === "~" ? "~0" : c === "/" ? "~1" : c;
    }
    return out;
  }

  function structured(_, frames) {
    return frames;
  }

  // The call sites' own methods, taken now (a body could reach their prototype through its own
  // Error.prepareStackTrace and replace them).
  const siteMethods = (function () {
    const saved = RealError.prepareStackTrace;
    RealError.prepareStackTrace = structured;
    const probe = {};
    captureStackTrace(probe);
    const frames = probe.stack;
    RealError.prepareStackTrace = saved;
    const proto = Object.getPrototypeOf(frames[0]);
    return { name: proto.getScriptNameOrSourceURL, line: proto.getLineNumber, column: proto.getColumnNumber };
  })();

  // The body's own line and column of the innermost body frame. V8 compiles the body as a function
  // body (prelude.js, `new AsyncFunction`) under two lines of its own head, so the body's line 1 is
  // the script's line 3: the same offset as prelude.js's BODY_LINE_OFFSET (the reads tests hold both).
  const BODY_LINE_OFFSET = 2;
  function bodyPlace() {
    // Put back as they were, read without a prototype: a body's Object.prototype.get would make them accessors.
    const prepare = bareDescriptor(getOwnDescriptor(RealError, "prepareStackTrace"));
    const limit = bareDescriptor(getOwnDescriptor(RealError, "stackTraceLimit"));
    defineProperty(RealError, "prepareStackTrace", { __proto__: null, value: structured, writable: true, configurable: true });
    defineProperty(RealError, "stackTraceLimit", { __proto__: null, value: STACK_FRAMES, writable: true, configurable: true });
    const probe = {};
    let frames = null;
    try {
      captureStackTrace(probe, bodyPlace);
      frames = probe.stack;
    } catch (e) {
      frames = null;
    }
    if (prepare) defineProperty(RealError, "prepareStackTrace", prepare);
    else delete RealError.prepareStackTrace;
    if (limit) defineProperty(RealError, "stackTraceLimit", limit);
    else delete RealError.stackTraceLimit;
    if (!isArray(frames)) return { line: 0, column: 0 };
    for (let i = 0; i < frames.length; i++) {
      const frame = frames[i];
      let name = null;
      try {
        name = apply(siteMethods.name, frame, []);
      } catch (e) {
        name = null;
      }
      if (name === "body.js") return { line: apply(siteMethods.line, frame, []) - BODY_LINE_OFFSET, column: apply(siteMethods.column, frame, []) };
    }
    return { line: 0, column: 0 };
  }

  function makeTracer() {
    let records = [];
    let cut = 0;
    let whole = 0;
    let proxies = new RealWeakMap();   // value -> its one proxy
    let pathsOf = new RealWeakMap();   // value -> {seen: a null-prototype object of keys read, size, list: [], cut}
    let byRead = new RealMap();        // what + arg + entry -> record

    function pathsFor(target) {
      let paths = apply(weakGet, pathsOf, [target]);
      if (paths === undefined) {
        paths = { seen: createObject(null), size: 0, list: [], cut: 0 };
        apply(weakSet, pathsOf, [target, paths]);
      }
      return paths;
    }

    // Keyed by the key as read ("\u0000" for the whole value), so a read already noted costs one lookup.
    // Past the bound, further keys are only counted (each once while the seen set is under its own
    // bound; past that, every read of one).
    function note(target, key) {
      const paths = pathsFor(target);
      const seenKey = key === "" ? "\u0000" : key;
      if (paths.seen[seenKey] !== undefined) return;
      if (paths.size < MAX_SEEN) {
        defineProperty(paths.seen, seenKey, { __proto__: null, value: true, writable: true, enumerable: true, configurable: true });
        paths.size += 1;
      }
      if (paths.list.length >= MAX_PATHS) paths.cut += 1;
      else append(paths.list, key === "" ? "" : "/" + escapeKey(key));
    }

    function noteAll(target) {
      if (whole) {
        note(target, "");
        return;
      }
      const keys = ownKeys(target);
      for (let i = 0; i < keys.length; i++) if (typeof keys[i] === "string") note(target, keys[i]);
    }

    // One handler per traced value, holding its paths: a read of a key already noted is one Map
    // lookup in the trap (a body may read `base.bandDepth` a million times in a loop).
    function handlerFor(target) {
      const seen = pathsFor(target).seen;
      return {
        get(object, key, receiver) {
          if (typeof key === "string" && seen[whole ? "\u0000" : key] === undefined &&
              apply(hasOwn, object, [key]) && !(key === "length" && isArray(object))) {
            note(object, whole ? "" : key);
          }
          return reflectGet(object, key, receiver);
        },
        has: handler.has,
        ownKeys: handler.ownKeys,
        getOwnPropertyDescriptor: handler.getOwnPropertyDescriptor,
      };
    }

    const handler = {
      has(target, key) {
        if (typeof key === "string" && apply(hasOwn, target, [key])) note(target, whole ? "" : key);
        return reflectHas(target, key);
      },
      ownKeys(target) {
        noteAll(target);
        return ownKeys(target);
      },
      getOwnPropertyDescriptor(target, key) {
        return bareDescriptor(getOwnDescriptor(target, key));
      },
    };

    function proxyOf(target) {
      return apply(weakGet, proxies, [target]);
    }

    function traced(value) {
      if (value === null || (typeof value !== "object")) return value;
      let proxy = proxyOf(value);
      if (proxy === undefined) {
        proxy = new RealProxy(value, handlerFor(value));
        apply(weakSet, proxies, [value, proxy]);
      }
      return proxy;
    }

    // One record per (what, arg, entry): the place of its first read; its paths are the value's.
    function record(what, arg, entry, name, value) {
      const key = what + "\u0000" + (arg === null ? "\u0001" : arg) + "\u0000" + (entry === null ? "\u0001" : toStr(entry)) +
        "\u0000" + (name === null ? "\u0001" : name);
      if (apply(mapGet, byRead, [key]) !== undefined) return;
      if (records.length >= MAX_READS) {
        cut += 1;
        apply(mapSet, byRead, [key, true]);
        return;
      }
      const place = bodyPlace();
      const read = { what, arg, entry, name, value, line: place.line, column: place.column };
      apply(mapSet, byRead, [key, read]);
      append(records, read);
    }

    return {
      // The value an inputs/scene call hands back, recorded and traced.
      handed(what, arg, entry, value) {
        record(what, arg === undefined ? null : arg, entry === undefined ? null : entry, null, value);
        return traced(value);
      },
      // The kept object: each `kept.name` read is recorded, its value traced.
      kept(kept) {
        if (kept === null || typeof kept !== "object") return kept;
        return new RealProxy(kept, {
          get(target, key, receiver) {
            const value = reflectGet(target, key, receiver);
            if (typeof key !== "string" || !apply(hasOwn, target, [key])) return value;
            record("kept", null, null, key, value);
            // A frozen kept object must answer its own values (a Proxy invariant): recorded, not traced.
            const own = getOwnDescriptor(target, key);
            return own && !own.configurable && !own.writable ? value : traced(value);
          },
        });
      },
      // Runs `fn` while values are handed on whole: every read inside it reads "".
      whole(fn) {
        whole += 1;
        try {
          return fn();
        } finally {
          whole -= 1;
        }
      },
      // `,"reads":[…]` (and `,"readsCut":n` past the bound) for the done text, built by hand: the
      // body may have given objects a toJSON.
      text() {
        let out = ',"reads":[';
        for (let i = 0; i < records.length; i++) {
          const r = records[i];
          const isObject = r.value !== null && typeof r.value === "object";
          // A primitive is read whole; an object, as far as its paths say.
          const paths = isObject ? pathsFor(r.value) : { list: r.value === undefined ? [] : [""], cut: 0 };
          let list = "[";
          for (let j = 0; j < paths.list.length; j++) list += (j ? "," : "") + stringify(paths.list[j]);
          list += "]";
          out += (i ? "," : "") + '{"what":' + stringify(r.what) + ',"arg":' + (r.arg === null ? "null" : stringify(r.arg)) +
            ',"entry":' + (r.entry === null ? "null" : stringify(r.entry)) +
            (r.name === null ? "" : ',"name":' + stringify(r.name)) + ',"paths":' + list +
            (paths.cut ? ',"pathsCut":' + paths.cut : "") + ',"line":' + r.line + ',"column":' + r.column + "}";
        }
        return out + "]" + (cut ? ',"readsCut":' + cut : "");
      },
      reset() {
        records = [];
        cut = 0;
        whole = 0;
        proxies = new RealWeakMap();
        pathsOf = new RealWeakMap();
        byRead = new RealMap();
      },
    };
  }

  return makeTracer();
})()
