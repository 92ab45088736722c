"""Provenance ("blame"): which earlier entry of the same call set each leaf of an entry's input.

The rule (seed 002): a value the person set is the person's only in the person's own edit. When
a later body's call carries that value forward unchanged, the leaf is shown as carried by that
body from the person's edit, never as the person's call; the call is the body's.

Each entry is traced through the entries it was made from (`wsi_inspector.core.edits.edits.predecessors`: editOf,
else the newest earlier entry of the same call). A leaf is a scalar, an empty array or object,
or a point (points are one value, as in `wsi_inspector.core.edits.diff`); arrays are aligned as the diff aligns
them, so a point inserted upstream does not make every later point look new.

`Provenance` keeps the setters it found per entry (within a bound on the leaves it holds), so
blaming every step of a 4,000-step chain walks each step once, not the chain again per entry.
Walks over values keep their own stack: inputs may nest deeper than Python's.
"""
from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Iterator, NotRequired, TypedDict, cast

from wsi_inspector.core.edits.align import all_points, array_opcodes
from wsi_inspector.core.edits.diff import Token, pointer
from wsi_inspector.core.edits.edits import predecessors
from wsi_inspector.core.jsrules.json_values import is_point, json_equal
from wsi_inspector.core.session.model import Entry, Id
from wsi_inspector.core.session.load import Session
from wsi_inspector.core.edits.units import Conversion

Path = tuple[Token, ...]


class Carrier(TypedDict):
    """The entry that carried a leaf's value from its setter: made by the person, or by a body (named)."""

    entry: Id
    by: str  # "person" | "body"
    body: NotRequired[Id | None]


class BlamedLeaf(TypedDict):
    """One leaf of `wsi diff --blame ID --json`'s `leaves`: who set its value, who carried it, how it is known."""

    path: str
    value: Any
    setBy: str  # "person" | "body"
    entry: Id
    body: NotRequired[Id | None]
    carriedBy: NotRequired[Carrier]
    evidence: NotRequired[str]
    read: NotRequired[dict[str, Any]]
    equalTo: NotRequired[Id]
    text: str


class BlameDocument(TypedDict):
    """`wsi diff --blame ID --json`: the entry, how its carried leaves were judged (SPEC 7), and each leaf."""

    entry: Id
    call: str
    basis: NotRequired[str]  # "reads" | "value"
    leaves: list[BlamedLeaf]


@dataclass(slots=True)
class LeafOrigin:
    """One leaf of an entry's input, the entry that set its value, and the entry that carried it (if not the setter)."""

    path: str
    value: Any
    setter: Entry
    carrier: Entry  # the entry whose input was blamed
    evidence: str | None = None  # SPEC 7 (wsi_inspector.core.edits.evidence): "read" or "equal"; None: by value only
    read: dict[str, Any] | None = None  # the read behind "read": {body, line, column, expr}
    equal_to: Entry | None = None  # for "equal": the earlier entry holding the same value, never read

    @property
    def by_person(self) -> bool:
        return self.setter.applied

    @property
    def carried(self) -> bool:
        return self.setter is not self.carrier

    def text(self) -> str:
        """In words: `set by the person's edit e1`, `carried by body b5 (call c20) from the person's edit e1`."""
        source = _who(self.setter)
        if self.evidence == "equal" and self.equal_to is not None:
            return f"typed again by {source}: equal to {_who(self.equal_to)}, never read there"
        if not self.carried:
            return f"set by {source}"
        if self.evidence == "read" and self.read is not None:
            return f"carried by {_who(self.carrier)} from {source}, read at line {self.read['line']} ({self.read['expr']})"
        return f"carried by {_who(self.carrier)} from {source}"

    def short(self) -> str:
        """Who set the value, in a few characters for a column: `✎ e1 (person)`, `c4 (body b2)`, and the
        evidence when there is some: `✎ e1 (person) · read b5:2` (read by body b5 at its line 2), `c21 (body b5) · typed again`."""
        if self.by_person:
            who = f"✎ {self.setter.id} (person)"
        else:
            body = f" (body {self.setter.body})" if self.setter.body is not None else ""
            who = f"{self.setter.id}{body}"
        return who + self._evidence_mark()

    def mark(self) -> str:
        """Who set the value as a compact mark for a narrow column (the words are `text()`): `✎ e1`, `c4`, `c20 ← ✎ e1` when
        carried, and the evidence when there is some: `c2 ← ✎ e1 · read b2:1`, `c2 · typed again`."""
        setter = f"✎ {self.setter.id}" if self.by_person else str(self.setter.id)
        return (setter if not self.carried else f"{self.carrier.id} ← {setter}") + self._evidence_mark()

    def _evidence_mark(self) -> str:
        """How the value is known, in a few characters: ` · read b5:2` (body b5 read it at its line 2), ` · typed again`."""
        if self.evidence == "read" and self.read is not None:
            return f" · read {self.read['body']}:{self.read['line']}"
        return " · typed again" if self.evidence == "equal" else ""

    def as_json(self) -> BlamedLeaf:
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
            carrier: Carrier = {"entry": self.carrier.id, "by": "person" if self.carrier.applied else "body"}
            if not self.carrier.applied:
                carrier["body"] = self.carrier.body
            document["carriedBy"] = carrier
        if self.evidence is not None:
            document["evidence"] = self.evidence
            if self.read is not None:
                document["read"] = self.read
            if self.equal_to is not None:
                document["equalTo"] = self.equal_to.id
        document["text"] = self.text()
        return cast(BlamedLeaf, document)  # built in the printed key order, `text` last


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
    todo: list[tuple[Path, Any]] = [(path, value)]
    while todo:
        at, item = todo.pop()
        if is_leaf(item):
            yield at, item
        elif isinstance(item, dict):
            todo.extend((at + (key,), member) for key, member in reversed(item.items()))
        elif all_points(item):  # a polyline: its points are its leaves, no need to look inside each
            yield from ((at + (index,), member) for index, member in enumerate(item))
        else:
            todo.extend((at + (index,), item[index]) for index in range(len(item) - 1, -1, -1))


