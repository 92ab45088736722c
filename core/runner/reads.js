// What a body read (SPEC 7 "Reads"), recorded by the runner and invisible to the body.
// A factory the prelude calls once, before any body exists, with the intrinsics and helpers it
// captured (prelude.js, `makeReads`): a body that replaces built-ins (JSON, Reflect,
// Array.prototype, Error.prepareStackTrace) can neither break nor fool it.
// Each value handed to the body (an input entry, a kept value, a scene read) is handed as one
// Proxy, the same each time (identity holds), whose traps answer exactly as the value itself
// (Object.keys, JSON.stringify, spreading, typeof, order and sizes are unchanged) and note the
// first-level keys read as JSON Pointers. `...base` and Object.keys(base) read every own key; a
// value handed on whole (a module input, the returned value) reads "".
(function (shared) {
  "use strict";
  const { apply, ownKeys, reflectGet, reflectHas, getOwnDescriptor, defineProperty, hasOwnFn, create, isArray,
    weakGet, weakSet, mapGet, mapSet, stringify, toStr, RealProxy, RealWeakMap, RealMap, construct,
    bareDescriptor, pointerToken, place } = shared;
  const MAX_READS = 2000;
  const MAX_PATHS = 200;
  const MAX_SEEN = 20000;
  const NO_PLACE = { __proto__: null, line: 0, column: 0 };

  // Appends without looking up the prototype chain (a body may put setters on Array.prototype).
  function append(list, value) {
    defineProperty(list, list.length, { __proto__: null, value, writable: true, enumerable: true, configurable: true });
  }

  function makeTracer() {
    let records = [];
    let cut = 0;
    let whole = 0;
    let proxies = construct(RealWeakMap, []);   // value -> its one proxy
    let pathsOf = construct(RealWeakMap, []);   // value -> {seen: a null-prototype object of keys read, size, list: [], cut}
    let byRead = construct(RealMap, []);        // what + arg + entry -> record

    function pathsFor(target) {
      let paths = apply(weakGet, pathsOf, [target]);
      if (paths === undefined) {
        paths = { seen: create(null), size: 0, list: [], cut: 0 };
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
      else append(paths.list, key === "" ? "" : "/" + pointerToken(key));
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
        __proto__: null,  // a trap a body put on Object.prototype is never one of these
        get(object, key, receiver) {
          if (typeof key === "string" && seen[whole ? "\u0000" : key] === undefined &&
              apply(hasOwnFn, object, [key]) && !(key === "length" && isArray(object))) {
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
      __proto__: null,
      has(target, key) {
        if (typeof key === "string" && apply(hasOwnFn, target, [key])) note(target, whole ? "" : key);
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
        proxy = construct(RealProxy, [value, handlerFor(value)]);
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
      const at = place() || NO_PLACE;
      const read = { what, arg, entry, name, value, line: at.line, column: at.column };
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
        return construct(RealProxy, [kept, {
          __proto__: null,
          get(target, key, receiver) {
            const value = reflectGet(target, key, receiver);
            if (typeof key !== "string" || !apply(hasOwnFn, target, [key])) return value;
            record("kept", null, null, key, value);
            // A frozen kept object must answer its own values (a Proxy invariant): recorded, not traced.
            const own = getOwnDescriptor(target, key);
            return own && !own.configurable && !own.writable ? value : traced(value);
          },
        }]);
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
        proxies = construct(RealWeakMap, []);
        pathsOf = construct(RealWeakMap, []);
        byRead = construct(RealMap, []);
      },
    };
  }

  return makeTracer();
})
