"""Seeded fuzz of hostile built-in overrides (issue 26): replace one intrinsic, run a recorded demo body,
and the runner reports the body's true outcome.

Each override is hostile only to the runner: it behaves as the original when the body's own code
calls it (its nearest caller with a place is `body.js`) and forges an answer when anything else
does (the runner's code, whose frames are the prelude's). So a correct body's outcome cannot
change, and any difference from the outcome without the override is the runner trusting a
built-in the body controls. The override goes on a first line of its own; lines are compared one
down. Every override runs on every body; `WSI_FUZZ_CASES` sets how many seeded pairs of two overrides
at once run after them (36 in the normal suite).
"""
from __future__ import annotations

import json
import os
import random
import re

import pytest

from wsi_inspector.core.runner.envelope import build_envelope

SEED = 26
CASES = int(os.environ.get("WSI_FUZZ_CASES", "36"))

# Captured by the override line before it replaces anything; `byBody()` is true when the nearest
# located frame above the replaced built-in is the body's own. A twin calls its original through the
# captured `Reflect.apply`: through the global, a pair replacing Reflect.apply and a built-in the body
# uses made the twins call each other until the stack overflowed (the body's own failure, not the runner's).
HARNESS = (
    "const __fzApply = Reflect.apply; const __fz = (() => { const apply = Reflect.apply, capture = Error.captureStackTrace, exec = RegExp.prototype.exec, "
    "located = /:\\d+:\\d+\\)?$/m, body = /body\\.js:\\d+:\\d+\\)?$/m; "
    "return (fn) => { const o = {}; capture(o, fn); const s = o.stack; "
    "const m = apply(exec, located, [s]); if (m === null) return true; "
    "const b = apply(exec, body, [s]); return b !== null && b.index <= m.index; }; })();"
)

# label: JavaScript that replaces one intrinsic with a hostile twin (`orig` is the original).
METHOD = ("{{ const target = {target}; const orig = target[{key}]; "
          "const twin = function (...a) {{ return __fz(twin) ? __fzApply(orig, this, a) : ({forged}); }}; "
          "Object.defineProperty(target, {key}, {{ value: twin, writable: true, configurable: true }}); }}")


def method(target: str, key: str, forged: str) -> str:
    return METHOD.format(target=target, key=key, forged=forged)