def leaf_sources(before: Any, after: Any) -> dict[Path, Path | None]:
    """For each leaf of `after`: the path of the equal leaf in `before` it came from, or None (set here)."""
    sources: dict[Path, Path | None] = {}
    todo: list[tuple[Any, Any, Path, Path]] = [(before, after, (), ())]
    while todo:
        old, new, at_before, at_after = todo.pop()
        if is_leaf(new):
            sources[at_after] = at_before if json_equal(old, new) else None
        elif isinstance(new, dict) and isinstance(old, dict) and not is_point(old):
            for key, item in new.items():
                if key in old:
                    todo.append((old[key], item, at_before + (key,), at_after + (key,)))
                else:
                    _unsourced(item, at_after + (key,), sources)
        elif isinstance(new, list) and isinstance(old, list) and not is_point(old):
            points = all_points(new)
            for tag, i1, i2, j1, j2 in array_opcodes(old, new):
                if tag == "equal" and points:  # equal points: each is a leaf from the same place in `before`
                    sources.update((at_after + (j1 + k,), at_before + (i1 + k,)) for k in range(i2 - i1))
                elif tag == "equal":  # equal elements: every leaf inside comes from the same place in `before`
                    for k in range(i2 - i1):
                        _carried(new[j1 + k], at_before + (i1 + k,), at_after + (j1 + k,), sources)
                else:
                    paired = min(i2 - i1, j2 - j1)
                    todo.extend((old[i1 + k], new[j1 + k], at_before + (i1 + k,), at_after + (j1 + k,))
                                for k in range(paired))
                    for k in range(paired, j2 - j1):
                        _unsourced(new[j1 + k], at_after + (j1 + k,), sources)
        else:
            _unsourced(new, at_after, sources)
    return sources


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


class Provenance:
    """Who set each leaf, per entry of one session, each entry traced from its predecessor's answer once."""

    LEAF_BUDGET = 2_000_000  # leaves of remembered answers; past it the oldest answers are let go

    def __init__(self, session: Session):
        self.session = session
        self.made_from = predecessors(session)
        self.known: OrderedDict[str, dict[Path, Entry]] = OrderedDict()
        self.held = 0

    def setters(self, entry: Entry) -> dict[Path, Entry]:
        """Each leaf path of `entry`'s input and the entry that set its value."""
        lineage, node = [], entry
        while node.key not in self.known:  # back to an entry already answered, or the first of its line
            lineage.append(node)
            previous = self.made_from[node.key][0]
            if previous is None:
                break
            node = previous
        found = self.known.get(node.key) if node.key in self.known else None
        for step in reversed(lineage):
            previous = self.made_from[step.key][0]
            value = step.input
            if previous is None or found is None:
                found = {path: step for path, _ in leaves(value)}
            else:
                if previous.unit and step.unit and previous.unit != step.unit:  # a length equal after conversion is carried
                    value = Conversion(step.unit, previous.unit).value(value)
                sources = leaf_sources(previous.input, value)
                earlier = found
                found = {path: step if source is None else earlier.get(source, step) for path, source in sources.items()}
            self._remember(step.key, found)
        assert found is not None
        if entry.key in self.known:
            self.known.move_to_end(entry.key)
        return found

    def _remember(self, key: str, found: dict[Path, Entry]) -> None:
        self.known[key] = found
        self.held += len(found)
        while self.held > self.LEAF_BUDGET and len(self.known) > 1:
            _, dropped = self.known.popitem(last=False)
            self.held -= len(dropped)

    def blame(self, entry: Entry) -> list[LeafOrigin]:
        """Each leaf of `entry`'s input and the earlier entry that set it."""
        setters = self.setters(entry)
        parents: dict[Path, str] = {}  # the pointer of each container, made once for all its leaves

        def leaf_pointer(path: Path) -> str:
            if not path:
                return ""
            parent = path[:-1]
            if parent not in parents:
                parents[parent] = pointer(parent)
            last = path[-1]
            return parents[parent] + (f"/{last}" if type(last) is int else pointer((last,)))

        return [LeafOrigin(leaf_pointer(path), value, setters.get(path, entry), entry) for path, value in leaves(entry.input)]


def blame(session: Session, entry_id: Id) -> list[LeafOrigin]:
    """Each leaf of entry `entry_id`'s input and the earlier entry that set it (KeyError: no such entry)."""
    entry = session.entry(entry_id)
    if entry is None:
        raise KeyError(entry_id)
    return Provenance(session).blame(entry)


def blame_document(session: Session, entry_id: Id, origins: list[LeafOrigin] | None = None,
                   basis: str | None = None) -> BlameDocument:
    """`{"entry", "call", "basis"?, "leaves": [...]}` for `wsi diff --blame ID --json`.

    `basis` (SPEC 7, docs/cli.md): "reads" when the body's reads judged every carried leaf, "value"
    when the body could not be replayed and carried leaves are by equal values only.
    """
    entry = session.entry(entry_id)
    if origins is None:
        origins = blame(session, entry_id)
    document: dict[str, Any] = {"entry": entry.id, "call": entry.call}  # type: ignore[union-attr]
    if basis is not None:
        document["basis"] = basis
    document["leaves"] = [o.as_json() for o in origins]
    return cast(BlameDocument, document)  # built in the printed key order, `leaves` last
