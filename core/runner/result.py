"""A run's result (SPEC 5): the module calls it traced, its keep verdict, and the caps with their markers.

`{ok, returned?, keep?, error?, logs, calls, operations, durationMs}` exactly. A returned value
whose JSON is over 24,000 characters comes back as a string: the first 24,000 characters and a
marker saying how many there were. `RunResult.full_returned` keeps the whole value (replay
compares it). A traced call is an Entry of the session's shape with two fields of its own:
`source` (`{"kind": "recorded", "entry": id}`, `{"kind": "mock", "rule": "returns"|"echo"|"throws"}`,
`{"kind": "run.inputs"}` or `{"kind": "none"}`) and, for a call that failed, `error`.
"""
from __future__ import annotations

import json
import re
import time
from functools import reduce
from typing import Any

import orjson

from core.run_inputs import InvalidKeepError, validate_keep
from core.runner.envelope import Envelope, dumps
from core.runner.mock_modules import with_functions

MAX_RETURNED_CHARS = 24_000
# How deep a returned value, a keep or a module call's input may nest. Python code walks these
# values (keep checks, diffs, the JSON writers) and orjson writes at most 254 levels.
MAX_DEPTH = 200
CUT_MARKER = f"\u2026 [cut: nested deeper than {MAX_DEPTH} levels]"
_JSON_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]')
_ORJSON_DEPTH = 254
_MISSING = object()


class RunResult(dict):
    """The SPEC 5 result document; `full_returned` is the returned value before the 24,000-character cap."""

    full_returned: Any = _MISSING

    @property
    def has_returned(self) -> bool:
        return self.full_returned is not _MISSING


def readable(text: str) -> str:
    """Text for people: a lone surrogate (JavaScript strings may hold them; UTF-8 cannot) becomes U+FFFD."""
    if text.isascii():
        return text
    return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")


def loads(text: str | bytes) -> Any:
    """Parse JSON; the standard library takes what orjson refuses (lone surrogates)."""
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        return json.loads(text)


def bounded_loads(text: str, depth: int = MAX_DEPTH) -> tuple[Any, int]:
    """Parse JSON whose containers nest at most `depth` deep; deeper ones become CUT_MARKER. (value, cuts)."""
    if text.count("[") + text.count("{") <= depth:
        return loads(text), 0
    try:
        value = orjson.loads(text)
        # orjson stops writing at 254 levels: wrapped in 254 - depth lists, the value writes only
        # when it nests at most `depth` deep. Far cheaper than scanning the text.
        orjson.dumps(reduce(lambda inner, _: [inner], range(_ORJSON_DEPTH - depth), value))
        return value, 0
    except (orjson.JSONDecodeError, TypeError):
        pass
    cut, cuts = cut_deep(text, depth)
    return loads(cut), cuts


def cut_deep(text: str, depth: int) -> tuple[str, int]:
    """The JSON text with every container nested deeper than `depth` replaced by CUT_MARKER."""
    parts: list[str] = []
    level = 0
    kept_from = 0
    cut_from: int | None = None
    cuts = 0
    for token in _JSON_TOKENS.finditer(text):
        mark = token.group()
        if mark in "[{":
            level += 1
            if level == depth + 1 and cut_from is None:
                cut_from = token.start()
        elif mark in "]}":
            if level == depth + 1 and cut_from is not None:
                parts.append(text[kept_from:cut_from])
                parts.append(json.dumps(CUT_MARKER))
                kept_from = token.end()
                cut_from = None
                cuts += 1
            level -= 1
    parts.append(text[kept_from:])
    return "".join(parts), cuts


class CallTrace:
    """The module calls of one run: answers each batch from the mock and records it as a new entry."""

    def __init__(self, envelope: Envelope):
        self.envelope = envelope
        self.calls: list[dict[str, Any]] = []
        self.operations: list[dict[str, Any]] = []
        self.started = time.monotonic()
        self._next = 0

    def _fresh_id(self) -> str:
        taken = self.envelope.mock.entry_keys if self.envelope.mock is not None else set()
        while True:
            self._next += 1
            candidate = f"run{self._next}"
            if candidate not in taken:
                return candidate

    def answer(self, calls_json: str) -> str:
        """The guest's `calls` batch answered: the JSON text of `[[id, ok, value|error], …]`."""
        answers = []
        has_functions = '"__wsi_fn__"' in calls_json
        mock = self.envelope.mock
        batch, cuts = bounded_loads(calls_json, MAX_DEPTH + 3)  # the batch wraps each input three deep
        # Every time on the host's one monotonic clock: a call starts when its batch arrives (the calls
        # of one batch were made in one tick) and ends when it is answered. The guest's own stamp is
        # Date.now() of another clock, in whole milliseconds, and made sequential awaits overlap.
        start_ms = (time.monotonic() - self.started) * 1000
        for call_id, name, raw_input, line, _guest_ms in batch["calls"]:
            if cuts and CUT_MARKER in dumps(raw_input):
                ran_on, ok, value, source, unit, error = raw_input, False, None, {"kind": "none"}, None, {
                    "name": "RangeError", "message": f"modules.{name}: its input nests deeper than {MAX_DEPTH} levels, "
                    f"more than the runner passes; flatten it (an array of rows, or ids instead of nested copies)"}
            elif mock is None:
                ran_on, ok, value, source, unit, error = raw_input, False, None, {"kind": "none"}, None, {
                    "name": "MockError", "message": f"modules.{name}: this run has no session to answer module calls"}
            else:
                ran_on, answer = mock.answer(name, raw_input, self.envelope.body_key, from_js=True, has_functions=has_functions)
                ok, value, source, unit, error = answer.ok, answer.value, answer.source, answer.unit, answer.error
            entry: dict[str, Any] = {"id": self._fresh_id(), "call": name, "input": ran_on}
            if name.startswith("run.inputs."):
                entry["input"] = raw_input  # the markers, not placeholders: the trace stays JSON
            if unit is not None:
                entry["unit"] = unit
            if self.envelope.body_key is not None:
                entry["body"] = self.envelope.body_key
            if ok:
                entry["output"] = value
            else:
                entry["error"] = error["message"]
            entry["source"] = source
            if line:
                entry["line"] = line
            self.calls.append(entry)
            now_ms = (time.monotonic() - self.started) * 1000
            operation: dict[str, Any] = {"call": name, "startMs": round(start_ms, 3),
                                         "durationMs": round(max(0.0, now_ms - start_ms), 3), "ok": ok}
            if not ok:
                operation["message"] = error["message"]
            self.operations.append(operation)
            answers.append([call_id, ok, value if ok else error])
        return dumps(answers)


