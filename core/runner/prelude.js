// The guest's JavaScript runtime, evaluated once in every fresh V8 realm; a realm serves one run.
// The script evaluates to the runner's hooks, which only the guest (Python) holds: the global
// object gets nothing of the runner, only what SPEC 5 hands a body (`console` and the timers).
// `start(fn, envText, storeText, sceneText, secret, sourceLength)` runs the compiled body, `poll()` says what the body
// waits on, `answer(text)` settles queued module calls, `fire()` runs due timers.
(function () {
  "use strict";
  const RealDate = Date;
  const realRandom = Math.random;
  const realNow = Date.now;
  const hasOwn = Object.prototype.hasOwnProperty;
  const fnToString = Function.prototype.toString;
  const FN_MARK = "__wsi_fn__";
  const MAX_CALLS = 100000;
  const MAX_ERROR_CHARS = 2000;
  // The runtime's own copies: a body that replaces JSON's functions must not forge its result.
  const stringify = JSON.stringify;
  const parse = JSON.parse;
  const BODY_FRAME = /body\.js:(\d+):(\d+)/;
  // Allocation failures V8 reports as RangeError: the memory cap, whatever the allocation.
  const OUT_OF_MEMORY = /allocation failed|out of memory|unable to grow|cannot allocate/i;

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
    let s = String(text);
    if (s.length > MAX_ENTRY_CHARS) {
      header[3] += s.length - (MAX_ENTRY_CHARS - 1);
      s = "\u2026" + s.slice(s.length - (MAX_ENTRY_CHARS - 1));
    }
    let w = header[0];
    const n = s.length;
    for (let i = 0; i < n; i++) ring[(w + i) & RING_MASK] = s.charCodeAt(i);
    w += n;
    ring[w & RING_MASK] = n & 0xffff;
    ring[(w + 1) & RING_MASK] = n >>> 16;
    header[2] += n;
    header[1] += 1;
    header[0] = w + 2;
  }

  function formatArg(value) {
    if (typeof value === "string") return value;
    if (value === undefined) return "undefined";
    if (typeof value === "function") return "[Function " + (value.name || "anonymous") + "]";
    if (typeof value === "bigint") return value + "n";
    if (typeof value === "symbol") return value.toString();
    if (value instanceof Error) return value.name + ": " + value.message;
    if (value !== null && typeof value === "object") {
      try {
        const text = stringify(value);
        return text === undefined ? String(value) : text;
      } catch (e) {
        return "[object with a cycle]";
      }
    }
    return String(value);
  }

  function makeConsole() {
    const line = (prefix) => function (...args) {
      writeLog(prefix + args.map(formatArg).join(" "));
    };
    const log = line("");
    return Object.freeze({
      log, info: log, debug: log, trace: log,
      warn: line("[warn] "), error: line("[error] "),
      dir: log, table: log,
    });
  }

  function bodyPlace(stack) {
    const match = BODY_FRAME.exec(String(stack || ""));
    return match ? { line: Number(match[1]) - 1, column: Number(match[2]) } : null;
  }

  function callSite() {
    const probe = {};
    Error.captureStackTrace(probe, callSite);
    return bodyPlace(probe.stack);
  }

  // The frame that called a module: the frames above the shared trap are left out, so there are
  // few to format.
  function callerPlace() {
    const probe = {};
    Error.captureStackTrace(probe, applyGhost);
    return bodyPlace(probe.stack) || callSite();
  }

  function clip(text) {
    return text.length > MAX_ERROR_CHARS ? text.slice(0, MAX_ERROR_CHARS - 1) + "\u2026" : text;
  }

  // Whatever a body throws (a Proxy, an object whose getters throw) is described, never rethrown:
  // a failure here would leave the run without a result.
  function describeError(error) {
    try {
      return describeThrown(error);
    } catch (e) {
      return { name: "Error", message: "the body threw a value that cannot be read (reading it threw again); " +
        "throw an Error with a plain message" };
    }
  }

  function describeThrown(error) {
    if (error instanceof Error || (error !== null && typeof error === "object" && "message" in error)) {
      const out = { name: clip(String(error.name || "Error")), message: clip(String(error.message)) };
      if (out.name === "RangeError" && OUT_OF_MEMORY.test(out.message)) {
        out.name = "MemoryError";
        out.message = "the body ran out of memory (" + out.message + "); the run's memory cap covers arrays, " +
          "typed arrays, WebAssembly memory and strings alike: look for one that grows without end";
      }
      const place = error.__wsiPlace || bodyPlace(error.stack);
      if (place) {
        out.line = place.line;
        out.column = place.column;
      }
      return out;
    }
    return { name: "Error", message: clip("the body threw " + formatArg(error) + " (throw an Error to get a stack)") };
  }

  function userError(name, message, place) {
    const error = new Error(message);
    error.name = name;
    if (place) Object.defineProperty(error, "__wsiPlace", { value: place });
    return error;
  }

  // ---- inputs: makeInputs over the editor-shaped store (SPEC 3) ----
  function callMatches(call, wanted) {
    if (call === wanted) return true;
    const dots = wanted.split(".").length - 1;
    return dots === 1 && call.startsWith(wanted + ".");
  }

  // The store and the scene come as JSON texts of their own, each parsed when a body first reads
  // it: parsing them in a fresh isolate was most of a trivial run's time, and most bodies read
  // one of them or neither.
  function parsedOnUse(text) {
    let value;
    let parsed = false;
    return () => {
      if (!parsed) {
        value = parse(text);
        parsed = true;
      }
      return value;
    };
  }

  function makeInputs(storeOf) {
    return Object.freeze({
      last(wanted) {
        const w = String(wanted);
        const store = storeOf();
        for (let i = store.length - 1; i >= 0; i--) if (callMatches(store[i].call, w)) return __wsiReads.handed("inputs.last", w, store[i].id, store[i].input);  // reads.js
        return __wsiReads.handed("inputs.last", w, null, undefined);  // reads.js
      },
      at(id) {
        const k = String(id);
        const store = storeOf();
        for (let i = store.length - 1; i >= 0; i--) if (String(store[i].id) === k) return __wsiReads.handed("inputs.at", k, store[i].id, store[i].input);  // reads.js
        return __wsiReads.handed("inputs.at", k, null, undefined);  // reads.js
      },
    });
  }

  // ---- handles ----
  function isHandle(value) {
    return value !== null && typeof value === "object" && typeof value.__h === "string";
  }

  function refuseForeignHandle(value, path, where) {
    const seen = new Set();
    const walk = (v, p) => {
      if (v === null || typeof v !== "object" || seen.has(v)) return;
      seen.add(v);
      if (isHandle(v)) {
        if (!run.handles.has(v.__h)) {
          throw userError("HandleError",
            where + ": the handle {__h: " + stringify(v.__h) + "} at " + p + " was not handed out by this run " +
            "(kept from an earlier run, typed in or forged); pass the entity id and get a fresh handle with scene.get(id)",
            callSite());
        }
        return;
      }
      if (Array.isArray(v)) {
        for (let i = 0; i < v.length; i++) walk(v[i], p + "." + i);
      } else {
        for (const key of Object.keys(v)) walk(v[key], p + "." + key);
      }
    };
    walk(value, path);
  }

  // ---- scene ----
  function makeScene(sceneOf) {
    let scene = null;
    let byId = null;
    const counts = {};
    const load = () => {
      if (scene === null) {
        scene = sceneOf();
        byId = new Map(scene.entities.map((e) => [String(e.id), e]));
        for (const e of scene.entities) counts[e.type] = (counts[e.type] || 0) + 1;
      }
      return scene;
    };
    const entityOf = (ref, where) => {
      load();
      let id = ref;
      if (isHandle(ref)) {
        refuseForeignHandle(ref, "argument 1", where);
        id = run.handles.get(ref.__h);
      }
      const entity = byId.get(String(id));
      if (entity === undefined) {
        const some = [...byId.keys()].slice(0, 8).join(", ");
        throw userError("SceneError", where + ": no entity " + stringify(String(id)) + " in the scene; its ids include: " + (some || "none"), callSite());
      }
      return entity;
    };
    const matches = (entity, filter) => {
      if (filter === undefined || filter === null) return true;
      if (typeof filter === "string") return entity.type === filter;
      if (typeof filter === "function") return Boolean(filter(summary(entity)));
      return Object.keys(filter).every((k) => entity[k] === filter[k]);
    };
    const summary = (e) => ({ id: e.id, type: e.type, name: e.name });
    return Object.freeze({
      entities(filter) {
        return __wsiReads.handed("scene.entities", typeof filter === "string" ? filter : null, null,  // reads.js
          load().entities.filter((e) => matches(e, filter)).map(summary));
      },
      read(ref) {
        return __wsiReads.handed("scene.read", isHandle(ref) ? null : String(ref), null,  // reads.js
          parse(stringify(entityOf(ref, "scene.read"))));
      },
      get(id) {
        const entity = entityOf(id, "scene.get");
        // Unguessable: only a handle this run handed out resolves (SPEC 5).
        const handle = "h" + (run.handles.size + 1) + "." + run.secret;
        run.handles.set(handle, entity.id);
        __wsiReads.handed("scene.get", String(id), null, undefined);  // reads.js
        return { __h: handle };
      },
      info() {
        load();
        return { unit: scene.unit, counts: { ...counts }, kept: parse(stringify(scene.keptManifest)) };
      },
    });
  }

  // ---- modules ----
  const RUN_INPUT_PARAMS = {
    jsonBytes: ["value"], describeValue: ["value"], manifestEntry: ["entry"], callMatches: ["call", "wanted"],
    trimStore: ["store", "maxBytes"], findUnkeepable: ["value", "path"], validateKeep: ["keep", "maxBytes"],
    keptManifest: ["kept"], makeInputs: ["store"],
  };

  function distance(a, b) {
    const row = Array.from({ length: b.length + 1 }, (_, i) => i);
    for (let i = 1; i <= a.length; i++) {
      let prev = row[0];
      row[0] = i;
      for (let j = 1; j <= b.length; j++) {
        const old = row[j];
        row[j] = Math.min(row[j] + 1, row[j - 1] + 1, prev + (a[i - 1].toLowerCase() === b[j - 1].toLowerCase() ? 0 : 1));
        prev = old;
      }
    }
    return row[b.length];
  }

  function suggest(name, known) {
    const limit = Math.max(2, Math.floor(name.length / 3));
    const near = known.map((k) => [distance(name, k), k]).filter(([d]) => d <= limit).sort((x, y) => x[0] - y[0]);
    if (near.length) return " Did you mean: " + near.slice(0, 3).map(([, k]) => k).join(", ") + "?";
    return known.length ? " Known: " + known.slice(0, 12).join(", ") + "." : "";
  }

  function checkKnown(group, module, fn) {
    const known = run.known;
    const unknown = (what, name, options) => {
      throw userError("UnknownModuleError", "modules." + [group, module, fn].filter((x) => x !== undefined).join(".") +
        ": no " + what + " " + name + " in this session." + suggest(name.split(".").pop(), options), callSite());
    };
    if (!hasOwn.call(known, group)) unknown("module group", group, Object.keys(known));
    const modulesOf = known[group];
    if (!hasOwn.call(modulesOf, module)) unknown("module", group + "." + module, Object.keys(modulesOf));
    const fns = modulesOf[module];
    if (fns !== null && !fns.includes(fn)) unknown("function", group + "." + module + "." + fn, fns);
  }

  function markFunctions(key, value) {
    return typeof value === "function" ? { [FN_MARK]: value.name || "anonymous" } : value;
  }

  function callModule(group, module, fn, args) {
    checkKnown(group, module, fn);
    if (run.callCount >= MAX_CALLS) {
      throw userError("RangeError", "the body made more than " + MAX_CALLS.toLocaleString("en") +
        " module calls; batch the work into fewer calls with bigger inputs", callSite());
    }
    const name = group + "." + module + "." + fn;
    let input = args[0];
    if (group === "run" && module === "inputs") {
      // run.inputs inspects values (findUnkeepable looks for handles); it never uses a handle.
      if (hasOwn.call(RUN_INPUT_PARAMS, fn)) {
        input = {};
        RUN_INPUT_PARAMS[fn].forEach((param, i) => { if (args[i] !== undefined) input[param] = args[i]; });
      }
    } else {
      __wsiReads.whole(() => refuseForeignHandle(input, "input", "modules." + name));  // reads.js: handed on whole
    }
    const json = __wsiReads.whole(() => stringify(input, markFunctions));  // reads.js: handed on whole
    const id = ++run.callCount;
    const place = callerPlace();
    return new Promise((resolve, reject) => {
      run.pending.set(id, { resolve, reject, place });
      run.queue.push("[" + id + "," + stringify(name) + "," + (json === undefined ? "null" : json) + "," +
        (place ? place.line : 0) + "," + (realNow() - run.startedAt) + "]");
    });
  }

  function ghost(path) {
    let key = path[0];
    for (let i = 1; i < path.length; i++) key += "." + path[i];
    let made = run.ghosts.get(key);
    if (made === undefined) {
      made = makeGhost(path);
      run.ghosts.set(key, made);
    }
    return made;
  }

  const ghostPaths = new WeakMap();

  // One shared trap, so a call site is one frame below it (see callerPlace).
  function applyGhost(target, _this, args) {
    const path = ghostPaths.get(target);
    if (path.length === 3) return callModule(path[0], path[1], path[2], args);
    if (path.length === 2) return callModule(path[0], path[1], path[1], args);
    throw userError("UnknownModuleError", "modules." + path.join(".") + " is a module group, not a call; call modules." +
      path[0] + ".<module>.<fn>(input)", callSite());
  }

  function makeGhost(path) {
    const target = function () {};
    ghostPaths.set(target, path);
    return new Proxy(target, {
      get(_, key) {
        if (typeof key !== "string" || key === "then" || key === "toJSON") return undefined;
        return path.length < 3 ? ghost(path.concat([key])) : undefined;
      },
      apply: applyGhost,
    });
  }

  function makeModules() {
    return new Proxy({}, {
      get(_, key) {
        if (typeof key !== "string" || key === "then" || key === "toJSON") return undefined;
        return ghost([key]);
      },
      ownKeys() { return Object.keys(run.known); },
      getOwnPropertyDescriptor(_, key) {
        return hasOwn.call(run.known, key) ? { value: ghost([key]), enumerable: true, configurable: true } : undefined;
      },
    });
  }

  // ---- timers, run-scoped ----
  function setTimer(fn, delay, args, repeat) {
    if (!run) return 0;
    const id = ++run.timerCount;
    const ms = Math.max(0, Number(delay) || 0);
    run.timers.set(id, { fn, args, ms, due: realNow() + ms, repeat });
    return id;
  }

  // ---- determinism ----
  function seededRandom(seed) {
    let a = seed >>> 0;
    return function random() {
      a = (a + 0x6d2b79f5) >>> 0;
      let t = a;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }

  function fixedDate(ms) {
    function Date(...args) {
      if (!new.target) return new RealDate(ms).toString();
      return Reflect.construct(RealDate, args.length ? args : [ms], new.target);
    }
    Date.prototype = RealDate.prototype;
    Date.now = () => ms;
    Date.parse = RealDate.parse;
    Date.UTC = RealDate.UTC;
    return Date;
  }

  // ---- the run ----
  function refuse(name, message) {
    run.done = { out: { ok: false, error: { name, message } } };
  }

  // Never exceed the cap in the middle of a surrogate pair.
  function cutAt(text, limit) {
    const code = text.charCodeAt(limit - 1);
    return text.slice(0, code >= 0xd800 && code <= 0xdbff ? limit - 1 : limit);
  }

  const hooks = {
    logBuffer,
    start(fn, envText, storeText, sceneText, secret, sourceLength) {
      __wsiReads.reset();  // reads.js
      run = {
        known: {}, handles: new Map(), pending: new Map(), queue: [], callCount: 0, ghosts: new Map(),
        timers: new Map(), timerCount: 0, done: null, startedAt: realNow(), secret,
      };
      let source = null;
      try {
        source = fnToString.call(fn);
      } catch (e) { /* not a function: the body broke out of its wrapper */ }
      if (typeof fn !== "function" || source === null || source.length !== sourceLength) {
        refuse("SyntaxError", "the body closes the function it runs in (an unbalanced '}' or ')'); balance its brackets");
        return;
      }
      const env = parse(envText);
      run.known = env.known;
      if (env.options.deterministic) {
        Math.random = seededRandom(env.options.seed);
        globalThis.Date = fixedDate(env.options.nowMs);
      }
      // reads.js: kept is handed through the tracer.
      const scope = [makeInputs(parsedOnUse(storeText)), __wsiReads.kept(env.kept), makeModules(), makeScene(parsedOnUse(sceneText)),
        bodyConsole, bodyConsole.log];
      const current = run;
      const finish = (value) => {
        const out = { ok: true };
        const json = __wsiReads.whole(() => stringify(value));  // reads.js: handed on whole
        if (json !== undefined) {
          out.returnedChars = json.length;
          if (json.length > MAX_RETURNED_CHARS) out.returnedCut = cutAt(json, MAX_RETURNED_CHARS);
        }
        let keepJson;
        if (value !== null && typeof value === "object" && hasOwn.call(value, "keep") && value.keep !== undefined) {
          keepJson = __wsiReads.whole(() => stringify(value.keep, markFunctions));  // reads.js
        }
        current.done = { out, json, keepJson };
      };
      Promise.resolve()
        .then(() => fn.apply(undefined, scope))
        .then(finish)
        .then(null, (error) => { current.done = { out: { ok: false, error: describeError(error) } }; });
    },
    // The done text is three JSON texts joined by NUL (which JSON text never holds raw): the
    // outcome, the returned value and the keep; the host reads each on its own.
    poll() {
      // Calls the body made but did not await are still made (and traced) before it is done.
      if (run.done && !run.queue.length) {
        const d = run.done;
        // reads.js: the reads join the outcome's head.
        return '{"done":' + stringify(d.out) + __wsiReads.text() + "}\u0000" + (d.json === undefined ? "" : d.json) + "\u0000" +
          (d.keepJson === undefined ? "" : d.keepJson);
      }
      if (run.queue.length) {
        const text = '{"calls":[' + run.queue.join(",") + "]}";
        run.queue = [];
        return text;
      }
      if (run.timers.size) {
        let due = Infinity;
        for (const t of run.timers.values()) due = Math.min(due, t.due);
        return '{"wait":' + Math.max(0, due - realNow()) + "}";
      }
      return '{"stuck":' + run.pending.size + "}";
    },
    answer(text) {
      for (const [id, ok, value] of parse(text)) {
        const call = run.pending.get(id);
        if (!call) continue;
        run.pending.delete(id);
        if (ok) call.resolve(value);
        else {
          const error = new Error(value.message);
          error.name = value.name || "Error";
          if (call.place) Object.defineProperty(error, "__wsiPlace", { value: call.place });
          call.reject(error);
        }
      }
    },
    fire() {
      const now = realNow();
      const due = [...run.timers.entries()].filter(([, t]) => t.due <= now).sort((a, b) => a[1].due - b[1].due || a[0] - b[0]);
      for (const [id, t] of due) {
        if (t.repeat) t.due = now + Math.max(1, t.ms);
        else run.timers.delete(id);
        try {
          if (typeof t.fn === "function") t.fn(...t.args);
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
  define("setTimeout", (fn, delay, ...args) => setTimer(fn, delay, args, false));
  define("setInterval", (fn, delay, ...args) => setTimer(fn, delay, args, true));
  define("clearTimeout", (id) => { if (run) run.timers.delete(id); });
  define("clearInterval", (id) => { if (run) run.timers.delete(id); });
  // Compile the hooks' code now, while the realm waits for its run, not during it: a fresh
  // isolate compiles each function on its first call. The warm-up's state has one of each thing a
  // run's state holds (a store entry, a scene entity, a module) and is deterministic, so the same
  // code runs as in a run; its promises settle once this script is done, compiling the rest.
  // Only the runner's code runs here, on a run record that is dropped; what it changed of the
  // global object (Math.random, Date) is put back, so the body's realm is otherwise untouched.
  const idle = async function () {};
  hooks.start(idle, '{"kept":{"k":{"v":1}},"known":{"a":{"b":["c"]}},"options":{"deterministic":true,"seed":1,"nowMs":0}}',
    '[{"id":1,"call":"a.b.c","input":{"x":[1,"y"]},"applied":true}]',
    '{"unit":"mm","entities":[{"id":"e1","type":"wall","name":"w"}],"keptManifest":{}}', "", fnToString.call(idle).length);
  hooks.poll();
  Math.random = realRandom;
  globalThis.Date = RealDate;
  run = null;
  return Object.freeze(hooks);
})()
