"""worker-session/1's JSON form (SPEC 2): one document, its store cut into records that load one by one.

A record that cannot be parsed on its own (a byte that is not UTF-8, nesting deeper than
`MAX_DEPTH`) is an error at the `line:column` of the bad spot, naming the record's pointer; the
other records load. When nothing of the file can be read as JSON (damaged gzip, a syntax error in
the document), `session.unreadable` is that one error.
"""
from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

import msgspec

from core.formats.worker_session_1.header import HEADER_PARTS, read_header
from core.model import Entry, Problem
from core.place import NOWHERE, Place
from core.reading import JsonSyntaxError, locate_failure, parse_json, position_of, starts_with
from core.records import RecordChecker
from core.run_inputs import measure

if TYPE_CHECKING:
    from core.session import Session

# A broken JSON-form file bigger than this is placed by msgspec, which only checks, instead of the
# full parsers, which build everything before the bad spot (ten times the text for float-heavy data).
WHOLE_PARSE_LIMIT = 16 * 1024 * 1024
NOT_AN_OBJECT = "not a session: the file is JSON but not an object"


def unreadable(session: Session, problem: Problem) -> None:
    session.problems.append(problem)
    session.unreadable = problem


_UNREADABLE = object()  # a record that does not parse on its own (its problem is listed)


def _record(session: Session, text: Any, raw: Any, pointer: str, what: str) -> Any:
    """A store or bodies record: parsed when msgspec left it as its text; _UNREADABLE when that does not parse."""
    if not isinstance(raw, msgspec.Raw):
        return raw
    try:
        return parse_json(memoryview(raw))
    except JsonSyntaxError as exc:
        _record_error(session, text, raw, pointer, exc, what)
        return _UNREADABLE


def _record_error(session: Session, text: Any, raw: Any, pointer: str, exc: JsonSyntaxError, what: str) -> None:
    """A part of the JSON form that does not parse on its own: placed in the file, the rest still loads."""
    start = _offset_of(text, raw)
    where = Place.spot(*position_of(text, start + exc.offset), Place.from_pointer(pointer)) if start is not None else pointer
    session.problems.append(Problem("error", where, f"{pointer}: {exc}; {what} is not loaded"))


def _offset_of(text: Any, raw: Any) -> int | None:
    """Where `raw`, a piece msgspec cut out of `text` without copying, starts in it."""
    import numpy

    start = numpy.frombuffer(raw, numpy.uint8).ctypes.data - numpy.frombuffer(text, numpy.uint8).ctypes.data
    return start if 0 <= start < len(text) else None


def read_json(session: Session, text: bytes) -> None:
    document = _split_json(session, text)
    if document is None and len(text) > WHOLE_PARSE_LIMIT:
        failure = locate_failure(text)
        if failure is not None:
            unreadable(session, Problem("error", failure.where, str(failure)))
            return
        if not starts_with(text, b"{"):  # JSON, but not an object: said without building it
            unreadable(session, Problem("error", "", NOT_AN_OBJECT))
            return
    if document is None:
        try:
            document = parse_json(text)
        except JsonSyntaxError as exc:
            unreadable(session, Problem("error", exc.where, str(exc)))
            return
    if not isinstance(document, dict):
        unreadable(session, Problem("error", "", NOT_AN_OBJECT))
        return
    read_header(session, document, NOWHERE)
    checker = RecordChecker(session.problems)
    store = document.get("store")
    if store is None:
        session.problems.append(Problem("error", "/store", "missing: a session needs store, an array of entries, oldest first"))
    elif not isinstance(store, list):
        session.problems.append(Problem("error", "/store", "store must be an array of entries, oldest first"))
    else:
        for index, raw in enumerate(store):
            record = _record(session, text, raw, f"/store/{index}", "this entry")
            if record is not _UNREADABLE:
                add_entry(session, checker.entry(record, f"/store/{index}"), raw if isinstance(raw, msgspec.Raw) else None)
    bodies = document.get("bodies", [])
    if not isinstance(bodies, list):
        session.problems.append(Problem("error", "/bodies", "bodies must be an array"))
        bodies = []
    for index, raw in enumerate(bodies):
        record = _record(session, text, raw, f"/bodies/{index}", "this body")
        body = checker.body(record, f"/bodies/{index}") if record is not _UNREADABLE else None
        if body is not None:
            session.timeline.append(body)
    kept = document.get("kept")
    if kept is not None:
        if isinstance(kept, dict):
            session.final_kept = kept
        else:
            session.problems.append(Problem("error", "/kept", "kept must be an object of named values"))
    known = {*HEADER_PARTS, "store", "bodies", "kept"}
    session.extra = {k: v for k, v in document.items() if k not in known}


