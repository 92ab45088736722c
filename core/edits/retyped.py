"""Retyped values (SPEC 7): where a body typed again a value it could have read.

A part of a body's call input (an array of at least 4 elements, or an object of at least 3 keys)
that equals a part of an entry the body was handed (its store, as trimmed for it) or of a kept value,
when the body read none of the places holding it. This tells an agent's developers whether the
model uses run.inputs or copies by hand. The reads come from a replay of the body (`wsi_inspector.core.edits.body_reads`,
or the replays `wsi check` already makes).
"""
from __future__ import annotations

import hashlib
import weakref
from typing import Any, Callable, Iterator, TypedDict

import orjson

from wsi_inspector.core.edits.diff import Token, pointer
from wsi_inspector.core.edits.evidence import Read
from wsi_inspector.core.jsrules.jsonsize import json_bytes
from wsi_inspector.core.session.model import Body, Entry, Id
from wsi_inspector.core.jsrules.run_inputs import trim_store
from wsi_inspector.core.session.load import Session

MIN_ARRAY = 4
MIN_KEYS = 3
MAX_NODES = 200_000  # containers looked at in one value
MAX_PLACES = 256  # places held per distinct part; a part in more is not judged

Place = tuple[str, str, str]  # ("entry" | "kept", entry id or kept name, pointer)


class SameAs(TypedDict, total=False):
    """Where the retyped value was there to read: an entry's input or a kept value, and the path in it."""

    entry: Id
    kept: str
    path: str


class Retyped(TypedDict):
    """One value a body typed again (SPEC 7 "Retyped")."""

    body: Id
    entry: Id
    path: str
    sameAs: SameAs
    bytes: int


class RetypedDocument(TypedDict):
    """`wsi retyped --json`: the values, and the bodies whose reads are not known."""

    retyped: list[Retyped]
    notReplayed: list[Id]


def _parts(value: Any) -> Iterator[tuple[tuple[Token, ...], Any]]:
    """Every container of `value` big enough to count, outermost first, at most MAX_NODES looked at."""
    todo: list[tuple[tuple[Token, ...], Any]] = [((), value)]
    seen = 0
    while todo and seen < MAX_NODES:
        path, item = todo.pop()
        seen += 1
        if isinstance(item, dict):
            if len(item) >= MIN_KEYS:
                yield path, item
            todo.extend((path + (key,), member) for key, member in reversed(item.items()) if isinstance(member, (dict, list)))
        elif isinstance(item, list):
            if len(item) >= MIN_ARRAY:
                yield path, item
            todo.extend((path + (index,), item[index]) for index in range(len(item) - 1, -1, -1)
                        if isinstance(item[index], (dict, list)))


def _key(value: Any) -> bytes:
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS)


def _digest(part: Any) -> bytes:
    return hashlib.blake2b(_key(part), digest_size=16).digest()


class _SessionParts:
    """Every countable part of every entry's input, by digest, and each body's calls: made once per session.

    A part held in more than MAX_PLACES places is not judged (None): too many places to say none was read.
    """

    def __init__(self, session: Session):
        self.places: dict[bytes, list[tuple[str, str]] | None] = {}
        self.calls: dict[str, list[Entry]] = {}
        for entry in session.entries:
            if not entry.applied and entry.body is not None:
                self.calls.setdefault(str(entry.body), []).append(entry)
            for path, part in _parts(entry.input):
                digest = _digest(part)
                places = self.places.setdefault(digest, [])
                if places is None:
                    continue
                if len(places) >= MAX_PLACES:
                    self.places[digest] = None
                else:
                    places.append((entry.key, pointer(path)))


# Each session's parts while it is in use (weakly: a checked session is let go with them).
_made: weakref.WeakKeyDictionary[Session, _SessionParts] = weakref.WeakKeyDictionary()


def _parts_of(session: Session) -> _SessionParts:
    made = _made.get(session)
    if made is None:
        made = _made[session] = _SessionParts(session)
    return made


def _was_read(place: Place, reads: list[Read]) -> bool:
    kind, name, path = place
    for record in reads:
        if kind == "entry" and (record.get("entry") is None or str(record["entry"]) != name):
            continue
        if kind == "kept" and (record.get("what") != "kept" or record.get("name") != name):
            continue
        # Read there: the part, a value holding it, or a value inside it (a part built from what was read
        # is not a copy by hand; its own big parts are judged on their own).
        if any(p == "" or path == "" or path == p or path.startswith(p + "/") or p.startswith(path + "/")
               for p in record.get("paths", [])):
            return True
    return False


def retyped_in_body(session: Session, body: Body, reads: list[Read]) -> list[Retyped]:
    """SPEC 7's retyped records of one body: `{"body", "entry", "path", "sameAs": {"entry"|"kept", "path"}, "bytes"}`."""
    parts = _parts_of(session)
    calls = parts.calls.get(body.key, [])
    if not calls:
        return []
    state = session.state_at(body.id)
    store = state.store
    if session.caps.store_bytes is not None:
        store, _ = trim_store(store, session.caps.store_bytes)
    position = {entry.key: n for n, entry in enumerate(store)}  # what the body was handed, in timeline order
    kept: dict[bytes, list[Place]] = {}
    for name, value in state.kept.items():
        for path, part in _parts(value):
            kept.setdefault(_digest(part), []).append(("kept", name, pointer(path)))
    found: list[Retyped] = []
    for entry in calls:
        reported: list[tuple[Token, ...]] = []
        for path, part in _parts(entry.input):
            if any(path[: len(done)] == done for done in reported):
                continue  # inside a part already reported
            digest = _digest(part)
            held = parts.places.get(digest, [])
            if held is None:
                continue  # in too many places to judge
            places: list[Place] = [("entry", key, at) for key, at in sorted(
                ((key, at) for key, at in held if key in position), key=lambda place: position[place[0]])]
            places += kept.get(digest, [])
            if not places or any(_was_read(place, reads) for place in places):
                continue
            kind, name, at = places[-1]  # a kept value holding it, else the newest entry
            same: SameAs = {"kept": name, "path": at} if kind == "kept" else {"entry": _entry_id(session, name), "path": at}
            found.append({"body": body.id, "entry": entry.id, "path": pointer(path), "sameAs": same, "bytes": json_bytes(part)})
            reported.append(path)
    return found


def _entry_id(session: Session, key: str) -> Id:
    entry = session.entry(key)
    return entry.id if entry is not None else key


def retyped_document(session: Session, reads_of: Callable[[Body], list[Read] | None]) -> RetypedDocument:
    """`{"retyped": [...], "notReplayed": [body ids]}`; `reads_of(body)` gives a body's reads or None."""
    found: list[Retyped] = []
    not_replayed: list[Id] = []
    for body in session.bodies:
        reads = reads_of(body)
        if reads is None:
            not_replayed.append(body.id)
            continue
        found.extend(retyped_in_body(session, body, reads))
    return {"retyped": found, "notReplayed": not_replayed}