OVERRIDES = {
    "Object.prototype.toJSON": "Object.defineProperty(Object.prototype, 'toJSON', { configurable: true, "
                               "get() { return __fz(Object.getOwnPropertyDescriptor(Object.prototype, 'toJSON').get) "
                               "? undefined : () => ({ ok: true, forged: 1 }); } });",
    "Array.prototype.toJSON": "Array.prototype.toJSON = function () { return 'forged'; };",
    "Array.prototype.join": method("Array.prototype", "'join'", "'[1,\"made.up.call\",{},77,0,[]]'"),
    "Array.prototype.push": method("Array.prototype", "'push'", "0"),
    "Array.prototype.map": method("Array.prototype", "'map'", "['forged']"),
    "Array.prototype.forEach": method("Array.prototype", "'forEach'", "undefined"),
    "Array.prototype.filter": method("Array.prototype", "'filter'", "[]"),
    "Array.prototype.slice": method("Array.prototype", "'slice'", "['forged']"),
    "Array.prototype.includes": method("Array.prototype", "'includes'", "true"),
    "Array.prototype.sort": method("Array.prototype", "'sort'", "this.reverse()"),
    "Array.prototype[Symbol.iterator]": method("Array.prototype", "Symbol.iterator", "['forged'].values()"),
    "Map.prototype.has": method("Map.prototype", "'has'", "true"),
    "Map.prototype.get": method("Map.prototype", "'get'", "'forged'"),
    "Map.prototype.set": method("Map.prototype", "'set'", "this"),
    "Set.prototype.has": method("Set.prototype", "'has'", "false"),
    "JSON.stringify": method("JSON", "'stringify'", "'{\"forged\":1}'"),
    "JSON.parse": method("JSON", "'parse'", "({ forged: 1 })"),
    "Object.keys": method("Object", "'keys'", "['forged']"),
    "Object.entries": method("Object", "'entries'", "[]"),
    "Object.defineProperty": method("Object", "'defineProperty'", "a[0]"),
    "Reflect.apply": method("Reflect", "'apply'", "'forged'"),
    "Reflect.ownKeys": method("Reflect", "'ownKeys'", "['forged']"),
    "Reflect.get": method("Reflect", "'get'", "'forged'"),
    "String": method("globalThis", "'String'", "'forged'"),
    "Number": method("globalThis", "'Number'", "NaN"),
    "String.prototype.slice": method("String.prototype", "'slice'", "'forged'"),
    "String.prototype.startsWith": method("String.prototype", "'startsWith'", "true"),
    "String.prototype.split": method("String.prototype", "'split'", "['forged']"),
    "String.prototype.replace": method("String.prototype", "'replace'", "'forged'"),
    "RegExp.prototype.exec": method("RegExp.prototype", "'exec'", "['body.js:99:1', '99', '1']"),
    "Math.min": method("Math", "'min'", "-1"),
    "Promise.prototype.then": method("Promise.prototype", "'then'", "__fzApply(orig, Promise.resolve({ forged: 1 }), a)"),
    "Function.prototype.call": method("Function.prototype", "'call'", "'forged'"),
    "Function.prototype.apply": method("Function.prototype", "'apply'", "'forged'"),
    "Error.captureStackTrace": method("Error", "'captureStackTrace'", "undefined"),
    "Number.prototype.toString": method("Number.prototype", "'toString'", "'forged'"),
    "RegExp.prototype[Symbol.replace]": method("RegExp.prototype", "Symbol.replace", "'forged'"),
    "RegExp.prototype[Symbol.split]": method("RegExp.prototype", "Symbol.split", "['forged']"),
    "RegExp.prototype[Symbol.match]": method("RegExp.prototype", "Symbol.match", "['forged']"),
    "RegExp.prototype.test": method("RegExp.prototype", "'test'", "true"),
    "String.prototype.indexOf": method("String.prototype", "'indexOf'", "0"),
    "String.prototype.lastIndexOf": method("String.prototype", "'lastIndexOf'", "0"),
    "String.prototype.toLowerCase": method("String.prototype", "'toLowerCase'", "'forged'"),
    "String.prototype.charCodeAt": method("String.prototype", "'charCodeAt'", "10"),
    "String.prototype.substring": method("String.prototype", "'substring'", "'forged'"),
    "String.prototype.trim": method("String.prototype", "'trim'", "'forged'"),
    "String.prototype.padStart": method("String.prototype", "'padStart'", "'forged'"),
    "String.prototype.concat": method("String.prototype", "'concat'", "'forged'"),
    "String.fromCharCode": method("String", "'fromCharCode'", "'forged'"),
    "Array.prototype.concat": method("Array.prototype", "'concat'", "['forged']"),
    "Array.prototype.indexOf": method("Array.prototype", "'indexOf'", "0"),
    "Array.prototype.reverse": method("Array.prototype", "'reverse'", "['forged']"),
    "Array.prototype.splice": method("Array.prototype", "'splice'", "[]"),
    "Array.prototype.pop": method("Array.prototype", "'pop'", "'forged'"),
    "Array.prototype.shift": method("Array.prototype", "'shift'", "'forged'"),
    "Array.prototype.reduce": method("Array.prototype", "'reduce'", "'forged'"),
    "Array.prototype.some": method("Array.prototype", "'some'", "true"),
    "Array.prototype.every": method("Array.prototype", "'every'", "false"),
    "Array.prototype.find": method("Array.prototype", "'find'", "({ forged: 1 })"),
    "Array.prototype.fill": method("Array.prototype", "'fill'", "['forged']"),
    "Array.from": method("Array", "'from'", "['forged']"),
    "Array.isArray": method("Array", "'isArray'", "false"),
    "Object.values": method("Object", "'values'", "['forged']"),
    "Object.assign": method("Object", "'assign'", "({ forged: 1 })"),
    "Object.create": method("Object", "'create'", "({ forged: 1 })"),
    "Object.freeze": method("Object", "'freeze'", "a[0]"),
    "Object.fromEntries": method("Object", "'fromEntries'", "({ forged: 1 })"),
    "Object.getPrototypeOf": method("Object", "'getPrototypeOf'", "null"),
    "Object.getOwnPropertyDescriptor": method("Object", "'getOwnPropertyDescriptor'", "({ value: 'forged', get: () => 1 })"),
    "Object.getOwnPropertyNames": method("Object", "'getOwnPropertyNames'", "['forged']"),
    "Object.prototype.hasOwnProperty": method("Object.prototype", "'hasOwnProperty'", "true"),
    "Object.prototype.toString": method("Object.prototype", "'toString'", "'[object Forged]'"),
    "Object.prototype.valueOf": method("Object.prototype", "'valueOf'", "'forged'"),
    "Reflect.has": method("Reflect", "'has'", "true"),
    "Reflect.construct": method("Reflect", "'construct'", "({ forged: 1 })"),
    "Reflect.defineProperty": method("Reflect", "'defineProperty'", "false"),
    "Reflect.getOwnPropertyDescriptor": method("Reflect", "'getOwnPropertyDescriptor'", "({ value: 'forged' })"),
    "Reflect.getPrototypeOf": method("Reflect", "'getPrototypeOf'", "null"),
    "Reflect.setPrototypeOf": method("Reflect", "'setPrototypeOf'", "false"),
    "Reflect.deleteProperty": method("Reflect", "'deleteProperty'", "false"),
    "Math.max": method("Math", "'max'", "1e300"),
    "Math.floor": method("Math", "'floor'", "-1"),
    "Math.abs": method("Math", "'abs'", "-1"),
    "Math.round": method("Math", "'round'", "-1"),
    "Number.isFinite": method("Number", "'isFinite'", "false"),
    "Number.isInteger": method("Number", "'isInteger'", "false"),
    "Number.prototype.toFixed": method("Number.prototype", "'toFixed'", "'forged'"),
    "isFinite": method("globalThis", "'isFinite'", "false"),
    "Date.now": method("Date", "'now'", "-1"),
    "Map.prototype.delete": method("Map.prototype", "'delete'", "true"),
    "Map.prototype.entries": method("Map.prototype", "'entries'", "[['forged', 1]].values()"),
    "Map.prototype.values": method("Map.prototype", "'values'", "['forged'].values()"),
    "Map.prototype.keys": method("Map.prototype", "'keys'", "['forged'].values()"),
    "Map.prototype.forEach": method("Map.prototype", "'forEach'", "undefined"),
    "Set.prototype.add": method("Set.prototype", "'add'", "this"),
    "WeakMap.prototype.get": method("WeakMap.prototype", "'get'", "'forged'"),
    "WeakMap.prototype.set": method("WeakMap.prototype", "'set'", "this"),
    "WeakMap.prototype.has": method("WeakMap.prototype", "'has'", "true"),
    "Promise.resolve": method("Promise", "'resolve'", "__fzApply(orig, Promise, [{ forged: 1 }])"),
    "Promise.reject": method("Promise", "'reject'", "__fzApply(orig, Promise, [new Error('forged')])"),
    "Promise.all": method("Promise", "'all'", "__fzApply(orig, Promise, [[]])"),
    "Promise.prototype.catch": method("Promise.prototype", "'catch'", "this"),
    "Promise.prototype.finally": method("Promise.prototype", "'finally'", "this"),
    "Function.prototype.bind": method("Function.prototype", "'bind'", "() => 'forged'"),
    "Function.prototype.toString": method("Function.prototype", "'toString'", "'forged'"),
    "Symbol.prototype.toString": method("Symbol.prototype", "'toString'", "'forged'"),
    "ArrayBuffer.isView": method("ArrayBuffer", "'isView'", "true"),
    "Error.prototype.toString": method("Error.prototype", "'toString'", "'Error: forged'"),
    "encodeURIComponent": method("globalThis", "'encodeURIComponent'", "'forged'"),
    "Array.prototype.values": method("Array.prototype", "'values'", "['forged'].values()"),
    "Array.prototype.keys": method("Array.prototype", "'keys'", "['forged'].values()"),
    "Array.prototype.entries": method("Array.prototype", "'entries'", "[[0, 'forged']].values()"),
    "Array.prototype.flat": method("Array.prototype", "'flat'", "['forged']"),
    "String.prototype[Symbol.iterator]": method("String.prototype", "Symbol.iterator", "['f'].values()"),
}


