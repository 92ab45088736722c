"""Every run starts in a fresh realm (SPEC 5): what one body does to its realm never reaches the next.

Each polluter runs, then its checker runs in the SAME guest (the shared runner is a pool of one),
and the checker must see a clean realm: standard built-ins, no leaked globals, no leaked callbacks.
"""
from __future__ import annotations

import pytest

from wsi_inspector.core.runner.envelope import build_envelope

# label: (polluter, checker, what the checker returns in a clean realm)
POLLUTERS = {
    "Date.prototype.toISOString": (
        "Date.prototype.toISOString = () => 'LEAKED';\nreturn new Date(0).toISOString();",
        "return new Date(0).toISOString();", "1970-01-01T00:00:00.000Z"),
    "Array iterator next": (
        "Object.getPrototypeOf([][Symbol.iterator]()).next = function () { return { done: true }; };\nreturn 1;",
        "return [...[1, 2, 3]].length;", 3),
    "RegExp.$1 and RegExp.input": (
        "/(secret)/.test('the secret word');\nreturn RegExp.$1;",
        "return [RegExp.$1, RegExp.input];", ["", ""]),
    "Atomics.waitAsync callback": (
        "const cell = new Int32Array(new SharedArrayBuffer(4));\n"
        "Atomics.waitAsync(cell, 0, 0, 30).value.then(() => { globalThis.leaked = 'LEAKED'; log('LEAKED'); });\nreturn 1;",
        "await new Promise((resolve) => setTimeout(resolve, 120));\nreturn typeof leaked;", "undefined"),
    "Map iterator next": (
        "Object.getPrototypeOf(new Map().entries()).next = () => ({ done: true });\nreturn 1;",
        "return [...new Map([[1, 2], [3, 4]])].length;", 2),
    "AsyncFunction.prototype": (
        "const AsyncFunction = Object.getPrototypeOf(async function () {});\n"
        "AsyncFunction.leaked = 'LEAKED';\nAsyncFunction.constructor = function () { return 'LEAKED'; };\nreturn 1;",
        "const AsyncFunction = Object.getPrototypeOf(async function () {});\n"
        "return [AsyncFunction.leaked === undefined, typeof new AsyncFunction.constructor('return 1')];",
        [True, "function"]),
    "Iterator.prototype": (
        "Iterator.prototype.map = function () { return ['LEAKED']; };\nreturn 1;",
        "return [1, 2].values().map((x) => x * 2).toArray();", [2, 4]),
    "TypedArray prototype": (
        "Object.getPrototypeOf(Uint8Array.prototype).fill = function () { return 'LEAKED'; };\nreturn 1;",
        "return Array.from(new Uint8Array(2).fill(7));", [7, 7]),
    "Atomics.wait": (
        "Atomics.wait = () => 'LEAKED';\nreturn 1;",
        "return [Atomics.wait.name, Atomics.wait.length];", ["wait", 4]),
    "WebAssembly.instantiate": (
        "WebAssembly.instantiate = () => 'LEAKED';\nreturn 1;",
        "const made = await WebAssembly.instantiate(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]));\n"
        "return made.instance instanceof WebAssembly.Instance;", True),
    "Intl.NumberFormat": (
        "Intl.NumberFormat = function () { return { format: () => 'LEAKED' }; };\nreturn 1;",
        "return new Intl.NumberFormat('en').format(1234.5);", "1,234.5"),
    "Object.setPrototypeOf(globalThis)": (
        "Object.setPrototypeOf(globalThis, { leaked: 'LEAKED', __proto__: Object.getPrototypeOf(globalThis) });\nreturn 1;",
        "return typeof leaked;", "undefined"),
    "Object.preventExtensions(globalThis)": (
        "Object.preventExtensions(globalThis);\nreturn 1;",
        "globalThis.mine = 1;\nreturn [Object.isExtensible(globalThis), mine];", [True, 1]),
    "frozen Array.prototype and Object.prototype": (
        "Object.freeze(Array.prototype);\nObject.freeze(Object.prototype);\nreturn 1;",
        "return [Object.isFrozen(Array.prototype), Object.isFrozen(Object.prototype)];", [False, False]),
    "Symbol.unscopables": (
        "Array.prototype[Symbol.unscopables] = { leaked: true };\nreturn 1;",
        "return [Array.prototype[Symbol.unscopables].flat, Array.prototype[Symbol.unscopables].leaked];", [True, None]),
    "FinalizationRegistry callback": (
        "const registry = new FinalizationRegistry(() => { globalThis.leaked = 'LEAKED'; log('LEAKED'); });\n"
        "for (let i = 0; i < 1000; i++) registry.register({ i }, i);\nglobalThis.keepAlive = registry;\nreturn 1;",
        "await new Promise((resolve) => setTimeout(resolve, 50));\nreturn [typeof leaked, typeof keepAlive];",
        ["undefined", "undefined"]),
    "WeakRef target": (
        "globalThis.ref = new WeakRef(globalThis);\nreturn 1;",
        "return typeof ref;", "undefined"),
    "String.prototype.replace = 5": (
        "String.prototype.replace = 5;\nreturn 1;",
        "return 40 + 2;", 42),
    "a global and a built-in's new property": (
        "leaked = 5;\nArray.prototype.extra = 1;\nreturn 1;",
        "return [typeof leaked, [].extra === undefined];", ["undefined", True]),
}


