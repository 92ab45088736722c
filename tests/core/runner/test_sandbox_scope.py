"""A body reaches only its scope (SPEC 5): the standard globals, its console and timers; nothing of the runner.

Handles are unguessable, so only a handle this run handed out resolves.
"""
from __future__ import annotations

from wsi_inspector.core.runner.envelope import build_envelope

# ECMA-262 (2026) globals, ECMA-402's Intl, the WebAssembly JS API and Annex B's escape/unescape.
STANDARD_GLOBALS = {
    "globalThis", "Infinity", "NaN", "undefined", "eval", "isFinite", "isNaN", "parseFloat", "parseInt",
    "decodeURI", "decodeURIComponent", "encodeURI", "encodeURIComponent", "escape", "unescape",
    "AggregateError", "Array", "ArrayBuffer", "AsyncDisposableStack", "BigInt", "BigInt64Array", "BigUint64Array",
    "Boolean", "DataView", "Date", "DisposableStack", "Error", "EvalError", "FinalizationRegistry", "Float16Array",
    "Float32Array", "Float64Array", "Function", "Int8Array", "Int16Array", "Int32Array", "Iterator", "Map", "Number",
    "Object", "Promise", "Proxy", "RangeError", "ReferenceError", "RegExp", "Set", "SharedArrayBuffer", "String",
    "SuppressedError", "Symbol", "SyntaxError", "TypeError", "Uint8Array", "Uint8ClampedArray", "Uint16Array",
    "Uint32Array", "URIError", "WeakMap", "WeakRef", "WeakSet",
    "Atomics", "JSON", "Math", "Reflect", "Intl", "Temporal", "WebAssembly",
}
BODY_SCOPE_GLOBALS = {"console", "setTimeout", "setInterval", "clearTimeout", "clearInterval"}


def test_the_global_scope_holds_the_standard_globals_and_the_bodys_scope_only(demo, runner):
    result = runner.run(build_envelope(demo, "return [Object.getOwnPropertyNames(globalThis), "
                                       "Object.getOwnPropertySymbols(globalThis).length];"))
    names, symbols = result["returned"]
    assert set(names) - STANDARD_GLOBALS == BODY_SCOPE_GLOBALS
    assert symbols == 0


def test_the_runners_object_is_not_reachable(demo, runner):
    code = ("const seen = [typeof __wsi, typeof __timer_manager];\n"
            "for (const name of Object.getOwnPropertyNames(globalThis)) {\n"
            "  const value = globalThis[name];\n"
            "  if (value && typeof value === 'object' && ('logBuffer' in value || 'poll' in value)) seen.push(name);\n"
            "}\nreturn seen;")
    assert runner.run(build_envelope(demo, code))["returned"] == ["undefined", "undefined"]


def test_a_body_sees_its_scope_by_name(demo, runner):
    code = ("return [typeof inputs.last, typeof kept, typeof modules, typeof scene.get, typeof console.log, typeof log, "
            "typeof setTimeout, typeof clearInterval, globalThis.console === console];")
    assert runner.run(build_envelope(demo, code))["returned"] == [
        "function", "object", "object", "function", "function", "function", "function", "function", True]


def test_a_typed_in_handle_id_is_refused_even_for_a_handle_this_run_made(demo, runner):
    result = runner.run(build_envelope(demo, "scene.get('ward-2');\nreturn scene.read({ __h: 'h1' }).id;"))
    assert result["ok"] is False and result["error"]["name"] == "HandleError"
    assert "argument 1" in result["error"]["message"] and result["error"]["line"] == 2


def test_a_handle_of_an_earlier_run_is_refused_with_its_path(demo, runner):
    first = runner.run(build_envelope(demo, "return scene.get('ward-1');"))["returned"]
    code = f"await modules.pack.rooms.place({{ rooms: [{{ ward: {{ __h: {first['__h']!r} }} }}] }});"
    result = runner.run(build_envelope(demo, code))
    assert result["error"]["name"] == "HandleError"
    assert "input.rooms.0.ward" in result["error"]["message"]


def test_handles_of_one_run_differ_from_the_handles_of_another(demo, runner):
    code = "return [scene.get('ward-1').__h, scene.get('ward-1').__h];"
    first = runner.run(build_envelope(demo, code))["returned"]
    second = runner.run(build_envelope(demo, code))["returned"]
    assert len(set(first + second)) == 4
    assert all(len(handle) >= 24 for handle in first + second)
