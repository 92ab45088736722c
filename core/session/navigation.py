"""Stepping along the timeline to the next or previous item of a kind (a failed body, a canvas edit).

Positions are indices into `session.timeline`; the cursor (the state handed to body B) stands at
B's position, the end of the session after the last item. The window's F8 / F7 keys use these,
and so can any headless tool that walks a session.
"""
from __future__ import annotations

from collections.abc import Callable
from wsi_inspector.core.session.model import Body, Entry, Id, TimelineItem, id_key
from wsi_inspector.core.session.load import Session

KINDS: dict[str, Callable[[TimelineItem], bool]] = {
    "failed": lambda item: isinstance(item, Body) and item.failed,
    "edit": lambda item: isinstance(item, Entry) and item.applied,
}


def cursor_position(session: Session, cursor: Id | None) -> int:
    """The timeline index of the cursor's body; the end of the session is `len(timeline)`."""
    if cursor is None:
        return len(session.timeline)
    key = id_key(cursor)
    return next((i for i, item in enumerate(session.timeline) if isinstance(item, Body) and item.key == key),
                len(session.timeline))


def step(session: Session, position: int, wanted: Callable[[TimelineItem], bool],
         forward: bool = True) -> tuple[int, TimelineItem] | None:
    """The nearest item `wanted` accepts strictly after (or before) `position`, with its index; None past the end.

    `wanted` is one of KINDS or any test of a timeline item (the window adds replay verdicts).
    """
    timeline = session.timeline
    indices = range(position + 1, len(timeline)) if forward else range(min(position, len(timeline)) - 1, -1, -1)
    return next(((i, timeline[i]) for i in indices if wanted(timeline[i])), None)