@pytest.mark.parametrize("label", list(POLLUTERS))
def test_a_polluter_never_reaches_the_next_body_in_the_same_guest(demo, runner, label):
    polluter, checker, clean = POLLUTERS[label]
    runner.run(build_envelope(demo, polluter, options={"timeout_s": 3}))
    result = runner.run(build_envelope(demo, checker, options={"timeout_s": 3}))
    assert result["ok"] is True, result.get("error")
    assert result["returned"] == clean
    assert result["logs"] == []


def test_a_body_that_breaks_its_realm_never_fails_the_next_run(demo, runner):
    for _ in range(6):
        runner.run(build_envelope(demo, "String.prototype.replace = 5;\nArray.prototype.join = null;\nJSON.parse = 0;\nreturn 1;"))
        after = runner.run(build_envelope(demo, "return 40 + 2;"))
        assert after["ok"] is True and after["returned"] == 42, after.get("error")


def test_pending_callbacks_of_a_body_do_not_run_after_it(demo, runner):
    code = ("const cell = new Int32Array(new SharedArrayBuffer(4));\n"
            "Atomics.waitAsync(cell, 0, 0, 1).value.then(() => { while (true) {} });\nreturn 'left a spinner behind';")
    assert runner.run(build_envelope(demo, code))["ok"] is True
    after = runner.run(build_envelope(demo, "await new Promise((resolve) => setTimeout(resolve, 30));\nreturn 'free';",
                                      options={"timeout_s": 2}))
    assert after["ok"] is True and after["returned"] == "free"


def test_the_realms_warm_up_leaves_no_fixed_time_or_seeded_random_to_a_free_run(demo, runner):
    # The prelude warms each realm with a deterministic run of its own; a non-deterministic body must
    # still see the real Date and Math.random (the warm-up's time was 0, its seed 1).
    code = ("return [Date === Date.prototype.constructor, Date.now() > 1.5e12, new Date().getFullYear() > 2000,\n"
            "        Math.random === Object.getOwnPropertyDescriptor(Math, 'random').value, Math.random() !== Math.random()];")
    free = runner.run(build_envelope(demo, code, options={"deterministic": False}))
    assert free["ok"] is True and free["returned"] == [True, True, True, True, True], free.get("error")
    seeded = [runner.run(build_envelope(demo, "return Math.random();", options={"deterministic": False}))["returned"]
              for _ in range(2)]
    assert seeded[0] != seeded[1]


def test_a_realm_is_made_with_its_warm_ups_end_already_run(demo, runner):
    # The warm-up's end (the done text a run's last poll writes) runs while the realm is made, not in the first
    # run; that run's outcome is its own: none of the warm-up's reads, its returned value or its keep.
    import asyncio

    from wsi_inspector.core.runner.guest import Realm

    async def warmed() -> bool:
        realm = Realm()
        try:
            return realm.warmed
        finally:
            realm.close()

    assert asyncio.run(warmed())
    result = runner.run(build_envelope(demo, "return 7;"))
    assert result["ok"] is True and result["returned"] == 7 and result["reads"] == [] and result.get("keep") is None


def test_a_body_that_breaks_out_of_its_function_cannot_start_a_run_of_its_own(demo, runner):
    # The script that compiles a body also starts it, through a name the body never sees. A body that
    # closes its function runs its own top-level code before that call; whatever it does, the run is refused.
    code = ("}), '{}', 'x', 0);\n"
            "for (const name of Object.getOwnPropertyNames(globalThis)) if (/wsi/i.test(name)) throw new Error('found ' + name);\n"
            "((function () {")
    result = runner.run(build_envelope(demo, code))
    assert result["ok"] is False and result["error"]["name"] in ("SyntaxError", "InternalError"), result
    assert "found" not in result["error"]["message"]
    after = runner.run(build_envelope(demo, "return 40 + 2;"))
    assert after["ok"] is True and after["returned"] == 42
