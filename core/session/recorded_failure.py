"""How a body failed as the session recorded it, in view before anyone runs it (the Run tab, the Inputs header).

A recording gives the error as `Name: message` and seldom its line. When it has none, the line is
the one that made the body's last recorded call without an output (the call that threw): the first
line whose code names that call (`modules.site.boundary.offset(`, or its module for a call named
after its module's last part). That line is said to be found this way, never passed off as the record's.
"""
from __future__ import annotations

import re

from wsi_inspector.core.session.model import Body, Id
from wsi_inspector.core.runner.report import RecordedError, recorded_error
from wsi_inspector.core.session.load import Session

MOST_LINES = 20_000  # lines of a body looked through for the failing call


class RecordedFailure(RecordedError, total=False):
    """A failed body's recorded error, where its line came from, the call that got no answer, and its logs."""

    lineFrom: str  # "record" | "call"
    entry: Id
    call: str
    logs: list[str]


def recorded_failure(session: Session, body: Body) -> RecordedFailure | None:
    """`{name, message, line?, column?, lineFrom: "record"|"call", entry?, call?, logs}` for a failed body, else None."""
    error = recorded_error(body.result)
    if error is None:
        return None
    found = RecordedFailure(**error)
    found["logs"] = [str(line) for line in (body.result or {}).get("logs") or []]
    if "line" in error:
        found["lineFrom"] = "record"
        return found
    unanswered = [e for e in session.calls_of(body) if not e.has_output]
    if unanswered:
        call = unanswered[-1]
        found["entry"], found["call"] = call.id, call.call
        place = call_line(body.code, call.call)
        if place is not None:
            found["line"], found["column"] = place
            found["lineFrom"] = "call"
    return found


def call_line(code: str, call: str) -> tuple[int, int] | None:
    """The first (line, column) where `code` calls `call` through `modules.`, or None."""
    names = [call]
    head, _, last = call.rpartition(".")
    if head and head.rsplit(".", 1)[-1] == last:  # pack.rooms.rooms is called as modules.pack.rooms(…)
        names.append(head)
    patterns = [re.compile(r"modules\s*\.\s*" + r"\s*\.\s*".join(map(re.escape, name.split("."))) + r"\s*\(") for name in names]
    for number, line in enumerate(code.splitlines()[:MOST_LINES], start=1):
        for pattern in patterns:
            match = pattern.search(line)
            if match:
                return number, match.start() + 1
    return None