SECRET = re.compile(r"h(\d+)\.[0-9a-f]{24}")


def outcome(result, shift: int) -> dict:
    """What the report says, with lines moved `shift` up (the override's line) and each handle's per-run secret blanked."""
    return json.loads(SECRET.sub(r"h\1.SECRET", json.dumps(_outcome(result, shift))))


def _outcome(result, shift: int) -> dict:
    error = dict(result.get("error") or {})
    if "line" in error:
        error["line"] -= shift
    return {
        "ok": result["ok"], "returned": result.get("returned"), "error": error,
        "keep": [(k["name"], k["value"]) for k in result.get("keep", [])],
        "calls": [(c["call"], c["input"], c.get("output"), c.get("error"), c.get("line", 0) - shift if "line" in c else None)
                  for c in result["calls"]],
        "logs": result["logs"],
    }


def run_body(demo, runner, body, prefix: str = ""):
    code = prefix + body.code
    return runner.run(build_envelope(demo, code, body.lang, at=body.id, body_id=body.id))


def cases():
    """Every override on every demo body (the demo has 8), then `CASES` seeded pairs of two overrides at once."""
    labels = sorted(OVERRIDES)
    picked = [((label,), index) for label in labels for index in range(8)]
    rng = random.Random(SEED)
    picked += [(tuple(rng.sample(labels, 2)), rng.randrange(8)) for _ in range(CASES)]
    return picked


