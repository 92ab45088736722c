"""What changed between two points of the timeline (Redux DevTools' Diff tab, `wsi changes`).

A point is the state a body was handed (`--at B`), or the end of the session. From point A to
point B the store gains the entries that came in between (or, when B comes before A, loses them:
every store is a prefix of the session's entries), the kept set gains, loses or changes names (each
changed value diffed with the edit diff engine), and the store's size moves. The bodies listed are
the ones whose work lies between: from A's own body up to, not including, B's.
"""
from __future__ import annotations

from typing import Any, NotRequired, TypedDict, cast

from wsi_inspector.core.edits.diff import Change, diff
from wsi_inspector.core.jsrules.json_values import json_equal
from wsi_inspector.core.session.model import Body, Id, id_key
from wsi_inspector.core.jsrules.jsonsize import json_bytes
from wsi_inspector.core.jsrules.run_inputs import ManifestEntry, manifest_entry, sorted_names, store_bytes, value_shape
from wsi_inspector.core.session.load import Session

END = "end"  # the point after the last record, for `--to end`


class UnknownPoint(KeyError):
    """A point that names no body of the session."""


def point_key(session: Session, name: Id | None) -> str | None:
    """The state key of a point name: a body id (compared as a string), or None for the end.

    A body that is really called "end" is that body, not the end of the session.
    """
    if name is None:
        return None
    key = id_key(name)
    if session.body(key) is not None:
        return key
    if key == END:
        return None
    raise UnknownPoint(key)


class ValueSize(TypedDict):
    """A kept value as the changes describe it: its keys, array length or kind, and its size."""

    keys: NotRequired[list[str]]
    array: NotRequired[int]
    type: NotRequired[str]
    bytes: int


class KeptNamed(ValueSize):
    """A kept name added or removed, and its value."""

    name: str


# A kept name whose value changed: the value at each point and the changes between (`from` is a keyword, hence this form).
KeptChanged = TypedDict("KeptChanged", {"name": str, "from": ValueSize, "to": ValueSize, "changes": list[Change]})


class KeptChanges(TypedDict):
    """The kept names added, removed and changed between two points."""

    added: list[KeptNamed]
    removed: list[KeptNamed]
    changed: list[KeptChanged]


StoreBytes = TypedDict("StoreBytes", {"from": int, "to": int, "delta": int})  # the store's size at each point
# `wsi changes --json`: what the bodies between two points (bodies `from` and `to`, None the end) changed.
ChangesDocument = TypedDict("ChangesDocument", {
    "from": Id | None, "to": Id | None, "bodies": list[Id], "added": list[ManifestEntry], "removed": list[ManifestEntry],
    "kept": KeptChanges, "bytes": StoreBytes})


def changes_between(session: Session, start: Id | None, stop: Id | None) -> ChangesDocument:
    """`{"from", "to", "bodies", "added", "removed", "kept", "bytes"}` between two points."""
    from_key, to_key = point_key(session, start), point_key(session, stop)
    before, after = session.state_at(from_key), session.state_at(to_key)
    low, high = sorted((len(before.store), len(after.store)))
    moved = session.entries[low:high]
    forward = len(after.store) >= len(before.store)
    size_before, size_after = store_bytes(before.store), store_bytes(after.store)
    return {
        "from": None if from_key is None else before.at_body,
        "to": None if to_key is None else after.at_body,
        "bodies": _bodies_between(session, from_key, to_key),
        "added": [manifest_entry(e) for e in moved] if forward else [],
        "removed": [] if forward else [manifest_entry(e) for e in moved],
        "kept": kept_changes(before.kept, after.kept),
        "bytes": {"from": size_before, "to": size_after, "delta": size_after - size_before},
    }


def kept_changes(before: dict[str, Any], after: dict[str, Any]) -> KeptChanges:
    """Names added, removed and changed between two kept sets, in the kept manifest's order.

    Each value is described by its shape (keys, array length, or kind) and bytes; a changed value
    carries the changes that turn the old into the new.
    """
    added: list[KeptNamed] = [{"name": n, **_described(after[n])} for n in sorted_names(after) if n not in before]
    removed: list[KeptNamed] = [{"name": n, **_described(before[n])} for n in sorted_names(before) if n not in after]
    changed: list[KeptChanged] = [
        {"name": n, "from": _described(before[n]), "to": _described(after[n]), "changes": diff(before[n], after[n])}
        for n in sorted_names(before)
        if n in after and not json_equal(before[n], after[n])
    ]
    return {"added": added, "removed": removed, "changed": changed}


def _described(value: Any) -> ValueSize:
    return cast(ValueSize, {**value_shape(value), "bytes": json_bytes(value)})


def _bodies_between(session: Session, from_key: str | None, to_key: str | None) -> list[Id]:
    """The ids of the bodies from one point's body up to (not including) the other's, in time order."""
    bodies = session.bodies
    position = {b.key: i for i, b in enumerate(bodies)}

    def index(key: str | None) -> int:
        return len(bodies) if key is None else position[key]

    low, high = sorted((index(from_key), index(to_key)))
    chosen: list[Body] = bodies[low:high]
    return [b.id for b in chosen]
