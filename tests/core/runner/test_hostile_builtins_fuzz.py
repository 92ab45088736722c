"""Seeded fuzz of hostile built-in overrides (issue 26): replace one intrinsic, run a recorded demo body,
and the runner reports the body's true outcome.

Each override is hostile only to the runner: it behaves as the original when the body's own code
calls it (its nearest caller with a place is `body.js`) and forges an answer when anything else
does (the runner's code, whose frames are the prelude's). So a correct body's outcome cannot
change, and any difference from the outcome without the override is the runner trusting a
built-in the body controls. The override goes on a first line of its own; lines are compared one
down. `WSI_FUZZ_CASES` raises the number of cases (the normal suite runs a few dozen).
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
# located frame above the replaced built-in is the body's own.
HARNESS = (
    "const __fz = (() => { const apply = Reflect.apply, capture = Error.captureStackTrace, exec = RegExp.prototype.exec, "
    "located = /:\\d+:\\d+\\)?$/m, body = /body\\.js:\\d+:\\d+\\)?$/m; "
    "return (fn) => { const o = {}; capture(o, fn); const s = o.stack; "
    "const m = apply(exec, located, [s]); if (m === null) return true; "
    "const b = apply(exec, body, [s]); return b !== null && b.index <= m.index; }; })();"
)

# label: JavaScript that replaces one intrinsic with a hostile twin (`orig` is the original).
METHOD = ("{{ const target = {target}; const orig = target[{key}]; "
          "const twin = function (...a) {{ return __fz(twin) ? Reflect.apply(orig, this, a) : ({forged}); }}; "
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
    "Promise.prototype.then": method("Promise.prototype", "'then'", "Reflect.apply(orig, Promise.resolve({ forged: 1 }), a)"),
    "Function.prototype.call": method("Function.prototype", "'call'", "'forged'"),
    "Function.prototype.apply": method("Function.prototype", "'apply'", "'forged'"),
    "Error.captureStackTrace": method("Error", "'captureStackTrace'", "undefined"),
    "Number.prototype.toString": method("Number.prototype", "'toString'", "'forged'"),
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
    rng = random.Random(SEED)
    labels = sorted(OVERRIDES)
    picked = [(label, rng.randrange(8)) for label in labels]  # every override once
    picked += [(rng.choice(labels), rng.randrange(8)) for _ in range(max(0, CASES - len(labels)))]
    return picked


@pytest.fixture(scope="module")
def truths(demo, runner):
    return {body.id: outcome(run_body(demo, runner, body), 0) for body in demo.bodies}


@pytest.mark.parametrize("label, index", cases())
def test_a_hostile_builtin_does_not_change_the_reported_outcome(demo, runner, truths, label, index):
    body = demo.bodies[index % len(demo.bodies)]
    result = run_body(demo, runner, body, HARNESS + " " + OVERRIDES[label] + "\n")
    got = outcome(result, 1)
    assert got == truths[body.id], f"{label} on {body.id}: {json.dumps(got)[:600]}"