@pytest.fixture(scope="module")
def truths(demo, runner):
    return {body.id: outcome(run_body(demo, runner, body), 0) for body in demo.bodies}


@pytest.mark.parametrize("labels, index", cases(), ids=lambda v: "+".join(v) if isinstance(v, tuple) else str(v))
def test_a_hostile_builtin_does_not_change_the_reported_outcome(demo, runner, truths, labels, index):
    body = demo.bodies[index % len(demo.bodies)]
    result = run_body(demo, runner, body, HARNESS + " " + " ".join(OVERRIDES[label] for label in labels) + "\n")
    got = outcome(result, 1)
    assert got == truths[body.id], f"{' and '.join(labels)} on {body.id}: {json.dumps(got)[:600]}"


# Accessors a body puts on Object.prototype or Array.prototype under the names the runner's own records,
# descriptors and results use: a runner that read its records through the prototype chain would see the
# body's getter (forged, or throwing) or run its setter. Left out, as JavaScript itself reads them from any
# object: `then` (a module's answer resolves the body's promise: an object with a `then` is a thenable
# wherever it is resolved) and an array's `constructor` (Array.prototype.map on an input reads it, through
# the read tracer's proxy whose frame the harness counts as the runner's); `length` cannot be redefined.
ACCESSOR_NAMES = ("done", "out", "ok", "error", "line", "column", "message", "name", "value", "json", "calls",
                  "queue", "0", "1", "2", "__h", "__wsi_fn__", "keep", "returned", "stack", "get", "set", "writable",
                  "enumerable", "configurable", "id", "call", "input", "output", "applied", "unit", "kept", "known",
                  "options", "deterministic", "seed", "nowMs", "store", "keys", "bytes", "resolve", "reject",
                  "place", "what", "arg", "entry", "paths", "cut", "fns", "toJSON", "valueOf", "toString", "source",
                  "kind", "logs", "next", "return")
ACCESSOR = ("Object.defineProperty({target}, '{name}', {{ configurable: true, "
            "get() {{ if (__fz(Object.getOwnPropertyDescriptor({target}, '{name}').get)) return undefined; {forge} }}, "
            "set(v) {{ if (!__fz(Object.getOwnPropertyDescriptor({target}, '{name}').set)) {{ {forge} }} "
            "Object.defineProperty(this, '{name}', {{ value: v, writable: true, enumerable: true, configurable: true }}); }} }});")
FORGES = {"forged": "return 'forged';", "throwing": "throw new Error('forged');"}


def accessor_cases():
    """Each name on each prototype in each form, on one seeded body each."""
    rng = random.Random(SEED)
    return [(target, name, forge, rng.randrange(8)) for target in ("Object.prototype", "Array.prototype")
            for name in ACCESSOR_NAMES for forge in FORGES]


@pytest.mark.parametrize("target, name, forge, index", accessor_cases())
def test_an_accessor_on_a_prototype_does_not_change_the_reported_outcome(demo, runner, truths, target, name, forge, index):
    body = demo.bodies[index % len(demo.bodies)]
    override = ACCESSOR.format(target=target, name=name, forge=FORGES[forge])
    got = outcome(run_body(demo, runner, body, HARNESS + " " + override + "\n"), 1)
    assert got == truths[body.id], f"a {forge} {target}.{name} on {body.id}: {json.dumps(got)[:600]}"
