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
from typing import Any, NotRequired, TypedDict, cast

import orjson

from wsi_inspector.core.session.reading import MAX_DEPTH as READING_MAX_DEPTH
from wsi_inspector.core.jsrules.run_inputs import InvalidKeepError, validate_keep
from wsi_inspector.core.runner.envelope import Envelope, dumps
from wsi_inspector.core.runner.mock_modules import place_functions
from wsi_inspector.core.session.model import Entry

MAX_RETURNED_CHARS = 24_000
# How deep a returned value, a keep or a module call's input may nest: what a session may (one
# limit for what loads and what comes back). The guest cuts deeper containers to CUT_MARKER
# (prelude.js writes the same words) and refuses a deeper input or keep.
MAX_DEPTH = READING_MAX_DEPTH
CUT_MARKER = f"\u2026 [cut: nested deeper than {MAX_DEPTH} levels]"
# What the host keeps of a message: one line, at most this long, cut with a marker.
MAX_MESSAGE_CHARS = 2000
_LINE_BREAKS = re.compile(r"\r\n|[\n\r\u2028\u2029\x85]")
_MISSING = object()


class RunDocument(TypedDict):
    """`wsi run --json` (SPEC 5): ok, the returned value, the keep verdict or the error, logs, the traced calls and
    their timing, what the body read (SPEC 7), and how long it ran."""

    ok: bool
    returned: NotRequired[Any]
    keep: NotRequired[list[dict[str, Any]]]
    error: NotRequired[dict[str, Any]]
    logs: list[str]
    calls: list[dict[str, Any]]
    operations: list[dict[str, Any]]
    reads: NotRequired[list[dict[str, Any]]]
    readsCut: NotRequired[Any]
    durationMs: float


class RunResult(dict):
    """The SPEC 5 result document; `full_returned` is the returned value before the 24,000-character cap."""

    full_returned: Any = _MISSING

    @property
    def has_returned(self) -> bool:
        return self.full_returned is not _MISSING

    def document(self) -> RunDocument:
        """The document alone, as `wsi run --json` prints it (a dict subclass cannot be a TypedDict itself)."""
        return cast(RunDocument, dict(self))


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


def one_line(text: str, limit: int = MAX_MESSAGE_CHARS) -> str:
    """A message as one line of at most `limit` characters: line breaks shown as ⏎, a longer one cut with a marker."""
    text = _LINE_BREAKS.sub(" \u23ce ", text)
    if len(text) > limit:
        marker = f"\u2026 [cut: {len(text):,} characters in all]"
        text = text[: limit - len(marker)] + marker
    return text


def clamp_place(error: dict[str, object], code: str | None) -> None:
    """Keep an error's line and column only when they are whole numbers of a place the body has (clamped to it)."""
    line, column = error.pop("line", None), error.pop("column", None)
    if type(line) is not int or line < 1:
        return
    lines = code.split("\n") if code is not None else None
    if lines is not None:
        line = min(line, len(lines))
    error["line"] = line
    if type(column) is int and column >= 1:
        error["column"] = min(column, len(lines[line - 1]) + 1) if lines is not None else column


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

    def answer(self, calls_json: str, deadline: float | None = None) -> str:
        """The guest's `calls` batch answered: the JSON text of `[[id, ok, value|error], …]`.

        The guest has already read each input once (capped, nested at most MAX_DEPTH, handles
        checked) and lists where its functions were; `deadline` (monotonic) bounds the host's
        own work on the batch (the nearest-recorded-call diffs), HostTimeout past it.
        """
        answers = []
        mock = self.envelope.mock
        batch = loads(calls_json)
        # Every time on the host's one monotonic clock: a call starts when its batch arrives (the calls
        # of one batch were made in one tick) and ends when it is answered. The guest's own stamp is
        # Date.now() of another clock, in whole milliseconds, and made sequential awaits overlap.
        start_ms = (time.monotonic() - self.started) * 1000
        for call_id, name, raw_input, line, _guest_ms, functions in batch["calls"]:
            if deadline is not None and time.monotonic() > deadline:
                raise HostTimeout
            trace_input = raw_input
            if functions:
                raw_input = place_functions(loads(dumps(raw_input)), functions)
            source: dict[str, Any] | None
            error: dict[str, str] | None  # {"name", "message"} when the call failed (not ok), else None
            if mock is None:
                ran_on, ok, value, source, unit, error = raw_input, False, None, {"kind": "none"}, None, {
                    "name": "MockError", "message": f"modules.{name}: this run has no session to answer module calls"}
            else:
                ran_on, answer = mock.answer(name, raw_input, self.envelope.body_key, from_js=True, deadline=deadline)
                ok, value, source, unit, error = answer.ok, answer.value, answer.source, answer.unit, answer.error
            entry: dict[str, Any] = {"id": self._fresh_id(), "call": name, "input": ran_on}
            if name.startswith("run.inputs."):
                entry["input"] = trace_input  # as the guest wrote it (a function as null): the trace stays JSON
            if unit is not None:
                entry["unit"] = unit
            if self.envelope.body_key is not None:
                entry["body"] = self.envelope.body_key
            if ok:
                entry["output"] = value
            else:
                assert error is not None  # a failed call carries its error
                entry["error"] = error["message"]
            entry["source"] = source
            if line:
                entry["line"] = line
            self.calls.append(entry)
            now_ms = (time.monotonic() - self.started) * 1000
            operation: dict[str, Any] = {"call": name, "startMs": round(start_ms, 3),
                                         "durationMs": round(max(0.0, now_ms - start_ms), 3), "ok": ok}
            if not ok:
                assert error is not None
                operation["message"] = error["message"]
            self.operations.append(operation)
            answers.append([call_id, ok, value if ok else error])
        return dumps(answers)


