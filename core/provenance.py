"""Provenance ("blame"): which earlier entry of the same call set each leaf of an entry's input.

The rule (seed 002): a value the person set is the person's only in the person's own edit. When
a later body's call carries that value forward unchanged, the leaf is shown as carried by that
body from the person's edit, never as the person's call; the call is the body's.

Each entry is traced through the entries it was made from (`core.edits.predecessors`: editOf,
else the newest earlier entry of the same call). A leaf is a scalar, an empty array or object,
or a point (points are one value, as in `core.diff`); arrays are aligned as the diff aligns
them, so a point inserted upstream does not make every later point look new.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterator

from core.diff import Token, all_points, array_opcodes, is_point, json_equal, pointer
from core.edits import predecessors
from core.model import Entry, Id
from core.session import Session

Path = tuple[Token, ...]


@dataclass(slots=True)
class LeafOrigin:
    """One leaf of an entry's input, the entry that set its value, and the entry that carried it (if not the setter)."""

    path: str
    value: Any
    setter: Entry
    carrier: Entry  # the entry whose input was blamed

    @property
    def by_person(self) -> bool:
        return self.setter.applied

    @property
    def carried(self) -> bool:
        return self.setter is not self.carrier

    def text(self) -> str:
        """In words: `set by the person's edit e1`, `carried by body b5 (call c20) from the person's edit e1`."""
        source = _who(self.setter)
        if not self.carried:
            return f"set by {source}"
        return f"carried by {_who(self.carrier)} from {source}"

    def short(self) -> str:
        """Who set the value, in a few characters for a column: `✎ e1 (person)`, `c4 (body b2)`."""
        if self.by_person:
            return f"✎ {self.setter.id} (person)"
        body = f" (body {self.setter.body})" if self.setter.body is not None else ""
        return f"{self.setter.id}{body}"

    def as_json(self) -> dict[str, Any]:
        """`{"path", "value", "setBy": "person"|"body", "entry", "body"?, "carriedBy"?, "text"}`."""
        document: dict[str, Any] = {
            "path": self.path,
            "value": self.value,
            "setBy": "person" if self.by_person else "body",
            "entry": self.setter.id,
        }
        if not self.by_person:
            document["body"] = self.setter.body
        if self.carried:
            carrier = {"entry": self.carrier.id, "by": "person" if self.carrier.applied else "body"}
            if not self.carrier.applied:
                carrier["body"] = self.carrier.body
            document["carriedBy"] = carrier
        document["text"] = self.text()
        return document


def _who(entry: Entry) -> str:
    if entry.applied:
        return f"the person's edit {entry.id}"
    if entry.body is None:
        return f"call {entry.id}"
    return f"body {entry.body} (call {entry.id})"


def is_leaf(value: Any) -> bool:
    """A scalar, an empty container, or a point."""
    return not isinstance(value, (list, dict)) or not value or is_point(value)


def leaves(value: Any, path: Path = ()) -> Iterator[tuple[Path, Any]]:
    """Every leaf of `value` with its path, depth first in key order."""
    if is_leaf(value):
        yield path, value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from leaves(item, path + (key,))
    elif all_points(value):  # a polyline: its points are its leaves, no need to look inside each
        for index, item in enumerate(value):
            yield path + (index,), item
    else:
        for index, item in enumerate(value):
            yield from leaves(item, path + (index,))


def leaf_sources(before: Any, after: Any) -> dict[Path, Path | None]:
    """For each leaf of `after`: the path of the equal leaf in `before` it came from, or None (set here)."""
    sources: dict[Path, Path | None] = {}
    _map(before, after, (), (), sources)
    return sources


def _map(before: Any, after: Any, at_before: Path, at_after: Path, sources: dict[Path, Path | None]) -> None:
    if is_leaf(after):
        sources[at_after] = at_before if json_equal(before, after) else None
    elif isinstance(after, dict) and isinstance(before, dict) and not is_point(before):
        for key, item in after.items():
            if key in before:
                _map(before[key], item, at_before + (key,), at_after + (key,), sources)
            else:
                _unsourced(item, at_after + (key,), sources)
    elif isinstance(after, list) and isinstance(before, list) and not is_point(before):
        points = all_points(after)
        for tag, i1, i2, j1, j2 in array_opcodes(before, after):
            if tag == "equal" and points:  # equal points: each is a leaf from the same place in `before`
                sources.update((at_after + (j1 + k,), at_before + (i1 + k,)) for k in range(i2 - i1))
                continue
            if tag == "equal":  # equal elements: every leaf inside comes from the same place in `before`
                for k in range(i2 - i1):
                    _carried(after[j1 + k], at_before + (i1 + k,), at_after + (j1 + k,), sources)
                continue
            paired = min(i2 - i1, j2 - j1)
            for k in range(paired):
                _map(before[i1 + k], after[j1 + k], at_before + (i1 + k,), at_after + (j1 + k,), sources)
            for k in range(paired, j2 - j1):
                _unsourced(after[j1 + k], at_after + (j1 + k,), sources)
    else:
        _unsourced(after, at_after, sources)


def _carried(value: Any, at_before: Path, at_after: Path, sources: dict[Path, Path | None]) -> None:
    if is_leaf(value):
        sources[at_after] = at_before
        return
    size = len(at_after)
    for leaf_path, _ in leaves(value, at_after):
        sources[leaf_path] = at_before + leaf_path[size:]


def _unsourced(value: Any, path: Path, sources: dict[Path, Path | None]) -> None:
    for leaf_path, _ in leaves(value, path):
        sources[leaf_path] = None


def blame(session: Session, entry_id: Id) -> list[LeafOrigin]:
    """Each leaf of entry `entry_id`'s input and the earlier entry that set it (KeyError: no such entry)."""
    entry = session.entry(entry_id)
    if entry is None:
        raise KeyError(entry_id)
    made_from = predecessors(session)
    found = list(leaves(entry.input))
    setters: dict[Path, Entry] = {}
    pending: dict[Path, Path] = {path: path for path, _ in found}  # leaf of `entry` → its path in `node`
    node = entry
    while pending:
        previous = made_from[node.key][0]
        if previous is None:
            setters.update((path, node) for path in pending)
            break
        sources = leaf_sources(previous.input, node.input)
        still: dict[Path, Path] = {}
        for path, at_node in pending.items():
            at_previous = sources.get(at_node)
            if at_previous is None:
                setters[path] = node
            else:
                still[path] = at_previous
        pending, node = still, previous
    parents: dict[Path, str] = {}  # the pointer of each container, made once for all its leaves

    def leaf_pointer(path: Path) -> str:
        if not path:
            return ""
        parent = path[:-1]
        if parent not in parents:
            parents[parent] = pointer(parent)
        last = path[-1]
        return parents[parent] + (f"/{last}" if type(last) is int else pointer((last,)))

    return [LeafOrigin(leaf_pointer(path), value, setters[path], entry) for path, value in found]


def blame_document(session: Session, entry_id: Id) -> dict[str, Any]:
    """`{"entry", "call", "leaves": [...]}` for `wsi diff --blame ID --json`."""
    entry = session.entry(entry_id)
    origins = blame(session, entry_id)
    return {"entry": entry.id, "call": entry.call, "leaves": [o.as_json() for o in origins]}  # type: ignore[union-attr]
