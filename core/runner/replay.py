"""Replay: re-run every recorded body at its own point of the timeline and compare it with the record.

A body is the same when its module calls (name and input, in order) are the recorded entries whose
`body` names it, it succeeds or fails as recorded, and its returned value equals the recorded
`result.returned` (as JavaScript sees parsed JSON). Otherwise `firstDifference` says where:
`{"kind": "call"|"input"|"missing-call"|"extra-call"|"ok"|"returned", "message", …}` with the
entry, the call index and, for values, the changes (SPEC 4's diff).
"""
from __future__ import annotations

from typing import Any, Callable

from core.diff import diff, json_equal
from core.model import Body, Entry
from core.runner.envelope import EnvelopeError, RunOptions, build_envelope
from core.runner.host import Runner
from core.runner.mock_modules import describe_change
from core.runner.result import RunResult, failure


def recorded_calls(session: Any, body: Body) -> list[Entry]:
    """The entries the body made, in timeline order."""
    return [e for e in session.entries if e.body is not None and str(e.body) == body.key]


def _changes_text(changes: list[dict[str, Any]]) -> str:
    shown = "; ".join(describe_change(c) for c in changes[:3])
    return shown + (f" and {len(changes) - 3} more" if len(changes) > 3 else "")


def first_difference(session: Any, body: Body, result: RunResult) -> dict[str, Any] | None:
    """Where the replay first differs from the record, or None when it is the same."""
    recorded = recorded_calls(session, body)
    ran = result["calls"]
    for index, (entry, call) in enumerate(zip(recorded, ran)):
        if entry.call != call["call"]:
            return {"kind": "call", "index": index, "entry": entry.id, "recorded": entry.call, "ran": call["call"],
                    "message": f"call {index + 1}: recorded {entry.call} ({entry.id}), the replay called {call['call']}"}
        if not json_equal(entry.input, call["input"]):
            changes = diff(entry.input, call["input"])
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
        if not json_equal(record["returned"], result.full_returned):
            changes = diff(record["returned"], result.full_returned)
            return {"kind": "returned", "changes": changes,
                    "message": f"the returned value differs at {_changes_text(changes)}"}
    return None


def _failure_note(result: RunResult) -> str:
    error = result.get("error")
    if not error:
        return ""
    place = f" at line {error['line']}" if "line" in error else ""
    return f" ({error['name']}{place}: {error['message']})"


def replay_body(session: Any, body: Body, runner: Runner, options: RunOptions | dict[str, Any] | None = None) -> tuple[dict[str, Any], RunResult]:
    """The verdict for one body and the result of its re-run."""
    try:
        envelope = build_envelope(session, body.code, body.lang, at=body.id, options=options, body_id=body.id)
    except EnvelopeError as exc:
        result = failure("EnvelopeError", str(exc))
    else:
        result = runner.run(envelope)
    difference = first_difference(session, body, result)
    verdict: dict[str, Any] = {"body": body.id, "same": difference is None}
    if difference is not None:
        verdict["firstDifference"] = difference
    return verdict, result


def replay_session(
    session: Any,
    runner: Runner,
    options: RunOptions | dict[str, Any] | None = None,
    on_body: Callable[[dict[str, Any], RunResult], None] | None = None,
    should_stop: Callable[[], bool] | None = None,
) -> list[dict[str, Any]]:
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