class HostTimeout(Exception):
    """The host's own work for a run (answering its calls) went past the run's deadline."""


def read_done(frame: dict[str, Any]) -> dict[str, Any]:
    """The guest's `done` frame as one outcome: its returned value and keep (with its functions placed).

    The guest wrote each once, capped and cut at MAX_DEPTH (see prelude.js): nothing here walks them.
    """
    head = loads(frame["json"])
    done: dict[str, Any] = head["done"]
    if "reads" in head:  # reads.js: what the body read (none from a run stopped before it reported)
        done["reads"], done["readsCut"] = head["reads"], head.get("readsCut", 0)
    if frame.get("returned") is not None:
        done["returned"] = loads(frame["returned"])
    if frame.get("keep") is not None:
        done["keep"] = place_functions(loads(frame["keep"]), loads(frame.get("keepFns") or "[]"))
    return done


def _deep_keep_error(keep: Any) -> str:
    names = [name for name, value in keep.items() if CUT_MARKER in dumps_safe(value)] if isinstance(keep, dict) else []
    where = f"keep.{names[0]}" if names else "keep"
    return (f"{where} nests deeper than {MAX_DEPTH} levels, more than a kept value may; keep a flatter value "
            "(an array of rows, or ids instead of nested copies)")


def dumps_safe(value: object) -> str:
    """JSON text of a value that may hold JsFunction placeholders (written as null)."""
    return json.dumps(value, default=lambda _: None, ensure_ascii=False)


def _named_entries(reads: list[dict[str, Any]], store: list[Entry]) -> list[dict[str, Any]]:
    """`reads` with each entry named by its id: the realm names it by its place in the store it was handed, as an id
    past 2^53 would be another number there (envelope.store_lookup)."""
    for read in reads:
        place = read.get("entry")
        if place is not None:
            read["entry"] = store[place].id if type(place) is int and 0 <= place < len(store) else None
    return reads


def assemble(done: dict[str, Any], logs: list[str], trace: CallTrace | None, envelope: Envelope, duration_ms: float) -> RunResult:
    """The result document from the guest's `done` and the host's trace."""
    result = RunResult(ok=bool(done.get("ok")))
    if result["ok"]:
        if done.get("keepTooDeep"):
            result["ok"] = False
            result["error"] = {"name": "InvalidKeepError", "message": _deep_keep_error(done["keep"])}
        elif "keep" in done:
            try:
                result["keep"] = validate_keep(done["keep"], envelope.max_keep_bytes)
            except InvalidKeepError as exc:
                result["ok"] = False
                result.pop("keep", None)
                result["error"] = {"name": "InvalidKeepError", "message": str(exc)}
        if result["ok"] and ("returned" in done or "returnedOver" in done):
            result.full_returned = done.get("returned")
            returned: Any = done.get("returned")
            if "returnedOver" in done:  # over what may cross: only its cut came
                returned = (str(done["returnedCut"]) + f"\u2026 [returned value cut: its JSON is over {done['returnedOver']}, "
                            f"the first {MAX_RETURNED_CHARS:,} characters are shown]")
                result.full_returned = returned
            elif "returnedCut" in done:
                returned = (done["returnedCut"] + f"\u2026 [returned value cut: its JSON is {done['returnedChars']:,} characters, "
                            f"the first {MAX_RETURNED_CHARS:,} are shown]")
            result["returned"] = returned
            if "keep" in result:  # key order of SPEC 5: ok, returned, keep, error, …
                result["keep"] = result.pop("keep")
    else:
        result["error"] = done.get("error") or {"name": "Error", "message": "the run failed"}
    if "error" in result:
        error = result["error"] = dict(result["error"]) if isinstance(result["error"], dict) else {}
        error["name"] = one_line(readable(str(error.get("name") or "Error")), 200)
        error["message"] = one_line(readable(str(error.get("message"))))
        clamp_place(error, envelope.code)
    result["logs"] = logs
    result["calls"] = trace.calls if trace else []
    result["operations"] = trace.operations if trace else []
    if "reads" in done:  # SPEC 7: what the body read; absent when not known (the run was stopped)
        result["reads"] = _named_entries(done["reads"], envelope.texts.store)
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