def read_done(frame: dict[str, Any]) -> dict[str, Any]:
    """The guest's `done` frame as one outcome: its returned value (cut where it nests too deep) and keep."""
    head = loads(frame["json"])
    done: dict[str, Any] = head["done"]
    if "reads" in head:  # reads.js: what the body read (none from a run stopped before it reported)
        done["reads"], done["readsCut"] = head["reads"], head.get("readsCut", 0)
    if frame.get("returned") is not None:
        done["returned"], _ = bounded_loads(frame["returned"])
    if frame.get("keep") is not None:
        done["keep"], cuts = bounded_loads(frame["keep"])
        if cuts:
            done["keepTooDeep"] = True
    return done


def _deep_keep_error(keep: Any) -> str:
    names = [name for name, value in keep.items() if CUT_MARKER in dumps(value)] if isinstance(keep, dict) else []
    where = f"keep.{names[0]}" if names else "keep"
    return (f"{where} nests deeper than {MAX_DEPTH} levels, more than a kept value may; keep a flatter value "
            "(an array of rows, or ids instead of nested copies)")


def assemble(done: dict[str, Any], logs: list[str], trace: CallTrace | None, envelope: Envelope, duration_ms: float) -> RunResult:
    """The result document from the guest's `done` and the host's trace."""
    result = RunResult(ok=bool(done.get("ok")))
    if result["ok"]:
        if done.get("keepTooDeep"):
            result["ok"] = False
            result["error"] = {"name": "InvalidKeepError", "message": _deep_keep_error(done["keep"])}
        elif "keep" in done:
            try:
                result["keep"] = validate_keep(with_functions(done["keep"]), envelope.max_keep_bytes)
            except InvalidKeepError as exc:
                result["ok"] = False
                result.pop("keep", None)
                result["error"] = {"name": "InvalidKeepError", "message": str(exc)}
        if result["ok"] and "returned" in done:
            result.full_returned = done["returned"]
            returned: Any = done["returned"]
            if "returnedCut" in done:
                returned = (done["returnedCut"] + f"\u2026 [returned value cut: its JSON is {done['returnedChars']:,} characters, "
                            f"the first {MAX_RETURNED_CHARS:,} are shown]")
            result["returned"] = returned
            if "keep" in result:  # key order of SPEC 5: ok, returned, keep, error, …
                result["keep"] = result.pop("keep")
    else:
        result["error"] = done.get("error") or {"name": "Error", "message": "the run failed"}
    if "error" in result:
        error = result["error"]
        error["name"], error["message"] = readable(str(error.get("name"))), readable(str(error.get("message")))
    result["logs"] = logs
    result["calls"] = trace.calls if trace else []
    result["operations"] = trace.operations if trace else []
    if "reads" in done:  # SPEC 7: what the body read; absent when not known (the run was stopped)
        result["reads"] = done["reads"]
    if done.get("readsCut"):
        result["readsCut"] = done["readsCut"]
    result["durationMs"] = round(duration_ms, 3)
    return result


def failure(name: str, message: str, logs: list[str] | None = None, trace: CallTrace | None = None,
            duration_ms: float = 0.0, line: int | None = None, column: int | None = None) -> RunResult:
    """A failed run's result (refused before it shipped, stopped, crashed)."""
    error: dict[str, Any] = {"name": name, "message": message}
    if line is not None:
        error["line"] = line
    if column is not None:
        error["column"] = column
    result = RunResult(ok=False, error=error, logs=logs or [])
    result["calls"] = trace.calls if trace else []
    result["operations"] = trace.operations if trace else []
    result["durationMs"] = round(duration_ms, 3)
    return result