class _Parts(msgspec.Struct, forbid_unknown_fields=True):
    """A session document's parts, each left as its text, the store cut into its records' texts."""

    format: msgspec.Raw | msgspec.UnsetType = msgspec.UNSET
    session: msgspec.Raw | msgspec.UnsetType = msgspec.UNSET
    caps: msgspec.Raw | msgspec.UnsetType = msgspec.UNSET
    scene: msgspec.Raw | msgspec.UnsetType = msgspec.UNSET
    modules: msgspec.Raw | msgspec.UnsetType = msgspec.UNSET
    store: list[msgspec.Raw] | msgspec.UnsetType = msgspec.UNSET
    bodies: list[msgspec.Raw] | msgspec.UnsetType = msgspec.UNSET
    kept: msgspec.Raw | msgspec.UnsetType = msgspec.UNSET


_RECORD_LISTS = ("store", "bodies")  # parts whose elements are records, parsed (and refused) one by one


def _split_json(session: Session, text: bytes) -> dict[str, Any] | None:
    """The document with every member parsed but `store`, whose records are left as their own texts.

    msgspec checks the whole text in C and cuts it into pieces without building them, so records are
    parsed one at a time and let go (see Entry): the peak is then about the file, not the file, its
    parse tree and all of its objects (ten times the file for a float-heavy store). None when msgspec
    refuses the text; the full parser then says where and why, or reads what only it accepts.
    """
    try:
        try:  # one pass when the file holds only the parts SPEC 2 names
            parts = msgspec.json.decode(text, type=_Parts)
            members: dict[str, Any] = {f: getattr(parts, f) for f in _Parts.__struct_fields__}
        except msgspec.ValidationError:  # more parts (kept as extra), or a store that is not an array
            members = msgspec.json.decode(text, type=dict[str, msgspec.Raw])
    except (msgspec.DecodeError, msgspec.ValidationError, RecursionError):
        # Not JSON, or nested deeper than msgspec walks (RECURSION_LIMIT): the whole-text parse says where.
        return None
    document: dict[str, Any] = {}
    for name, raw in members.items():
        if raw is msgspec.UNSET:
            continue
        if name in _RECORD_LISTS and isinstance(raw, msgspec.Raw):
            try:
                raw = msgspec.json.decode(raw, type=list[msgspec.Raw])
            except (msgspec.DecodeError, msgspec.ValidationError):  # not an array: the checks below say so
                pass
        if isinstance(raw, list):
            document[name] = raw  # its records are parsed one by one
            continue
        try:
            document[name] = parse_json(memoryview(raw))
        except JsonSyntaxError as exc:
            _record_error(session, text, raw, f"/{name}", exc, "this part")
            session._broken_parts.add(name)
    return document


def add_entry(session: Session, entry: Entry | None, text: bytes | msgspec.Raw | None = None) -> None:
    """Measure a checked entry while its input is parsed, keep only `text` if there is one, and add it."""
    if entry is not None:
        session.timeline.append(held_entry(entry, text))


def held_entry(entry: Entry, text: bytes | msgspec.Raw | None = None) -> Entry:
    """The entry measured while its input is parsed, then holding only `text` (its record) if there is one.

    A session repeats a few calls, units and input key sets 100,000 times: each is kept once (the
    shape, `{"keys": [...]}`, is then shared by the entries that have it, and is read-only).
    """
    input_json = measure(entry)
    entry.call = sys.intern(entry.call)
    if entry.unit is not None:
        entry.unit = sys.intern(entry.unit)
    shape = entry.input_shape
    if shape is not None and "keys" in shape:
        keys = tuple(shape["keys"])
        shared = _SHAPES.get(keys)
        if shared is None and len(_SHAPES) < _SHAPES_KEPT:
            shared = _SHAPES[keys] = shape
        if shared is not None:
            entry.input_shape = shared
    if text is not None:
        entry.hold_as_text(text, input_json)
    return entry


_SHAPES: dict[tuple[str, ...], dict[str, Any]] = {}  # input shapes met, so equal ones are kept once
_SHAPES_KEPT = 4096  # key sets remembered at most (a cache, not a record of every session)


