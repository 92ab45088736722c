"""Replay: re-run every recorded body at its own point of the timeline and compare it with the record.

A body is the same when its module calls (name and input, in order) are the recorded entries whose
`body` names it, it succeeds or fails as recorded, and its returned value equals the recorded
`result.returned`. Values compare as JavaScript sees them (`wsi_inspector.core.jsrules.js_value`): 1 and 1.0, -0 and 0,
12345678901234567890 and 12345678901234567000 are one number, and a listed change is one JavaScript
can tell. Otherwise `firstDifference` says where:
`{"kind": "call"|"input"|"missing-call"|"extra-call"|"ok"|"returned", "message", …}` with the
entry, the call index and, for values, the changes (SPEC 4's diff).

A diverging body's verdict lists `recordedCalls`: the ids of the recorded entries whose `output` answered the
replay's module calls in that body, in the order first used. A divergence downstream of a module
call (a returned value built from its output) is fed by one of them; the report names them so a
person can go to the record. A divergence also carries `fedBy` when it can be told: the recorded
calls (of those) whose output holds the replay's new value at a changed path (`to` of a change,
compared as JavaScript sees numbers), when that is some of them and not all.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Callable, NotRequired, TypedDict

from wsi_inspector.core.edits.diff import Change, diff
from wsi_inspector.core.jsrules.json_values import json_equal
from wsi_inspector.core.jsrules.js_value import as_js
from wsi_inspector.core.session.model import Body, Id
from wsi_inspector.core.runner.envelope import EnvelopeError, RunOptions, build_envelope
from wsi_inspector.core.runner.host import Runner
from wsi_inspector.core.runner.mock_modules import describe_change
from wsi_inspector.core.runner.result import RunResult, failure


class Difference(TypedDict):
    """Where a replay first differs from the record (`firstDifference` of a verdict): its kind and words, and
    what each kind names (the call's index and entry, the recorded and the replayed call or ok, the changes)."""

    kind: str  # "call" | "input" | "missing-call" | "extra-call" | "ok" | "returned"
    index: NotRequired[int]
    entry: NotRequired[Id]
    recorded: NotRequired[str | bool]
    ran: NotRequired[str | bool]
    call: NotRequired[str]
    changes: NotRequired[list[Change]]
    message: str
    fedBy: NotRequired[list[Id]]


class Verdict(TypedDict):
    """One body of `wsi replay --json`'s `bodies` (SPEC 6): the same as recorded, or where it first differs."""

    body: Id
    same: bool
    firstDifference: NotRequired[Difference]
    recordedCalls: NotRequired[list[Id]]


def _changes_text(changes: list[dict[str, Any]]) -> str:
    shown = "; ".join(describe_change(c) for c in changes[:3])
    return shown + (f" and {len(changes) - 3} more" if len(changes) > 3 else "")


def first_difference(session: Any, body: Body, result: RunResult) -> Difference | None:
    """Where the replay first differs from the record, or None when it is the same."""
    recorded = session.calls_of(body)
    ran = result["calls"]
    for index, (entry, call) in enumerate(zip(recorded, ran)):
        if entry.call != call["call"]:
            return {"kind": "call", "index": index, "entry": entry.id, "recorded": entry.call, "ran": call["call"],
                    "message": f"call {index + 1}: recorded {entry.call} ({entry.id}), the replay called {call['call']}"}
        recorded_input, ran_input = as_js(entry.input), as_js(call["input"])
        if not json_equal(recorded_input, ran_input):
            changes = diff(recorded_input, ran_input)
            return {"kind": "input", "index": index, "entry": entry.id, "call": entry.call, "changes": changes,
                    "message": f"call {index + 1} ({entry.id} {entry.call}): the input differs at {_changes_text(changes)}"}
    if len(recorded) > len(ran):
        entry = recorded[len(ran)]
        return {"kind": "missing-call", "index": len(ran), "entry": entry.id, "call": entry.call,
                "message": f"call {len(ran) + 1}: recorded {entry.call} ({entry.id}), the replay made no more calls"
                + _failure_note(result)}
    if len(ran) > len(recorded):
        call = ran[len(recorded)]
        return {"kind": "extra-call", "index": len(recorded), "call": call["call"],
                "message": f"call {len(recorded) + 1}: the replay called {call['call']}, which the record does not have"}
    record = body.result if isinstance(body.result, dict) else None
    if record is None:
        return None
    if bool(record.get("ok")) != result["ok"]:
        return {"kind": "ok", "recorded": bool(record.get("ok")), "ran": result["ok"],
                "message": ("the record succeeded, the replay failed" + _failure_note(result)) if record.get("ok")
                else "the record failed, the replay succeeded"}
    if "returned" in record or result.has_returned:
        if "returned" not in record or not result.has_returned:
            which = "the replay returned nothing" if "returned" in record else "the record has no returned value"
            return {"kind": "returned", "message": f"the returned value differs: {which}"}
        recorded_value, returned = as_js(record["returned"]), as_js(result.full_returned)
        if not json_equal(recorded_value, returned):
            changes = diff(recorded_value, returned)
            return {"kind": "returned", "changes": changes,
                    "message": f"the returned value differs at {_changes_text(changes)}"}
    return None


def _failure_note(result: RunResult) -> str:
    error = result.get("error")
    if not error:
        return ""
    place = f" at line {error['line']}" if "line" in error else ""
    return f" ({error['name']}{place}: {error['message']})"


def replay_body(session: Any, body: Body, runner: Runner, options: RunOptions | dict[str, Any] | None = None) -> tuple[Verdict, RunResult]:
    """The verdict for one body and the result of its re-run."""
    try:
        envelope = build_envelope(session, body.code, body.lang, at=body.id, options=options, body_id=body.id)
    except EnvelopeError as exc:
        result = failure("EnvelopeError", str(exc))
    else:
        result = runner.run(envelope)
    difference = first_difference(session, body, result)
    verdict: Verdict = {"body": body.id, "same": difference is None}
    if difference is not None:
        verdict["firstDifference"] = difference
    if difference is not None:
        # Only a diverging body carries it: a body that is the same keeps SPEC 6's exact shape.
        verdict["recordedCalls"] = answered_from_record(result)
        fed_by = outputs_holding(session, verdict["recordedCalls"], difference.get("changes", []))
        if fed_by and len(fed_by) < len(verdict["recordedCalls"]):
            difference["fedBy"] = fed_by
            names = ", ".join(map(str, fed_by))
            difference["message"] += f" (the replayed value is in the recorded output of {names})"
    return verdict, result


MAX_OUTPUT_NODES = 200_000  # values looked at in one recorded output when tracing a divergence to it


def outputs_holding(session: Any, ids: list[Any], changes: list[dict[str, Any]]) -> list[Any]:
    """Of the recorded calls `ids`, those whose output holds a changed path's new scalar value."""
    wanted = {_scalar_key(c["to"]) for c in changes if "to" in c and not isinstance(c["to"], (dict, list))}
    if not wanted:
        return []
    found = []
    for entry_id in ids:
        entry = session.entry(entry_id)
        if entry is not None and entry.has_output and wanted & _scalar_keys(entry.output):
            found.append(entry_id)
    return found


def _scalar_key(value: Any) -> tuple[str, Any]:
    value = as_js(value)
    return (type(value).__name__ if isinstance(value, (bool, str)) or value is None else "number", value)


def _scalar_keys(value: Any) -> set[tuple[str, Any]]:
    """Every scalar inside a value (at most MAX_OUTPUT_NODES looked at), as `_scalar_key`s."""
    keys: set[tuple[str, Any]] = set()
    stack, seen = [value], 0
    while stack and seen < MAX_OUTPUT_NODES:
        item = stack.pop()
        seen += 1
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        else:
            keys.add(_scalar_key(item))
    return keys


def answered_from_record(result: RunResult | dict[str, Any]) -> list[Any]:
    """The ids of the recorded entries whose output answered the run's module calls, first use first."""
    ids: dict[str, Any] = {}
    for call in result.get("calls", []):
        source = call.get("source") or {}
        if source.get("kind") == "recorded":
            ids.setdefault(str(source.get("entry")), source.get("entry"))
    return list(ids.values())


def replay_session(
    session: Any,
    runner: Runner,
    options: RunOptions | dict[str, Any] | None = None,
    on_body: Callable[[Verdict, RunResult], None] | None = None,
    should_stop: Callable[[], bool] | None = None,
) -> list[Verdict]:
    """Every recorded body replayed in timeline order; `on_body` hears each verdict as it comes."""
    verdicts = []
    for body in session.bodies:
        if should_stop is not None and should_stop():
            break
        verdict, result = replay_body(session, body, runner, options)
        verdicts.append(verdict)
        if on_body is not None:
            on_body(verdict, result)
    return verdicts


def replay_badge(verdict: Mapping[str, object], result: Mapping[str, object]) -> str:
    """A replayed body's badge: "same" as the record, "same-failed" (the same, and that is a failure as recorded),
    "failed" (the replay did not end ok, unlike the record), else "diverged"."""
    if verdict.get("same"):
        return "same" if result.get("ok") else "same-failed"
    return "diverged" if result.get("ok") else "failed"
