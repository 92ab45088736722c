"""The mock modules a run calls (SPEC 5): recorded outputs, the scene's mocks, and run.inputs for real.

`MockModules(session)` indexes the session once: every recorded call with an output, keyed by call
name and a canonical form of its input (equal as JavaScript sees parsed JSON, key order ignored).
`answer(call, input)` gives the output and where it came from, or an error naming the nearest
recorded call of that name and how its input differs.

`run.inputs` functions take one input, an object of their named parameters (the guest builds it
from positional arguments): `trimStore(store, maxBytes)` arrives as `{store, maxBytes}`.
`trimStore` answers `{tail, fell}`. A function inside a run.inputs input (or a keep) arrives as
`null` with its JSON Pointer and name listed apart (`place_functions` puts a JsFunction there), so
run.inputs sees it as a function (findUnkeepable and validateKeep find it) and no plain data ever
reads as one; any other module sees what `JSON.stringify` would have sent (the guest drops it).
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Callable

from wsi_inspector.core.edits.diff import diff
from wsi_inspector.core.jsrules.json_values import canonical
from wsi_inspector.core.jsrules.jsonsize import compact_json
from wsi_inspector.core.jsrules.js_value import as_js
from wsi_inspector.core.session.model import Entry
from wsi_inspector.core.jsrules import run_inputs

RUN_INPUTS = (
    "jsonBytes", "describeValue", "manifestEntry", "callMatches", "makeInputs",
    "trimStore", "findUnkeepable", "validateKeep", "keptManifest",
)
NEAREST_CANDIDATES = 64
# An unrecorded call's input is diffed against the recorded ones only up to this size (see no_output_message).
NEAREST_MAX_CHARS = 100_000


class JsFunction:
    """A JavaScript function that crossed the wire: only its name survives."""

    def __init__(self, name: str):
        self.name = name

    def __call__(self, *args: Any) -> Any:
        raise TypeError(f"the JavaScript function {self.name} cannot run on the host")

    def __repr__(self) -> str:
        return f"[Function {self.name}]"


@dataclass(slots=True)
class Answer:
    """What a module call gave: an output, or an error; `source` says where it came from."""

    ok: bool
    value: Any = None
    error: dict[str, str] | None = None
    source: dict[str, Any] | None = None
    unit: str | None = None


def place_functions(value: object, functions: list[list[str]]) -> object:
    """`value` (parsed from the guest's JSON) with a JsFunction at each `[JSON Pointer, name]` the guest listed.

    The guest writes a function as `null` and lists where it was: no marker inside the data, so
    plain data that looks like one (`{"__wsi_fn__": "x"}`) stays data. Changes `value` in place.
    """
    from wsi_inspector.core.edits.diff import parse_pointer

    for path, name in functions:
        tokens = parse_pointer(path)
        if not tokens:
            return JsFunction(str(name))
        parent = value
        for token in tokens[:-1]:
            parent = parent[int(token)] if isinstance(parent, list) else parent[token] if isinstance(parent, dict) else None
        last = tokens[-1]
        if isinstance(parent, list):
            parent[int(last)] = JsFunction(str(name))
        elif isinstance(parent, dict):
            parent[last] = JsFunction(str(name))
    return value


def _normal(value: Any) -> Any:
    # JavaScript has one number type: 1 and 1.0, and integers beyond 2^53 and their nearest double, are one input.
    return as_js(value)


def input_key(value: Any) -> bytes:
    """Equal keys for inputs JavaScript sees as equal (numbers by value, key order ignored).

    JavaScript prints every integral number without a fraction (and -0 as 0), so an input parsed
    from its JSON is already normal: `canonical(value)` is its key.
    """
    return canonical(_normal(value))


def known_calls(session: Any) -> dict[str, dict[str, list[str] | None]]:
    """group → module → fns (None: any fn) from the session's modules, recorded calls and mocks."""
    known: dict[str, dict[str, list[str] | None]] = {}

    def add(group: str, module: str, fn: str | None) -> None:
        fns = known.setdefault(group, {}).setdefault(module, [])
        if fns is not None and fn is not None and fn not in fns:
            fns.append(fn)

    for name, info in (session.modules or {}).items():
        if name.count(".") != 1:
            continue
        group, module = name.split(".")
        fns = info.get("fns") if isinstance(info, dict) else None
        if fns is None:
            known.setdefault(group, {})[module] = None
        else:
            for fn in fns:
                add(group, module, str(fn))
            add(group, module, None)
    mocks = ((session.scene or {}).get("mocks") or {}) if isinstance(session.scene, dict) else {}
    for call in [e.call for e in session.entries] + [str(k) for k in mocks]:
        parts = call.split(".")
        if len(parts) == 3:
            add(*parts)
    for fn in RUN_INPUTS:
        add("run", "inputs", fn)
    return known


class MockModules:
    """The session's module calls as a mock: answers a call from the record, the scene, or run.inputs."""

    def __init__(self, session: Any):
        # No reference to the session itself: wsi_inspector.core.runner.envelope caches one MockModules per
        # session in a WeakKeyDictionary, which a value holding its key would keep alive for ever.
        self.known = known_calls(session)
        scene = session.scene if isinstance(session.scene, dict) else {}
        self.mocks: dict[str, Any] = dict(scene.get("mocks") or {})
        self.scene_unit: str | None = scene.get("unit")
        self.by_call: dict[str, list[Entry]] = {}
        self.recorded: dict[str, dict[bytes, list[Entry]]] = {}
        for entry in session.entries:
            if entry.applied:
                continue
            self.by_call.setdefault(entry.call, []).append(entry)
            if entry.has_output:
                self.recorded.setdefault(entry.call, {}).setdefault(input_key(entry.input), []).append(entry)
        self.max_keep_bytes: int = session.caps.max_keep_bytes
        self.entry_keys: set[str] = {e.key for e in session.entries}

    def answer(self, call: str, raw_input: Any, body_key: str | None = None, from_js: bool = False,
               deadline: float | None = None) -> tuple[Any, Answer]:
        """(the input the mock ran on, its answer) for one call.

        `from_js`: the input was parsed from JavaScript's JSON, whose numbers are already in normal
        form (spares a walk of the input). Functions: JsFunction placeholders in a run.inputs input
        (`place_functions`), already dropped from any other (the guest sends what JSON.stringify
        would). `deadline` (monotonic) bounds the nearest-recorded-call search.
        """
        if call.startswith("run.inputs."):
            return raw_input, self._run_inputs(call.rsplit(".", 1)[1], raw_input)
        value = raw_input
        recorded = self.recorded.get(call)
        matches = None
        if recorded:
            matches = recorded.get(canonical(value) if from_js else input_key(value))
        if matches:
            own = [e for e in matches if body_key is not None and e.body is not None and str(e.body) == body_key]
            entry = (own or matches)[-1]
            source = {"kind": "recorded", "entry": entry.id}
            return value, Answer(True, entry.output, source=source, unit=entry.unit or self.scene_unit)
        rule = self.mocks.get(call)
        if isinstance(rule, dict):
            answer = self._rule(call, rule, value)
            if answer is not None:
                return value, answer
        return value, Answer(False, error={"name": "MockError", "message": self.no_output_message(call, value, deadline)},
                             source={"kind": "none"})

    def _rule(self, call: str, rule: dict[str, Any], value: Any) -> Answer | None:
        where = f"scene.mocks[{call!r}]"
        if isinstance(rule.get("throws"), str):
            return Answer(False, error={"name": "Error", "message": rule["throws"]}, source={"kind": "mock", "rule": "throws"})
        if rule.get("echo") is True:
            return Answer(True, value, source={"kind": "mock", "rule": "echo"}, unit=self.scene_unit)
        if "returns" in rule:
            return Answer(True, rule["returns"], source={"kind": "mock", "rule": "returns"}, unit=self.scene_unit)
        return Answer(False, error={"name": "MockError", "message": f"{where} has no returns, echo or throws; give it one"},
                      source={"kind": "mock", "rule": "invalid"})

    def no_output_message(self, call: str, value: Any, deadline: float | None = None) -> str:
        """Why no output: the nearest recorded call of that name and where its input differs.

        The search is the host's work for the run, so it is bounded: an input over NEAREST_MAX_CHARS
        of JSON is not diffed at all (aligning it is quadratic), and no diff starts past `deadline`.
        """
        fix = f"record this call in the session or add a rule to scene.mocks[{call!r}] ({{\"returns\": …}}, {{\"echo\": true}} or {{\"throws\": \"…\"}})"
        candidates = self.by_call.get(call, [])[-NEAREST_CANDIDATES:]
        if not candidates:
            return f"modules.{call}: no recorded call of {call} and no scene mock for it; {fix}"
        size = len(compact_json(value, NEAREST_MAX_CHARS + 1))
        if size > NEAREST_MAX_CHARS:
            return (f"modules.{call}: no recorded output for this input and no scene mock; its input is over "
                    f"{NEAREST_MAX_CHARS:,} characters of JSON, too big to compare with the {len(candidates)} recorded "
                    f"calls of {call} (the last is {candidates[-1].id}); {fix}")
        scored = []
        fewest: int | None = None  # the fewest changes yet: a call sure to differ in more is not diffed (~1 ms each)
        for i in range(len(candidates) - 1, -1, -1):  # newest first: most often the nearest, and first past a deadline
            if deadline is not None and time.monotonic() > deadline:
                break
            entry = candidates[i]
            recorded = entry.input
            if fewest is not None and _differs_at_least(recorded, value) > fewest:
                continue
            changes = diff(recorded, value)
            scored.append((len(changes), _distance(changes), -i, entry, changes))
            fewest = len(changes) if fewest is None else min(fewest, len(changes))
        if not scored:
            return f"modules.{call}: no recorded output for this input and no scene mock; {fix}"
        count, _, _, nearest, changes = min(scored, key=lambda s: s[:3])
        if count == 0:
            return (f"modules.{call}: the recorded call {nearest.id} has this very input but no recorded output, "
                    f"and the scene has no mock for it; {fix}")
        shown = "; ".join(describe_change(c) for c in changes[:3])
        more = f" and {count - 3} more" if count > 3 else ""
        return (f"modules.{call}: no recorded output for this input and no scene mock; the nearest recorded call is "
                f"{nearest.id}, whose input differs at {shown}{more}; {fix}")

    def _run_inputs(self, fn: str, params: Any) -> Answer:
        source = {"kind": "run.inputs"}
        handler = RUN_INPUT_HANDLERS.get(fn)
        if handler is None:
            return Answer(False, error={"name": "TypeError", "message": f"run.inputs.{fn} is not a run.inputs function"}, source=source)
        if not isinstance(params, dict):
            params = {}
        try:
            return Answer(True, handler(self, params), source=source)
        except run_inputs.InvalidKeepError as exc:
            return Answer(False, error={"name": "InvalidKeepError", "message": str(exc)}, source=source)
        except (ValueError, TypeError, KeyError, AttributeError) as exc:
            return Answer(False, error={"name": "TypeError", "message": f"run.inputs.{fn}: {exc}"}, source=source)


def _differs_at_least(before: Any, after: Any) -> int:
    """A floor under `len(diff(before, after))`, cheap: of two objects, each top-level member added, removed or not
    equal is at least one change; of other values, one if they are not equal. (Two JSON values Python finds unequal
    always differ somewhere for the diff: both compare numbers by value and objects whatever their keys' order.)"""
    if isinstance(before, dict) and isinstance(after, dict):
        return sum(1 for key in before.keys() | after.keys() if key not in before or key not in after or before[key] != after[key])
    return 0 if before == after else 1


def _distance(changes: list[dict[str, Any]]) -> float:
    # Among calls that differ in as many places, the nearest is the one whose numbers are closest.
    return sum(abs(float(c["delta"])) for c in changes if isinstance(c.get("delta"), (int, float)))


def short_json(value: Any, limit: int = 60) -> str:
    """A value as compact JSON, cut to `limit` characters."""
    return compact_json(value, limit - 1)


def describe_change(change: dict[str, Any]) -> str:
    """One diff change in words: `/distance: 1500 → -200`."""
    path = change["path"] or "(the whole input)"
    if change["op"] == "add":
        return f"{path}: added {short_json(change['to'])}"
    if change["op"] == "remove":
        return f"{path}: removed (was {short_json(change['from'])})"
    return f"{path}: {short_json(change['from'])} → {short_json(change['to'])}"


def _entry(shape: Any) -> Entry:
    if not isinstance(shape, dict) or "call" not in shape:
        raise ValueError("each store entry must be an object with id, call and input")
    # The id as the body gave it, even none: the editor's function takes any (Entry.id's type is what the loader checks).
    return Entry(id=shape.get("id"), call=str(shape["call"]), input=shape.get("input"),  # type: ignore[arg-type]
                 unit=shape.get("unit"), applied=shape.get("applied") is True)


def _max_bytes(params: dict[str, Any], default: int) -> int:
    value = params.get("maxBytes", default)
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return value


def _trim(mock: MockModules, params: dict[str, Any]) -> dict[str, Any]:
    store = [_entry(s) for s in params.get("store") or []]
    tail, fell = run_inputs.trim_store(store, _max_bytes(params, 0))
    return {"tail": [e.editor_shape() for e in tail], "fell": fell}


def _make_inputs(mock: MockModules, params: dict[str, Any]) -> Any:
    raise ValueError("makeInputs returns functions, which cannot cross a module call; use `inputs`, which every body is handed")


RUN_INPUT_HANDLERS: dict[str, Callable[[MockModules, dict[str, Any]], Any]] = {
    "jsonBytes": lambda m, p: run_inputs.json_bytes(p.get("value")),
    "describeValue": lambda m, p: run_inputs.describe_value(p.get("value")),
    "manifestEntry": lambda m, p: run_inputs.manifest_entry(_entry(p.get("entry"))),
    "callMatches": lambda m, p: run_inputs.call_matches(str(p.get("call")), str(p.get("wanted"))),
    "makeInputs": _make_inputs,
    "trimStore": _trim,
    "findUnkeepable": lambda m, p: run_inputs.find_unkeepable(p.get("value"), str(p.get("path", ""))),
    "validateKeep": lambda m, p: run_inputs.validate_keep(p.get("keep"), _max_bytes(p, m.max_keep_bytes)),
    "keptManifest": lambda m, p: run_inputs.kept_manifest(p.get("kept") or {}),
}
