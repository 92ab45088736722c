"""Facts over a whole session that the views show, made once in the load job and found ready on the GUI thread.

Each fact walks every entry or every body: the longest entry id (the Inputs tab's id column), the
canvas edits counted (the timeline's summary), where each body stands (the body choosers, the
timeline's rows), the code a repro file says ran (the Run tab's edits). On a
million-entry session each walk is a tenth of a second or more, and on the GUI thread it froze the
window as the session opened. The loader's job calls `prepare(session)`; a view calls the fact
itself, which answers from what the job left (or walks the session once, for a session opened
without the loader: tests, a window's own reduced session).

A followed file grows its session in place (`wsi_inspector.core.session.growing`): `body_positions`
takes the appended bodies when asked again; a view that shows a count keeps it up to date itself
from what `session_grew` hands it.
"""
from __future__ import annotations

from operator import attrgetter
from typing import Any
from weakref import WeakKeyDictionary

from wsi_inspector.core.search.filtering import ManifestIndex
from wsi_inspector.core.session.load import Session
from wsi_inspector.core.session.timeline import timeline_rows
from wsi_inspector.core.trim.preview import StoreIndex

_known: WeakKeyDictionary[Session, dict[str, Any]] = WeakKeyDictionary()  # dropped with the session


def _facts(session: Session) -> dict[str, Any]:
    facts = _known.get(session)
    if facts is None:
        facts = _known[session] = {}
    return facts


def longest_entry_id(session: Session) -> str:
    """The longest entry id as text (ids are drawn monospace: the most characters is the widest)."""
    facts = _facts(session)
    if "longest_id" not in facts:
        # max runs in C; a million ids through a Python key function took seconds
        facts["longest_id"] = max(map(str, map(attrgetter("id"), session.entries)), key=len, default="")
    return facts["longest_id"]


def canvas_edit_count(session: Session) -> int:
    """How many of the session's entries are a person's canvas edits (`applied`), as it was loaded."""
    facts = _facts(session)
    if "edits" not in facts:
        facts["edits"] = sum(map(attrgetter("applied"), session.entries))
    return facts["edits"]


def body_positions(session: Session) -> dict[str, int]:
    """Each body's key → its position in `session.bodies` (a body chooser's row, found without a search).

    Bodies appended since (a followed file) are taken in when asked again.
    """
    facts = _facts(session)
    positions, seen = facts.get("positions", ({}, 0))
    if seen < len(session.bodies):
        positions.update((body.key, number) for number, body in enumerate(session.bodies[seen:], seen))
        facts["positions"] = positions, len(session.bodies)
    return positions


def timeline_body_rows(session: Session) -> dict[str, int]:
    """Each body's key → its top row in the timeline (`wsi_inspector.core.session.timeline.timeline_rows`).

    The timeline's model keeps it up to date as a followed file appends rows (TimelineModel.extend).
    """
    facts = _facts(session)
    if "body_rows" not in facts:
        facts["body_rows"] = {row.item.key: n for n, row in enumerate(timeline_rows(session)) if row.kind == "body"}  # type: ignore[union-attr]
    return facts["body_rows"]


def edited_code(session: Session) -> dict[str | None, tuple[str, str]]:
    """The code a repro or reduced file says ran, per body (`editedCode` beside the record): the Run
    tab's edits as the session opens (wsi_inspector.gui.tabs.run.choice)."""
    facts = _facts(session)
    if "edited_code" not in facts:
        carried: dict[str | None, tuple[str, str]] = {}
        for body in session.bodies:
            code = body.extra.get("editedCode")
            if isinstance(code, str):
                lang = body.extra.get("editedLang", body.lang)
                carried[body.key] = (code, lang if lang in ("js", "ts") else body.lang)
        facts["edited_code"] = carried
    return facts["edited_code"]


# One trimStore index per session's ManifestIndex, shared by the views that ask what falls at the
# cap (built once from the sizes the manifest index already measured; dropped with the session).
_store_indexes: WeakKeyDictionary[ManifestIndex, StoreIndex] = WeakKeyDictionary()


def store_index_of(index: ManifestIndex) -> StoreIndex:
    """The trimStore index of a session's manifest index (the running sums the Inputs, Trim and status
    bar read): the load job builds it (0.3 s on a million entries), then it is shared."""
    store_index = _store_indexes.get(index)
    if store_index is None:
        store_index = _store_indexes[index] = StoreIndex(index.entries, index.sizes)
    return store_index


def prepare(session: Session) -> None:
    """Make every fact now (the load job calls it, off the GUI thread)."""
    longest_entry_id(session)
    canvas_edit_count(session)
    body_positions(session)
    timeline_body_rows(session)
    edited_code(session)
